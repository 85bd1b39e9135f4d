// Language models through the Vercel AI SDK: a handle per configured model (openai, anthropic, google, ollama,
// openai-compatible), and one client that calls them with structured output, limits, timeouts and retries.
import type { Config } from '../../../shared/config'
import { DEFAULT_MODEL_SETTINGS, type ModelSettings } from './client'

export {
  addUsage,
  DEFAULT_MODEL_SETTINGS,
  ModelClient,
  ModelError,
  type ModelSettings,
  type RequestTally,
  type StructuredAnswer,
  type StructuredRequest,
  tallied,
  UnusableAnswerError,
} from './client'
export { Limiter, Limiters } from './limiter'
export { modelEndpoint, modelHandle, type ModelHandle } from './registry'
export { backoffMs, classify, retryAfterMs } from './retry'

/// The configured way of calling models, with defaults for what the config leaves out.
export function modelSettings(models: Config['models']): ModelSettings {
  return {
    requestTimeoutMs: models.requestTimeoutMs ?? DEFAULT_MODEL_SETTINGS.requestTimeoutMs,
    maxRetries: models.maxRetries ?? DEFAULT_MODEL_SETTINGS.maxRetries,
    retryDelayMs: models.retryDelayMs ?? DEFAULT_MODEL_SETTINGS.retryDelayMs,
    concurrencyPerProvider: models.concurrencyPerProvider ?? DEFAULT_MODEL_SETTINGS.concurrencyPerProvider,
  }
}

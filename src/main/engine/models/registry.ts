import type { LanguageModel } from 'ai'
import type { ModelConfig } from '../../../shared/config'
import { apiKeys, type ApiKeys } from '../base/keys'
import { PermanentError } from '../base/errors'

/// A provider's model as the engine calls it (every provider package makes models of this version).
export type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>

/// A configured model, ready to be called: its provider instance is made on first use, so that a missing key is
/// reported when a check needs the model (as the unit's error), never as a crash at start.
export interface ModelHandle {
  readonly config: ModelConfig
  /// Where `config` was found, for messages (e.g. `models.panel[1]`).
  readonly where: string
  /// Requests to the same provider endpoint share one concurrency limit.
  readonly providerKey: string
  /// Identifies what answers: provider, endpoint and model name (the vote cache is keyed by it, so a panel id
  /// pointed at another model starts afresh).
  readonly cacheKey: string
  /// The API key, saved in the app or named by the config; the client redacts it from every message.
  apiKey(): string | undefined
  languageModel(): Promise<LanguageModelV3>
}

/// Where each provider's requests go when the config gives no baseURL.
const DEFAULT_ENDPOINTS: Record<ModelConfig['provider'], string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
  ollama: 'http://127.0.0.1:11434/api',
  'openai-compatible': '',
}

/// Where a configured model's requests go: its baseURL, else its provider's public endpoint ('' for none).
export const modelEndpoint = (config: ModelConfig): string =>
  config.baseURL ?? DEFAULT_ENDPOINTS[config.provider]

/// Makes a handle for a configured model; its key comes from `keys` (the app's store, then the environment).
export function modelHandle(config: ModelConfig, where: string, keys: ApiKeys = apiKeys()): ModelHandle {
  const endpoint = modelEndpoint(config)
  const providerKey = `${config.provider} ${endpoint}`
  let model: LanguageModelV3 | null = null

  const apiKey = (): string | undefined => {
    const value = keys.model(config.id, config.apiKeyEnv)
    if (value === undefined && config.apiKeyEnv !== undefined) {
      throw new PermanentError(
        `The model "${config.id}" (${where}) needs an API key in the environment variable ${config.apiKeyEnv}, ` +
          'which is not set. Set it where the engine runs (or, in the app, enter the key under Settings > Models).',
      )
    }
    return value
  }

  return {
    config,
    where,
    providerKey,
    cacheKey: `${providerKey} ${config.model}`,
    apiKey,
    async languageModel() {
      model ??= await create(config, apiKey(), where)
      return model
    },
  }
}

/// The provider's package is loaded on its first model: the five are megabytes of heap that an engine running
/// t1 only, or one provider, would hold.
async function create(
  config: ModelConfig,
  apiKey: string | undefined,
  where: string,
): Promise<LanguageModelV3> {
  const baseURL = config.baseURL
  switch (config.provider) {
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai')
      return createOpenAI({ apiKey, baseURL })(config.model)
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic')
      return createAnthropic({ apiKey, baseURL })(config.model)
    }
    case 'google': {
      const { createGoogleGenerativeAI } = await import('@ai-sdk/google')
      return createGoogleGenerativeAI({ apiKey, baseURL })(config.model)
    }
    case 'ollama': {
      const { createOllama } = await import('ollama-ai-provider-v2')
      return createOllama({
        baseURL,
        headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : undefined,
      })(config.model)
    }
    case 'openai-compatible': {
      if (!baseURL) {
        throw new PermanentError(
          `The model "${config.id}" (${where}) is openai-compatible and needs a baseURL, e.g. http://127.0.0.1:11434/v1.`,
        )
      }
      // Structured output through `response_format: json_schema`; no tool calling, so any server that honours
      // it (Ollama, LM Studio, vLLM, llama.cpp) works. Usage is asked for in streams too.
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible')
      return createOpenAICompatible({
        name: config.id,
        baseURL,
        apiKey,
        supportsStructuredOutputs: true,
        includeUsage: true,
      })(config.model)
    }
  }
}

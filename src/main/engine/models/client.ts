import { setTimeout as sleep } from 'node:timers/promises'
import {
  generateText,
  jsonSchema,
  Output,
  zodSchema,
  type LanguageModel,
  type LanguageModelUsage,
  type Schema,
} from 'ai'
import type { z } from 'zod'
import type { TokenUsage } from '../../../shared/schemas'
import { PermanentError } from '../errors'
import { Limiters } from './limiter'
import type { ModelHandle } from './registry'
import { backoffMs, classify } from './retry'

/// How models are called (the config's `models` members of the same names).
export interface ModelSettings {
  /// Time allowed for one request.
  requestTimeoutMs: number
  /// Retries after a 429, a 5xx, a timeout or a lost connection.
  maxRetries: number
  /// First backoff delay, doubled each retry, with jitter; a Retry-After header wins.
  retryDelayMs: number
  /// Requests in flight at once to one provider endpoint.
  concurrencyPerProvider: number
}

export const DEFAULT_MODEL_SETTINGS: ModelSettings = {
  requestTimeoutMs: 60_000,
  maxRetries: 3,
  retryDelayMs: 1000,
  concurrencyPerProvider: 4,
}

/// One structured request: the answer must follow `schema` (sent as the response format's JSON schema and
/// validated with zod on return).
export interface StructuredRequest<T> {
  system: string
  prompt: string
  schema: z.ZodType<T>
  /// The JSON schema's name in the request.
  name: string
  /// Cancels waiting, the request in flight (its connection is closed) and any backoff.
  signal: AbortSignal
}

export interface StructuredAnswer<T> {
  object: T
  /// Tokens the successful request used, when the provider said.
  usage: TokenUsage | null
}

/// A request that kept failing in a way worth retrying; the job runner may try the unit again later.
export class ModelError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ModelError'
  }
}

/// A request that was answered, but not usefully (mostly an answer that does not follow the schema): asking
/// again may mend it, asking later will not help more than asking now.
export class UnusableAnswerError extends ModelError {
  constructor(message: string) {
    super(message)
    this.name = 'UnusableAnswerError'
  }
}

/// Calls models through the AI SDK with per-provider concurrency limits, a timeout per request, retries with
/// backoff and jitter on 429 and 5xx (honouring Retry-After), cancellation and token accounting.
export class ModelClient {
  private readonly limiters: Limiters

  constructor(readonly settings: ModelSettings = DEFAULT_MODEL_SETTINGS) {
    this.limiters = new Limiters(settings.concurrencyPerProvider)
  }

  /// The longest one call may take with every retry, for the job runner's unit timeout.
  worstCaseMs(): number {
    const { requestTimeoutMs, maxRetries } = this.settings
    return (maxRetries + 1) * requestTimeoutMs + maxRetries * 60_000
  }

  async generate<T>(handle: ModelHandle, request: StructuredRequest<T>): Promise<StructuredAnswer<T>> {
    return this.call(handle, request.signal, async (model, abortSignal) => {
      const result = await generateText({
        model,
        system: request.system,
        prompt: request.prompt,
        output: Output.object({ schema: responseSchema(request.schema), name: request.name }),
        // Retries are ours: they honour Retry-After, hold no concurrency slot while waiting and are counted.
        maxRetries: 0,
        abortSignal,
      })
      return { object: result.output as T, usage: tokenUsage(result.totalUsage) }
    })
  }

  /// A plain-text request (no system prompt, no response format), for models trained on one fixed prompt
  /// that answer in words, such as bespoke-minicheck's "Document: … Claim: …" → "Yes" or "No".
  async text(
    handle: ModelHandle,
    request: { prompt: string; signal: AbortSignal },
  ): Promise<{ text: string; usage: TokenUsage | null }> {
    return this.call(handle, request.signal, async (model, abortSignal) => {
      const result = await generateText({ model, prompt: request.prompt, maxRetries: 0, abortSignal })
      return { text: result.text, usage: tokenUsage(result.totalUsage) }
    })
  }

  /// Runs one request to `handle` under its provider's concurrency limit and the request timeout, retrying as
  /// the settings say; errors become sentences with the key redacted.
  private async call<R>(
    handle: ModelHandle,
    signal: AbortSignal,
    request: (model: LanguageModel, abortSignal: AbortSignal) => Promise<R>,
  ): Promise<R> {
    const who = `${handle.config.id} (${handle.config.provider} ${handle.config.model})`
    const model = handle.languageModel()
    // A provider may echo the key in an error, in any case; it never reaches a check's error or a log.
    const key = handle.apiKey()
    const redact = (message: string): string =>
      key
        ? message.replace(new RegExp(key.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'), 'gi'), '[redacted]')
        : message
    const limiter = this.limiters.for(handle.providerKey)
    for (let retry = 0; ; retry++) {
      const release = await limiter.acquire(signal)
      const timeout = AbortSignal.timeout(this.settings.requestTimeoutMs)
      let waitMs: number
      try {
        return await request(model, AbortSignal.any([signal, timeout]))
      } catch (error) {
        if (signal.aborted) throw signal.reason as Error
        const failure = classify(error, timeout.aborted, this.settings.requestTimeoutMs)
        const message = redact(`${who}: ${failure.message}`)
        if (failure.kind === 'permanent') throw new PermanentError(message)
        if (failure.kind === 'other') throw new UnusableAnswerError(message)
        if (retry >= this.settings.maxRetries)
          throw new ModelError(`${message} (${retry + 1} attempt${retry === 0 ? '' : 's'})`)
        // Honour the server's wait (plus a little jitter so that a crowd does not return at once).
        waitMs =
          failure.waitMs === null
            ? backoffMs(retry, this.settings.retryDelayMs)
            : failure.waitMs * (1 + Math.random() / 10)
      } finally {
        release()
      }
      await sleep(waitMs, undefined, { signal })
    }
  }
}

/// `schema` as the response format's JSON schema in as few tokens as say the same (every request pays for them):
/// without its `$schema` member (no provider reads the dialect's address), a member schema used more than once
/// (a batch's votes) defined once and referred to, its nullable members compact.
function compactSchema<T>(schema: z.ZodType<T>): Schema<T> {
  const converted = zodSchema(schema, { useReferences: true })
  return jsonSchema<T>(
    async () => {
      const { $schema: _dialect, definitions, ...rest } = await converted.jsonSchema
      // Defined under `$defs`, as OpenAI documents references (`#/$defs/…` is a pointer in any draft).
      return compactJsonSchema(
        definitions === undefined ? rest : { ...rest, $defs: definitions },
      ) as typeof rest
    },
    { validate: converted.validate },
  )
}

/// A JSON schema with each `anyOf` of one typed schema and null written as that schema with null among its
/// types (and its enum's values), as zod already writes a nullable string: the same answers, in about ten
/// tokens fewer per nullable enum. References to `definitions` point into `$defs`.
export function compactJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compactJsonSchema)
  if (typeof node !== 'object' || node === null) return node
  const compact = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string'
        ? value.replace(/^#\/definitions\//, '#/$defs/')
        : compactJsonSchema(value),
    ]),
  ) as Record<string, unknown>
  const { anyOf, ...others } = compact
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return compact
  const typed = anyOf.find((option) => option?.type !== 'null') as Record<string, unknown> | undefined
  const nullable = anyOf.some((option) => option?.type === 'null' && Object.keys(option).length === 1)
  if (!typed || !nullable || typeof typed.type !== 'string' || 'anyOf' in typed) return compact
  return {
    ...others,
    ...typed,
    type: [typed.type, 'null'],
    ...(Array.isArray(typed.enum) ? { enum: [...typed.enum, null] } : {}),
  }
}

/// The tokens of several calls together; null when none of them reported any.
export function addUsage(...usages: Array<TokenUsage | null>): TokenUsage | null {
  const known = usages.filter((usage) => usage !== null)
  if (known.length === 0) return null
  return {
    inputTokens: known.reduce((sum, usage) => sum + usage.inputTokens, 0),
    outputTokens: known.reduce((sum, usage) => sum + usage.outputTokens, 0),
  }
}

function tokenUsage(usage: LanguageModelUsage): TokenUsage | null {
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) return null
  return { inputTokens: usage.inputTokens ?? 0, outputTokens: usage.outputTokens ?? 0 }
}

// Each zod schema as the SDK's schema, made once: its JSON schema (built on first use and kept) would otherwise
// be converted again for every request.
const responseSchemas = new WeakMap<z.ZodType, unknown>()

function responseSchema<T>(schema: z.ZodType<T>): Schema<T> {
  let made = responseSchemas.get(schema) as Schema<T> | undefined
  if (!made) {
    made = compactSchema(schema)
    responseSchemas.set(schema, made)
  }
  return made
}

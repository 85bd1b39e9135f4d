import { AsyncLocalStorage } from 'node:async_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { zodSchema, type JSONSchema7 } from 'ai'
import { z } from 'zod'
import type { TokenUsage } from '../../../shared/schemas'
import { PermanentError } from '../base/errors'
import { Limiters } from './limiter'
import type { LanguageModelV3, ModelHandle } from './registry'
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
  /// What is wrong with an answer that follows the schema (a reference to nothing it was shown, a rewrite that
  /// says something else), in a sentence the model is told when it is asked again; null when it can be used.
  check?: (object: T) => string | null
}

export interface StructuredAnswer<T> {
  object: T
  /// Tokens the requests used (an answer asked again: both), when the provider said.
  usage: TokenUsage | null
  /// What `check` still found wrong after the model was asked again once: the caller falls back; else null.
  problem: string | null
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

/// What the model requests made within one piece of work cost: the requests sent (each attempt) and the tokens
/// each model spent, by its id.
export interface RequestTally {
  requests: number
  tokens: Map<string, TokenUsage>
}

const tallies = new AsyncLocalStorage<RequestTally>()

/// `work`, with every model request any client makes within it counted in `tally`, where it is made: the
/// verification eval measures each claim's requests and tokens so, whichever step made them.
export function tallied<T>(tally: RequestTally, work: () => Promise<T>): Promise<T> {
  return tallies.run(tally, work)
}

/// Calls models through the AI SDK with per-provider concurrency limits, a timeout per request, retries with
/// backoff and jitter on 429 and 5xx (honouring Retry-After), cancellation and token accounting.
export class ModelClient {
  /// `limiters`: by default the process's, shared with every client of the same concurrency.
  constructor(
    readonly settings: ModelSettings = DEFAULT_MODEL_SETTINGS,
    private readonly limiters = Limiters.shared(settings.concurrencyPerProvider),
  ) {}

  /// The longest one call may take with every retry, for the job runner's unit timeout.
  worstCaseMs(): number {
    const { requestTimeoutMs, maxRetries } = this.settings
    return (maxRetries + 1) * requestTimeoutMs + maxRetries * 60_000
  }

  /// A structured answer, checked: one that is not JSON or does not follow the schema after repair (code
  /// fences, an enum in another case, a confidence in percent), or that `check` finds wrong, is asked for again
  /// once, the model told what was wrong. A second answer that does not follow the schema fails the call
  /// (`UnusableAnswerError`); one that `check` still finds wrong is returned with its `problem`, for the caller's
  /// fallback.
  async generate<T>(handle: ModelHandle, request: StructuredRequest<T>): Promise<StructuredAnswer<T>> {
    const schema = await responseSchema(request.schema)
    const asked: CallOptions['prompt'] = [
      { role: 'system', content: request.system },
      userMessage(request.prompt),
    ]
    let usage: TokenUsage | null = null
    for (let attempt = 0; ; attempt++) {
      const answer = await this.call(handle, request.signal, (model, abortSignal) =>
        ask(model, {
          prompt: asked,
          responseFormat: { type: 'json', schema, name: request.name },
          abortSignal,
        }),
      )
      usage = addUsage(usage, answer.usage)
      const read = readAnswer(answer.text, request.schema, schema)
      const problem = 'problem' in read ? read.problem : request.check?.(read.object)
      if (!problem && 'object' in read) return { object: read.object, usage, problem: null }
      const wrong = problem ?? 'it cannot be used'
      if (attempt === 0) {
        asked.push(assistantMessage(answer.text.slice(0, MAX_ECHOED)), userMessage(askAgain(wrong)))
        continue
      }
      if ('object' in read) return { object: read.object, usage, problem: wrong }
      throw new UnusableAnswerError(redactedFrom(handle, `${who(handle)}: ${wrong}`))
    }
  }

  /// A plain-text request (no system prompt, no response format), for models trained on one fixed prompt
  /// that answer in words, such as bespoke-minicheck's "Document: … Claim: …" → "Yes" or "No".
  async text(
    handle: ModelHandle,
    request: { prompt: string; signal: AbortSignal },
  ): Promise<{ text: string; usage: TokenUsage | null }> {
    return this.call(handle, request.signal, (model, abortSignal) =>
      ask(model, { prompt: [userMessage(request.prompt)], abortSignal }),
    )
  }

  /// Runs one request to `handle` under its provider's concurrency limit and the request timeout, retrying as
  /// the settings say; errors become sentences with the key redacted.
  private async call<R extends { usage: TokenUsage | null }>(
    handle: ModelHandle,
    signal: AbortSignal,
    request: (model: LanguageModelV3, abortSignal: AbortSignal) => Promise<R>,
  ): Promise<R> {
    const model = await handle.languageModel()
    const limiter = this.limiters.for(handle.providerKey)
    const tally = tallies.getStore()
    for (let retry = 0; ; retry++) {
      const release = await limiter.acquire(signal)
      const timeout = AbortSignal.timeout(this.settings.requestTimeoutMs)
      let waitMs: number
      try {
        if (tally) tally.requests++
        const answer = await request(model, AbortSignal.any([signal, timeout]))
        if (tally && answer.usage) {
          const spent = addUsage(tally.tokens.get(handle.config.id) ?? null, answer.usage)
          tally.tokens.set(handle.config.id, spent as TokenUsage)
        }
        return answer
      } catch (error) {
        if (signal.aborted) throw signal.reason as Error
        const failure = classify(error, timeout.aborted, this.settings.requestTimeoutMs)
        const message = redactedFrom(handle, `${who(handle)}: ${failure.message}`)
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

/// A JSON schema with each `anyOf` of one typed schema and null written as that schema with null among its
/// types (and its enum's values), as zod already writes a nullable string: the same answers, in about ten
/// tokens fewer per nullable enum. References to `definitions` point into `$defs`.
function compactJsonSchema(node: unknown): unknown {
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

/// The model a message is about, as errors name it.
const who = (handle: ModelHandle): string =>
  `${handle.config.id} (${handle.config.provider} ${handle.config.model})`

/// `message` without the handle's key: a provider may echo the key in an error, in any case; it never reaches a
/// check's error or a log.
function redactedFrom(handle: ModelHandle, message: string): string {
  const key = handle.apiKey()
  return key
    ? message.replace(new RegExp(key.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'), 'gi'), '[redacted]')
    : message
}

/// Characters of an unusable answer sent back with the request to answer again.
const MAX_ECHOED = 4000

/// The request to answer again, saying what was wrong with the answer.
const askAgain = (problem: string): string =>
  `Your answer could not be used: ${problem}. Answer again, with the JSON the response format describes.`

/// A model's text read as an answer of `schema`: the JSON it holds (inside code fences or after words, as small
/// models write it), repaired where its meaning is plain (`jsonSchema` says how), and checked by zod; or the
/// problem with it, in words a model can act on.
function readAnswer<T>(
  text: string,
  schema: z.ZodType<T>,
  jsonSchema: JSONSchema7,
): { object: T } | { problem: string } {
  const json = jsonIn(text)
  if (json === undefined) return { problem: `it is not JSON (${JSON.stringify(text.slice(0, 120))})` }
  const parsed = schema.safeParse(repaired(json, jsonSchema, jsonSchema))
  if (!parsed.success)
    return { problem: `it does not follow the schema: ${z.prettifyError(parsed.error).slice(0, 500)}` }
  return { object: parsed.data }
}

/// Whether `schema` (a node of `root`) admits null.
function mayBeNull(schema: JSONSchema7 | boolean, root: JSONSchema7): boolean {
  if (typeof schema !== 'object') return schema
  if (schema.$ref) return mayBeNull(resolved(schema.$ref, root), root)
  return (
    [schema.type ?? []].flat().includes('null') ||
    (schema.anyOf ?? []).some((option) => mayBeNull(option, root))
  )
}

/// The node of `root` a `$ref` points at.
const resolved = (ref: string, root: JSONSchema7): JSONSchema7 =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root) as JSONSchema7

/// The name of the schema's member that a model wrote as `written` in another case or with spaces ("C1" for
/// "c1", "Verdict " for "verdict"), else `written`.
function memberName(written: string, members: JSONSchema7['properties']): string {
  if (!members || written in members) return written
  const plain = written.trim().toLowerCase()
  return Object.keys(members).find((name) => name.toLowerCase() === plain) ?? written
}

/// The JSON value in a model's text: the whole text, else the text inside a code fence, else from its first
/// brace to its last; undefined when none of these parse.
function jsonIn(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1]
  const braced = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)
  for (const candidate of [text, fenced, braced]) {
    if (!candidate?.trim()) continue
    try {
      return JSON.parse(candidate) as unknown
    } catch {
      // The next reading.
    }
  }
  return undefined
}

/// `value` with the slips whose meaning is plain mended as `schema` (a node of `root`) asks: an enum's value in
/// another case or with spaces ("Supported ", "not checkable"), a member's name in another case, a member that
/// may be null left out, a number written as a string, a share of 0–1 given in percent (80 for 0.8), the string
/// "null" for null. Anything else is left for zod to refuse.
function repaired(value: unknown, schema: JSONSchema7 | boolean | undefined, root: JSONSchema7): unknown {
  if (typeof schema !== 'object') return value
  if (schema.$ref) return repaired(value, resolved(schema.$ref, root), root)
  const types = new Set([schema.type ?? []].flat())
  if (value === 'null' && types.has('null')) return null
  if (Array.isArray(value))
    return value.map((item) => repaired(item, schema.items as JSONSchema7 | undefined, root))
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).map(([written, member]): [string, unknown] => {
      const key = memberName(written, schema.properties)
      return [key, repaired(member, schema.properties?.[key], root)]
    })
    // A member that may be null and was left out says nothing: null (a server that does not hold the model to
    // the schema lets it leave out what it has nothing to put in).
    const omitted = Object.entries(schema.properties ?? {}).filter(
      ([key, member]) => !members.some(([name]) => name === key) && mayBeNull(member, root),
    )
    return Object.fromEntries([...members, ...omitted.map(([key]): [string, unknown] => [key, null])])
  }
  if (typeof value === 'string' && schema.enum && !schema.enum.includes(value)) {
    const plain = (text: unknown) =>
      String(text)
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_')
    return schema.enum.find((option) => typeof option === 'string' && plain(option) === plain(value)) ?? value
  }
  if (typeof value === 'string' && (types.has('number') || types.has('integer')) && value.trim() !== '') {
    const number = Number(value.trim().replace(/%$/, ''))
    if (Number.isFinite(number)) return repaired(number, schema, root)
  }
  if (typeof value === 'number' && schema.maximum === 1 && value > 1 && value <= 100) return value / 100
  return value
}

type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0]
type Answer = Awaited<ReturnType<LanguageModelV3['doGenerate']>>

/// One request straight to the provider's model: the AI SDK's generateText would check the prompt against its
/// message schema, build telemetry and wrap the answer for every request, which cost more of the engine's time
/// than the request itself (a vote's: 1.4 ms of 2.3).
async function ask(
  model: LanguageModelV3,
  options: CallOptions,
): Promise<{ text: string; usage: TokenUsage | null }> {
  const answer = await model.doGenerate(options)
  const text = answer.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
  return { text, usage: tokenUsage(answer.usage) }
}

const userMessage = (text: string): CallOptions['prompt'][number] => ({
  role: 'user',
  content: [{ type: 'text', text }],
})

const assistantMessage = (text: string): CallOptions['prompt'][number] => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
})

function tokenUsage(usage: Answer['usage']): TokenUsage | null {
  const input = usage.inputTokens.total
  const output = usage.outputTokens.total
  if (input === undefined && output === undefined) return null
  return { inputTokens: input ?? 0, outputTokens: output ?? 0 }
}

// Each zod schema's JSON schema for the response format, made once, in as few tokens as say the same (every
// request pays for them): without its `$schema` member (no provider reads the dialect's address), a member schema
// used more than once (a batch's votes) defined once and referred to, its nullable members compact.
const responseSchemas = new WeakMap<z.ZodType, Promise<JSONSchema7>>()

function responseSchema(schema: z.ZodType): Promise<JSONSchema7> {
  let made = responseSchemas.get(schema)
  if (!made) {
    made = Promise.resolve(zodSchema(schema, { useReferences: true }).jsonSchema).then(
      ({ $schema: _dialect, definitions, ...rest }) =>
        // Defined under `$defs`, as OpenAI documents references (`#/$defs/…` is a pointer in any draft).
        compactJsonSchema(definitions === undefined ? rest : { ...rest, $defs: definitions }) as JSONSchema7,
    )
    responseSchemas.set(schema, made)
  }
  return made
}

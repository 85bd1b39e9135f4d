import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DATA_OPEN } from '../../src/main/engine/tiers/t2/prompts'

/// A fake OpenAI-compatible server on 127.0.0.1 for tests and benchmarks: `POST /v1/chat/completions` answers
/// with JSON that follows the request's `response_format` json_schema (or plain text), streamed as server-sent
/// events when asked, with token usage. Per model it can wait before answering and fail (429 with Retry-After,
/// 500, or never answer). It records every request, including whether the client closed the connection before
/// the answer was sent. `POST /api/chat` answers the same way in Ollama's native shape (`format` as the schema,
/// not streamed).

/// A way to fail one request.
export type Failure =
  | { status: 429; retryAfter?: string; retryAfterMs?: number }
  | { status: number; message?: string }
  /// Never answer; the client's timeout (or cancel) ends the request.
  | { hang: true }

export interface Behaviour {
  /// Wait this long before answering (or failing).
  latencyMs?: number
  /// Served one per request, in order, before normal answers resume.
  failures?: Failure[]
  /// Every request fails this way.
  alwaysFail?: Failure
  /// Values used for these property names wherever the schema has them (e.g. `{ verdict: 'refuted' }`).
  overrides?: Record<string, unknown>
  /// The whole answer (an object is sent as JSON); wins over the schema (not over `resolve`).
  answer?: (request: RecordedRequest) => unknown
  /// Holds a request until the promise returned for it settles (a test stops work at a point of its choosing).
  hold?: (request: RecordedRequest) => Promise<unknown> | undefined
  /// How a request to resolve claims into statements rewrites each claim (by default: unchanged, no parts, nothing
  /// left unresolved).
  resolve?: (claim: ClaimToResolve) => {
    statement: string
    parts?: string[] | null
    unresolved?: string | null
  }
  /// Every answer's text as the model writes it, from the text of the answer above (a model's slips: code
  /// fences around the JSON).
  written?: (text: string) => string
}

/// A claim in a request to resolve claims, as the fake reads it from the request's data block: with the three
/// sentences before its own and the one after it.
export interface ClaimToResolve {
  claim: string
  before: string[]
  after: string[]
  title: string | null
}

export interface RecordedRequest {
  /// `/v1/chat/completions` or `/api/chat`.
  path: string
  model: string
  body: any
  headers: IncomingHttpHeaders
  stream: boolean
  /// `performance.now()` when the request arrived and when it ended.
  receivedAt: number
  endedAt: number | null
  /// The status sent, 'closed' when the client closed the connection first, or 'pending'.
  outcome: number | 'closed' | 'pending'
  /// The system and user messages' text.
  system: string
  user: string
  /// The token usage the answer reported (null until answered, or when it failed).
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null
}

export interface FakeOpenAI {
  /// e.g. http://127.0.0.1:PORT/v1
  readonly baseURL: string
  /// Ollama's native API, e.g. http://127.0.0.1:PORT/api
  readonly ollamaURL: string
  readonly requests: RecordedRequest[]
  /// Sets how requests for `model` are served ('*' for models without their own).
  behave(model: string, behaviour: Behaviour): void
  /// Requests for one model.
  of(model: string): RecordedRequest[]
  close(): Promise<void>
}

/// Counts tokens roughly as a BPE tokenizer does for English and JSON: a word, a digit or a punctuation mark.
export const countTokens = (text: string): number => (text.match(/[A-Za-z]+|\d|[^\sA-Za-z\d]/g) ?? []).length

const messageText = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part: { text?: string }) => part.text ?? '').join('')
      : ''

export async function startFakeOpenAI(behaviours: Record<string, Behaviour> = {}): Promise<FakeOpenAI> {
  const rules = new Map(Object.entries(behaviours))
  const requests: RecordedRequest[] = []
  let served = 0

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/v1/models') {
        return sendJson(res, 200, {
          object: 'list',
          data: [...rules.keys()].map((id) => ({ id, object: 'model' })),
        })
      }
      const native = req.url === '/api/chat'
      if (req.method !== 'POST' || (req.url !== '/v1/chat/completions' && !native)) {
        return sendJson(res, 404, {
          error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' },
        })
      }
      let body: any
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        return sendJson(res, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error' } })
      }
      const messages: { role: string; content: unknown }[] = body.messages ?? []
      const record: RecordedRequest = {
        path: String(req.url),
        model: String(body.model),
        body,
        headers: req.headers,
        stream: body.stream === true,
        receivedAt: performance.now(),
        endedAt: null,
        outcome: 'pending',
        system: messages
          .filter((m) => m.role === 'system')
          .map((m) => messageText(m.content))
          .join('\n'),
        user: messages
          .filter((m) => m.role === 'user')
          .map((m) => messageText(m.content))
          .join('\n'),
        usage: null,
      }
      requests.push(record)
      let timer: NodeJS.Timeout | null = null
      res.on('close', () => {
        if (timer) clearTimeout(timer)
        if (!res.writableFinished) record.outcome = 'closed'
        record.endedAt ??= performance.now()
      })
      const behaviour = rules.get(record.model) ?? rules.get('*') ?? {}
      const failure = behaviour.failures?.shift() ?? behaviour.alwaysFail
      const respond = () => {
        timer = null
        if (failure && 'hang' in failure) return
        if (failure) return fail(res, record, failure)
        const content = answerFor(record, behaviour)
        const usage = {
          prompt_tokens:
            messages.reduce((sum, m) => sum + 4 + countTokens(messageText(m.content)), 0) +
            (schemaOf(body) ? countTokens(JSON.stringify(schemaOf(body))) : 0),
          completion_tokens: countTokens(content),
          total_tokens: 0,
        }
        usage.total_tokens = usage.prompt_tokens + usage.completion_tokens
        record.usage = usage
        const id = `chatcmpl-${++served}`
        const created = Math.floor(Date.now() / 1000)
        record.outcome = 200
        record.endedAt = performance.now()
        if (native) {
          return sendJson(res, 200, {
            model: record.model,
            created_at: new Date().toISOString(),
            message: { role: 'assistant', content },
            done: true,
            done_reason: 'stop',
            prompt_eval_count: usage.prompt_tokens,
            eval_count: usage.completion_tokens,
          })
        }
        if (!record.stream) {
          return sendJson(res, 200, {
            id,
            object: 'chat.completion',
            created,
            model: record.model,
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
            usage,
          })
        }
        res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
        const event = (choices: unknown[], extra: object = {}) =>
          res.write(
            `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: record.model, choices, ...extra })}\n\n`,
          )
        event([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }])
        const step = Math.max(1, Math.ceil(content.length / 4))
        for (let at = 0; at < content.length; at += step)
          event([{ index: 0, delta: { content: content.slice(at, at + step) }, finish_reason: null }])
        event([{ index: 0, delta: {}, finish_reason: 'stop' }])
        if (body.stream_options?.include_usage) event([], { usage })
        res.end('data: [DONE]\n\n')
      }
      const answer = () => {
        if (behaviour.latencyMs) timer = setTimeout(respond, behaviour.latencyMs)
        else respond()
      }
      const held = behaviour.hold?.(record)
      if (held) {
        void held.then(() => {
          if (!res.destroyed) answer()
        })
      } else answer()
    })
  })

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    ollamaURL: `http://127.0.0.1:${port}/api`,
    requests,
    behave: (model, behaviour) => void rules.set(model, behaviour),
    of: (model) => requests.filter((r) => r.model === model),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers })
  res.end(JSON.stringify(value))
}

function fail(res: ServerResponse, record: RecordedRequest, failure: Exclude<Failure, { hang: true }>): void {
  record.outcome = failure.status
  record.endedAt = performance.now()
  const headers: Record<string, string> = {}
  if ('retryAfter' in failure && failure.retryAfter !== undefined) headers['Retry-After'] = failure.retryAfter
  if ('retryAfterMs' in failure && failure.retryAfterMs !== undefined)
    headers['retry-after-ms'] = String(failure.retryAfterMs)
  const message =
    ('message' in failure ? failure.message : undefined) ??
    (failure.status === 429
      ? 'Rate limit reached for requests'
      : 'The server had an error processing the request')
  const type =
    failure.status === 429
      ? 'rate_limit_error'
      : failure.status >= 500
        ? 'server_error'
        : 'invalid_request_error'
  sendJson(res, failure.status, { error: { message, type, code: null } }, headers)
}

/// The JSON schema the answer must follow: OpenAI's `response_format` json_schema or Ollama's `format`.
function schemaOf(body: any): object | null {
  if (body.response_format?.type === 'json_schema') return body.response_format.json_schema?.schema ?? {}
  if (body.format && typeof body.format === 'object') return body.format
  return null
}

/// The answer's text as the behaviour writes it.
function answerFor(record: RecordedRequest, behaviour: Behaviour): string {
  const text = answerText(record, behaviour)
  return behaviour.written ? behaviour.written(text) : text
}

/// The answer's text: resolved claims for a request to resolve claims (whatever `answer` would say: a test's
/// model written for the tiers' requests need not know this one), the behaviour's own, an object following the
/// schema, `{}` in JSON mode, or text.
function answerText(record: RecordedRequest, behaviour: Behaviour): string {
  const resolving = claimsToResolve(record)
  if (resolving) {
    const statements = resolving.map(({ key, ...claim }) => {
      const resolved = behaviour.resolve?.(claim) ?? { statement: claim.claim }
      return {
        claim: key,
        explanation: 'none',
        statement: resolved.statement,
        unresolved: resolved.unresolved ?? null,
        parts: resolved.parts ?? null,
      }
    })
    return JSON.stringify({ statements })
  }
  if (behaviour.answer) {
    const answer = behaviour.answer(record)
    return typeof answer === 'string' ? answer : JSON.stringify(answer)
  }
  const schema = schemaOf(record.body)
  if (schema) return JSON.stringify(fromSchema(schema, schema, behaviour.overrides ?? {}, ''))
  if (record.body.response_format?.type === 'json_object' || record.body.format === 'json') return '{}'
  return 'This is the fake model.'
}

/// The most requests the fake was answering at one time.
export function mostAtOnce(requests: readonly RecordedRequest[]): number {
  const changes = requests
    .flatMap((request) => [
      { at: request.receivedAt, by: 1 },
      { at: request.endedAt ?? Infinity, by: -1 },
    ])
    // An ending at the same moment as a start comes first: the slot was free again.
    .sort((a, b) => a.at - b.at || a.by - b.by)
  let now = 0
  let most = 0
  for (const change of changes) most = Math.max(most, (now += change.by))
  return most
}

/// The data block of a request (the JSON its prompt carries between the data markers, on the line after the
/// opening one), or an empty object when it has none.
export function requestData(record: RecordedRequest): any {
  const lines = record.user.split('\n')
  const at = lines.indexOf(DATA_OPEN)
  return at < 0 ? {} : JSON.parse(lines[at + 1] ?? '{}')
}

/// The claims of a request to resolve claims into statements (its schema asks for a list of `statements`),
/// read from the data block of its user message; null for any other request.
export function claimsToResolve(record: RecordedRequest): (ClaimToResolve & { key: string })[] | null {
  const schema: any = schemaOf(record.body)
  if (!schema?.properties?.statements?.items?.properties?.statement) return null
  const data = JSON.parse(record.user.split('\n').find((line) => line.startsWith('{')) ?? '{}')
  const sentences = (from: number, to: number): string[] =>
    data.sentences.filter((s: any) => s.n >= from && s.n <= to).map((s: any) => s.text)
  return data.claims.map((claim: any) => ({
    key: claim.key,
    claim: claim.claim ?? sentences(claim.sentence, claim.sentence)[0],
    before: sentences(claim.sentence - 3, claim.sentence - 1),
    after: sentences(claim.sentence + 1, claim.sentence + 1),
    title: data.title,
  }))
}

const SENTENCES: Record<string, string> = {
  rationale: 'The fake panelist recalls the facts behind this claim and weighs them briefly.',
  reasoning: 'The fake judge weighed the panel votes and their rationales against what it knows.',
  correction: 'A corrected version of the claim.',
}

/// A value that follows a JSON schema (the subset structured outputs use), with `overrides` for named members.
export function fromSchema(
  schema: any,
  root: any,
  overrides: Record<string, unknown>,
  name: string,
): unknown {
  if (schema.$ref) {
    const path = String(schema.$ref).replace(/^#\//, '').split('/')
    return fromSchema(
      path.reduce((node, key) => node?.[key], root),
      root,
      overrides,
      name,
    )
  }
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum)) return schema.enum[0]
  const options = schema.anyOf ?? schema.oneOf
  if (Array.isArray(options)) {
    const chosen = options.find((option: any) => option.type !== 'null') ?? options[0]
    return fromSchema(chosen, root, overrides, name)
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const [key, member] of Object.entries<any>(schema.properties ?? {}))
        out[key] = key in overrides ? overrides[key] : fromSchema(member, root, overrides, key)
      return out
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () =>
        fromSchema(schema.items ?? {}, root, overrides, name),
      )
    case 'number':
    case 'integer': {
      const min = schema.minimum ?? 0
      const max = schema.maximum ?? min + 1
      const value = min + (max - min) * 0.8
      return type === 'integer' ? Math.round(value) : value
    }
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return SENTENCES[name] ?? 'text'
  }
}

// The operations a Factdesk service offers over REST as requests, and its error answers as `ApiError`s: for
// every client of the API (the browser-mode bridge and the desktop app's `RemoteService`).
import { z } from 'zod'
import { ApiError, STATUS_OF } from './errors'
import {
  isRestOperation,
  isServiceOperation,
  OPERATION_TABLE,
  OPERATIONS,
  restRouteOf,
  type FactdeskOperations,
  type Operation,
  type OperationArgs,
  type OperationResult,
  type RestOperation,
  type ServiceOperation,
} from './operations'
import { ErrorEnvelope, ErrorCode } from './schemas'

/// The path prefix of the REST API.
export const API_BASE = '/api/v1'
/// The OpenAPI document of the API.
export const OPENAPI_PATH = '/openapi.json'
/// The Server-Sent Events of the organization's report changes (not an operation: a stream).
export const EVENTS_PATH = '/events'

/// One request of the REST API, relative to its base (`…/api/v1`), with the schema its answer must match.
export interface RestRequest<T> {
  method: 'GET' | 'POST' | 'PATCH'
  path: string
  schema: z.ZodType<T>
  body?: unknown
  headers?: Record<string, string>
  /// Repeated only after a 429 (the operation's route is `once`).
  once?: true
}

/// An operation as its request: the path's `{…}` segments filled in with the first arguments, then the one
/// object left, if any, as the query of a GET or the JSON body of the others, and an idempotent one's key.
export function restRequest<Op extends Operation>(
  operation: Op,
  ...args: OperationArgs<Op>
): RestRequest<OperationResult<Op>> {
  const route = restRouteOf(operation)
  if (!route) throw new Error(`${operation} has no REST route`)
  const values = [...(args as unknown[])]
  const path = route.path.replace(/\{\w+\}/g, () => encodeURIComponent(String(values.shift())))
  const rest = values.shift() as Record<string, unknown> | undefined
  const schema = OPERATION_TABLE[operation].result as unknown as z.ZodType<OperationResult<Op>>
  const method = route.method.toUpperCase() as RestRequest<unknown>['method']
  if (route.method !== 'get') {
    const key = route.idempotent ? (values.shift() as string | undefined) : undefined
    return {
      method,
      path,
      schema,
      ...(route.once ? { once: true } : {}),
      ...(rest === undefined ? {} : { body: rest }),
      ...(key === undefined ? {} : { headers: { 'Idempotency-Key': key } }),
    }
  }
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(rest ?? {}))
    if (value !== undefined) query.set(name, String(value))
  return { method, path: query.size > 0 ? `${path}?${query}` : path, schema }
}

/// The specification's error body as any service may send it: `details` may be missing, and a code this app does
/// not know is named by the answer's status instead (its message is kept either way).
const AnyErrorEnvelope = z.object({
  error: z.object({
    code: z.string(),
    message: z.string().min(1),
    details: ErrorEnvelope.shape.error.shape.details.optional(),
  }),
})

/// The error of an answer that is not 2xx: the specification's envelope when it carries one; anything else
/// (a proxy's page, say) is named by its status, as `speaker` ("Factdesk", "The remote service at …") said it.
export function answerError(status: number, body: unknown, speaker: string): ApiError {
  const byStatus = (Object.keys(STATUS_OF) as ErrorCode[]).find((each) => STATUS_OF[each] === status)
  const envelope = AnyErrorEnvelope.safeParse(body)
  if (envelope.success) {
    const { code, message, details } = envelope.data.error
    const known = ErrorCode.safeParse(code)
    return ApiError.fromEnvelope({
      error: {
        code: known.success ? known.data : (byStatus ?? 'internal_error'),
        message,
        details: details ?? null,
      },
    })
  }
  return new ApiError(byStatus ?? 'internal_error', `${speaker} answered with HTTP status ${status}.`)
}

/// The operations answered as JSON over REST, each sending its request through `send`.
export function restOperations(
  send: <T>(request: RestRequest<T>) => Promise<T>,
): Pick<FactdeskOperations, RestOperation> {
  return requests(send, isRestOperation) as Pick<FactdeskOperations, RestOperation>
}

/// Those every Factdesk service offers, as requests through `send`.
export function serviceOperations(
  send: <T>(request: RestRequest<T>) => Promise<T>,
): Pick<FactdeskOperations, ServiceOperation> {
  return requests(send, isServiceOperation) as Pick<FactdeskOperations, ServiceOperation>
}

function requests(
  send: <T>(request: RestRequest<T>) => Promise<T>,
  which: (operation: Operation) => operation is RestOperation | ServiceOperation,
): Partial<FactdeskOperations> {
  const operations = OPERATIONS.filter(which).map((name) => [
    name,
    (...args: OperationArgs<typeof name>) => send(restRequest(name, ...args)),
  ])
  return Object.fromEntries(operations) as Partial<FactdeskOperations>
}

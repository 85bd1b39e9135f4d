// The operations a Factdesk service offers over REST as requests, and its error answers as `ApiError`s: one
// table for every client of the API (the browser-mode bridge and the desktop app's `RemoteService`).
import { z } from 'zod'
import type { FactdeskOperations } from './api'
import { ApiError, STATUS_OF } from './errors'
import {
  Check,
  CheckList,
  Credits,
  ErrorEnvelope,
  Estimate,
  Me,
  PendingCheck,
  PendingCheckList,
  Report,
  Research,
  WebhookSecret,
  WebhookSecretRotation,
  ErrorCode,
} from './schemas'

/// One request of the REST API, relative to its base (`…/api/v1`), with the schema its answer must match.
export interface RestRequest<T> {
  method: 'GET' | 'POST' | 'PATCH'
  path: string
  schema: z.ZodType<T>
  body?: unknown
  headers?: Record<string, string>
}

/// The operations of the editor's API that the service specification's REST API offers.
export type SpecOperation =
  | 'me'
  | 'credits'
  | 'estimate'
  | 'submit'
  | 'getCheck'
  | 'report'
  | 'listChecks'
  | 'cancel'
  | 'patch'
  | 'webhookSecret'
  | 'rotateWebhookSecret'
  | 'research'
  | 'getResearch'

/// The operations of checks waiting to be submitted ("check when online", an extension every Factdesk service
/// offers): a remote service queues them itself, where its providers are.
export type PendingOperation = 'queueCheck' | 'listPendingChecks' | 'cancelPendingCheck'

/// The operations of the editor's API that a Factdesk service offers over REST.
export type RestOperation = SpecOperation | PendingOperation

type Requests = {
  [Op in RestOperation]: (
    ...args: Parameters<FactdeskOperations[Op]>
  ) => RestRequest<Awaited<ReturnType<FactdeskOperations[Op]>>>
}

const segment = (value: string): string => encodeURIComponent(value)

/// Each operation as its request.
export const REST_REQUESTS: Requests = {
  me: () => ({ method: 'GET', path: '/me', schema: Me }),
  credits: () => ({ method: 'GET', path: '/credits', schema: Credits }),
  estimate: (request) => ({ method: 'POST', path: '/checks/estimate', schema: Estimate, body: request }),
  submit: (request, idempotencyKey) => ({
    method: 'POST',
    path: '/checks',
    schema: Check,
    body: request,
    ...(idempotencyKey === undefined ? {} : { headers: { 'Idempotency-Key': idempotencyKey } }),
  }),
  getCheck: (id) => ({ method: 'GET', path: `/checks/${segment(id)}`, schema: Check }),
  report: (id) => ({ method: 'GET', path: `/checks/${segment(id)}/report`, schema: Report }),
  listChecks: ({ limit, cursor }) => {
    const query = new URLSearchParams()
    if (limit !== undefined) query.set('limit', String(limit))
    if (cursor !== undefined) query.set('cursor', cursor)
    return { method: 'GET', path: `/checks${query.size > 0 ? `?${query}` : ''}`, schema: CheckList }
  },
  cancel: (id) => ({ method: 'POST', path: `/checks/${segment(id)}/cancel`, schema: Check }),
  patch: (id, edits) => ({ method: 'PATCH', path: `/checks/${segment(id)}`, schema: Check, body: edits }),
  webhookSecret: () => ({ method: 'GET', path: '/webhook-secret', schema: WebhookSecret }),
  rotateWebhookSecret: () => ({
    method: 'POST',
    path: '/webhook-secret/rotate',
    schema: WebhookSecretRotation,
  }),
  research: (request) => ({ method: 'POST', path: '/research', schema: Research, body: request }),
  getResearch: (id) => ({ method: 'GET', path: `/research/${segment(id)}`, schema: Research }),
  queueCheck: (request) => ({ method: 'POST', path: '/pending-checks', schema: PendingCheck, body: request }),
  listPendingChecks: (waiting) => ({
    method: 'GET',
    path: `/pending-checks${waiting ? '?status=waiting' : ''}`,
    schema: PendingCheckList,
  }),
  cancelPendingCheck: (id) => ({
    method: 'POST',
    path: `/pending-checks/${segment(id)}/cancel`,
    schema: PendingCheck,
  }),
}

/// One pending check (no operation of the editor's: `RemoteService` follows waiting ones with it).
export const pendingCheckRequest = (id: string): RestRequest<PendingCheck> => ({
  method: 'GET',
  path: `/pending-checks/${segment(id)}`,
  schema: PendingCheck,
})

/// Every operation a Factdesk service offers over REST.
export const REST_OPERATIONS = Object.keys(REST_REQUESTS) as RestOperation[]

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

/// The REST operations, each sending its request through `send`.
export function restOperations(
  send: <T>(request: RestRequest<T>) => Promise<T>,
): Pick<FactdeskOperations, RestOperation> {
  const operations: Partial<Record<RestOperation, (...args: never[]) => Promise<unknown>>> = {}
  for (const name of REST_OPERATIONS) {
    const request = REST_REQUESTS[name] as (...args: never[]) => RestRequest<unknown>
    operations[name] = (...args) => send(request(...args))
  }
  return operations as Pick<FactdeskOperations, RestOperation>
}

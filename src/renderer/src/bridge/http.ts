import type { z } from 'zod'
import type { FactdeskApi, ReportUpdate } from '../../../shared/api'
import { ApiError, STATUS_OF } from '../../../shared/errors'
import {
  ApiToken,
  Check,
  CheckList,
  CreatedToken,
  Credits,
  ErrorEnvelope,
  Estimate,
  Me,
  ModelTest,
  OllamaDetection,
  Report,
  Research,
  Settings,
  TokenList,
  WebhookSecret,
  WebhookSecretRotation,
  type ErrorCode,
} from '../../../shared/schemas'
import { openSession, type Page } from './session'

const API_BASE = '/api/v1'

/// The part of an `EventSource` the bridge uses; tests hand in their own.
export interface EventStream {
  onmessage: ((event: MessageEvent<string>) => void) | null
  close(): void
}

const browserEvents = (url: string): EventStream => new EventSource(url, { withCredentials: true })

/// The browser-mode bridge: the REST API of the page's own origin, signed in by the session cookie that the
/// one-time link in the address bar is traded for first; pushed updates from its Server-Sent Events stream.
export function httpApi(
  page: Page = window,
  openEvents: (url: string) => EventStream = browserEvents,
): FactdeskApi {
  const session = openSession(page)

  async function call<T>(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    schema: z.ZodType<T>,
    body?: unknown,
  ): Promise<T> {
    let response: Response
    try {
      await session
      response = await page.fetch(API_BASE + path, {
        method,
        credentials: 'same-origin',
        headers:
          body === undefined
            ? { Accept: 'application/json' }
            : { Accept: 'application/json', 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    } catch {
      throw new ApiError('internal_error', 'Cannot reach Factdesk: is `factdesk web` still running?')
    }
    const answer: unknown = await response.json().catch(() => null)
    if (!response.ok) throw failure(response, answer)
    const result = schema.safeParse(answer)
    if (!result.success)
      throw new ApiError('internal_error', `Factdesk answered ${path} in an unexpected form.`)
    return result.data
  }

  // One stream for every listener, opened with the first and closed with the last.
  const listeners = new Set<(update: ReportUpdate) => void>()
  let stream: EventStream | null = null
  let opening = false
  const deliver = (event: MessageEvent<string>): void => {
    let update: ReportUpdate
    try {
      update = JSON.parse(event.data) as ReportUpdate
    } catch {
      return
    }
    for (const listener of listeners) listener(update)
  }
  const open = (): void => {
    if (stream || opening) return
    opening = true
    void session.finally(() => {
      opening = false
      if (listeners.size === 0 || stream) return
      stream = openEvents(`${API_BASE}/events`)
      stream.onmessage = deliver
    })
  }

  const id = (value: string): string => encodeURIComponent(value)
  return {
    me: () => call('GET', '/me', Me),
    credits: () => call('GET', '/credits', Credits),
    estimate: (request) => call('POST', '/checks/estimate', Estimate, request),
    submit: (request) => call('POST', '/checks', Check, request),
    getCheck: (checkId) => call('GET', `/checks/${id(checkId)}`, Check),
    report: (checkId) => call('GET', `/checks/${id(checkId)}/report`, Report),
    listChecks: ({ limit, cursor }) => {
      const query = new URLSearchParams()
      if (limit !== undefined) query.set('limit', String(limit))
      if (cursor !== undefined) query.set('cursor', cursor)
      return call('GET', `/checks${query.size > 0 ? `?${query}` : ''}`, CheckList)
    },
    cancel: (checkId) => call('POST', `/checks/${id(checkId)}/cancel`, Check),
    patch: (checkId, edits) => call('PATCH', `/checks/${id(checkId)}`, Check, edits),
    settings: () => call('GET', '/settings', Settings),
    updateSettings: (patch) => call('PATCH', '/settings', Settings, patch),
    testModel: (model) => call('POST', '/settings/models/test', ModelTest, model),
    detectOllama: () => call('GET', '/settings/ollama', OllamaDetection),
    listTokens: () => call('GET', '/tokens', TokenList),
    createToken: (request) => call('POST', '/tokens', CreatedToken, request),
    revokeToken: (tokenId) => call('POST', `/tokens/${id(tokenId)}/revoke`, ApiToken),
    webhookSecret: () => call('GET', '/webhook-secret', WebhookSecret),
    rotateWebhookSecret: () => call('POST', '/webhook-secret/rotate', WebhookSecretRotation),
    grantCredits: (amount) => call('POST', '/credits/grants', Credits, { amount }),
    research: (request) => call('POST', '/research', Research, request),
    getResearch: (researchId) => call('GET', `/research/${id(researchId)}`, Research),
    subscribe: (listener) => {
      listeners.add(listener)
      open()
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0 && stream) {
          stream.close()
          stream = null
        }
      }
    },
  }
}

// Every failure of the API comes as the error envelope; anything else (a proxy's page, say) is named by its status.
function failure(response: Response, body: unknown): ApiError {
  const envelope = ErrorEnvelope.safeParse(body)
  if (envelope.success) return ApiError.fromEnvelope(envelope.data)
  const code = (Object.keys(STATUS_OF) as ErrorCode[]).find((each) => STATUS_OF[each] === response.status)
  return new ApiError(code ?? 'internal_error', `Factdesk answered with HTTP status ${response.status}.`)
}

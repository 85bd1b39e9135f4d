import type { z } from 'zod'
import type { FactdeskApi } from '../../../shared/api'
import { ApiError, STATUS_OF } from '../../../shared/errors'
import { Credits, ErrorEnvelope, Me, type ErrorCode } from '../../../shared/schemas'
import { openSession, type Page } from './session'

const API_BASE = '/api/v1'

/// The browser-mode bridge: the REST API of the page's own origin, signed in by the session cookie that the
/// one-time link in the address bar is traded for first.
export function httpApi(page: Page = window): FactdeskApi {
  const session = openSession(page)

  async function get<T>(path: string, schema: z.ZodType<T>): Promise<T> {
    let response: Response
    try {
      await session
      response = await page.fetch(API_BASE + path, {
        credentials: 'same-origin',
        headers: { Accept: 'application/json' },
      })
    } catch {
      throw new ApiError('internal_error', 'Cannot reach Factdesk: is `factdesk web` still running?')
    }
    const body: unknown = await response.json().catch(() => null)
    if (!response.ok) throw failure(response, body)
    const result = schema.safeParse(body)
    if (!result.success)
      throw new ApiError('internal_error', `Factdesk answered ${path} in an unexpected form.`)
    return result.data
  }

  return {
    me: () => get('/me', Me),
    credits: () => get('/credits', Credits),
  }
}

// Every failure of the API comes as the error envelope; anything else (a proxy's page, say) is named by its status.
function failure(response: Response, body: unknown): ApiError {
  const envelope = ErrorEnvelope.safeParse(body)
  if (envelope.success) return ApiError.fromEnvelope(envelope.data)
  const code = (Object.keys(STATUS_OF) as ErrorCode[]).find((each) => STATUS_OF[each] === response.status)
  return new ApiError(code ?? 'internal_error', `Factdesk answered with HTTP status ${response.status}.`)
}

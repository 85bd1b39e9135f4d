import { APICallError } from 'ai'
import { withoutAddresses } from '../base/addresses'

/// The longest wait a Retry-After header may impose, and the cap of exponential backoff.
export const MAX_RETRY_AFTER_MS = 60_000
const MAX_BACKOFF_MS = 30_000

/// The wait a response asks for through `retry-after-ms` (OpenAI) or `Retry-After` (seconds or an HTTP date),
/// or null when it asks for none. Header names are lower case, as the AI SDK records them.
export function retryAfterMs(
  headers: Readonly<Record<string, string>> | undefined,
  now = Date.now(),
): number | null {
  if (!headers) return null
  const ms = Number.parseFloat(headers['retry-after-ms'] ?? '')
  if (Number.isFinite(ms) && ms >= 0) return Math.min(ms, MAX_RETRY_AFTER_MS)
  const value = headers['retry-after']?.trim()
  if (!value) return null
  if (/^\d+(\.\d+)?$/.test(value)) return Math.min(Number(value) * 1000, MAX_RETRY_AFTER_MS)
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS)
}

/// Exponential backoff with full-range jitter: `base`, `2 base`, `4 base` … each times 0.5–1.5, capped.
export function backoffMs(retry: number, baseMs: number, random = Math.random): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** retry) * (0.5 + random())
}

/// What to do after a failed request.
export type Failure =
  | { kind: 'retry'; message: string; waitMs: number | null }
  | { kind: 'permanent'; message: string }
  | { kind: 'other'; message: string }

/// Sorts a failed request: 408, 409, 429, 5xx, lost connections and timeouts are worth retrying (after the
/// response's Retry-After when it gave one); other HTTP errors will not mend; anything else (an answer that did
/// not follow the schema) is left to the job runner's own retries. A failed connection's message names no
/// address the endpoint's host resolved to (`Cannot connect to API: connect ECONNREFUSED 10.0.0.5:11434`).
export function classify(error: unknown, timedOut: boolean, timeoutMs: number): Failure {
  if (timedOut) return { kind: 'retry', message: `no answer within ${timeoutMs} ms`, waitMs: null }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode
    const detail = summary(withoutAddresses(error.message, error.url))
    const message = status === undefined ? `request failed: ${detail}` : `HTTP ${status}: ${detail}`
    if (error.isRetryable || status === 429 || (status !== undefined && status >= 500))
      return { kind: 'retry', message, waitMs: retryAfterMs(error.responseHeaders) }
    return { kind: 'permanent', message }
  }
  return { kind: 'other', message: summary(error instanceof Error ? error.message : String(error)) }
}

/// A provider's message on one line and short enough for a check's error.
const summary = (text: string): string => {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 300 ? `${line.slice(0, 300)}…` : line
}

import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HTTPException } from 'hono/http-exception'
import type { ZodError } from 'zod'
import { ApiError } from '../../shared/errors'

/// The most problems an error names: a body of many unknown members is answered in a few lines, not in one
/// per member.
export const MAX_DETAILS = 20

/// Turns zod's issues into the envelope's `details`, one per field (each unknown member its own), at most
/// MAX_DETAILS of them.
export function validationError(error: ZodError, what: string): ApiError {
  const all = error.issues.flatMap((issue) => {
    const at = issue.path.map(String)
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: [...at, key].join('.'),
        message: 'is not a member of this request',
      }))
    }
    return [{ field: at.length > 0 ? at.join('.') : '(body)', message: issue.message }]
  })
  const details = all.slice(0, MAX_DETAILS)
  const fields = [...new Set(details.map((d) => d.field))].join(', ')
  const more = all.length > MAX_DETAILS ? ` and ${all.length - MAX_DETAILS} more problems` : ''
  return new ApiError('bad_request', `The ${what} is not valid (${fields}${more}).`, details)
}

/// A request body sent as anything but JSON. `requireJsonBody` refuses most by their Content-Type; the routes'
/// own media type check (Hono's 415) refuses the rest, such as `application/json ; charset=utf-8`.
export const notJson = (): ApiError =>
  new ApiError('bad_request', 'Send the body as JSON with "Content-Type: application/json".')

/// Refuses a request body over `maxSize` bytes as 413 `payload_too_large`: by its Content-Length before it is
/// read, or as soon as a body sent in chunks passes it. `why` says what the limit is for.
export const limitBody = (maxSize: number, why?: string): MiddlewareHandler =>
  bodyLimit({
    maxSize,
    onError: () => {
      const size =
        maxSize < 1024 * 1024
          ? `${maxSize.toLocaleString('en')} bytes`
          : `${Math.round(maxSize / 1024 / 1024)} MB`
      throw new ApiError(
        'payload_too_large',
        `The request body is larger than ${size}${why ? `: ${why}` : ''}.`,
      )
    },
  })

/// Every failure leaves as the error envelope; unexpected ones as `internal_error`, never with a stack trace,
/// SQL or a secret in the reply.
export function errorResponse(error: unknown, c: Context): Response {
  if (error instanceof ApiError) {
    if (error.retryAfterSeconds !== null) c.header('Retry-After', String(error.retryAfterSeconds))
    return c.json(error.toEnvelope(), error.status as 400)
  }
  if (error instanceof HTTPException && error.status === 400) {
    return c.json(new ApiError('bad_request', 'The request body is not valid JSON.').toEnvelope(), 400)
  }
  if (error instanceof HTTPException && error.status === 415) return c.json(notJson().toEnvelope(), 400)
  if (error instanceof HTTPException && error.status === 413) {
    return c.json(new ApiError('payload_too_large', error.message).toEnvelope(), 413)
  }
  console.error('internal error:', error)
  return c.json(new ApiError('internal_error', 'Something went wrong on our side.').toEnvelope(), 500)
}

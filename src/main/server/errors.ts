import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HTTPException } from 'hono/http-exception'
import type { ZodError } from 'zod'
import { ApiError } from '../../shared/errors'

/// Turns zod's issues into the envelope's `details`, one per field.
export function validationError(error: ZodError, what: string): ApiError {
  const details = error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join('.') : '(body)',
    message: issue.message,
  }))
  const fields = [...new Set(details.map((d) => d.field))].join(', ')
  return new ApiError('bad_request', `The ${what} is not valid (${fields}).`, details)
}

/// A request body sent as anything but JSON. `requireJsonBody` refuses most by their Content-Type; the routes'
/// own media type check (Hono's 415) refuses the rest, such as `application/json ; charset=utf-8`.
export const notJson = (): ApiError =>
  new ApiError('bad_request', 'Send the body as JSON with "Content-Type: application/json".')

/// Refuses a request body over `maxSize` bytes, before it is read, as `unprocessable`.
export const limitBody = (maxSize: number): MiddlewareHandler =>
  bodyLimit({
    maxSize,
    onError: () => {
      const size =
        maxSize < 1024 * 1024
          ? `${maxSize.toLocaleString('en')} bytes`
          : `${Math.round(maxSize / 1024 / 1024)} MB`
      throw new ApiError('unprocessable', `The request body is larger than ${size}.`)
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
    return c.json(new ApiError('unprocessable', error.message).toEnvelope(), 422)
  }
  console.error('internal error:', error)
  return c.json(new ApiError('internal_error', 'Something went wrong on our side.').toEnvelope(), 500)
}

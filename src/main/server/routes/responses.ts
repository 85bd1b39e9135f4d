import type { ZodType } from 'zod'
import { ErrorEnvelope } from '../../../shared/schemas'

/// A JSON response declaration for a route.
export const ok = <T extends ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
})

/// An error response declaration: always the envelope.
export const error = (description: string) => ok(ErrorEnvelope, description)

/// The error responses every authenticated route can give; write routes add 403 for read tokens.
export function errorResponses(scope: 'read' | 'write') {
  return {
    400: error('The request is not valid'),
    401: error('Missing, malformed, unknown or revoked token'),
    ...(scope === 'write' ? { 403: error('A read token called a write endpoint') } : {}),
    404: error('Not found, or not of this organization'),
    500: error('Unexpected failure'),
  }
}

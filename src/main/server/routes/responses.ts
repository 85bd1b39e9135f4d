import { z, type ZodType } from 'zod'
import type { Access } from '../../../shared/operations'
import { ErrorEnvelope } from '../../../shared/schemas'

/// A JSON response declaration for a route.
export const ok = <T extends ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
})

/// An error response declaration: always the envelope.
export const error = (description: string) => ok(ErrorEnvelope, description)

const RETRY_AFTER = z.object({
  'Retry-After': z.string().regex(/^\d+$/).meta({ description: 'The seconds to wait before retrying' }),
})

/// A request addressed to a host name the server does not answer (a DNS rebinding defence): any route.
export const MISDIRECTED = error(
  'Addressed to a host name this server does not answer (`server.allowedHosts`)',
)

/// The error responses of a route of `access`, and its own (`extra`): every route can answer 400, 401, 404 and
/// 500 (and 421); write routes 403 for read tokens, the owner's for every API token.
export function errorResponses(access: Access, extra: Partial<Record<number, string>> = {}) {
  const responses: Record<number, ReturnType<typeof error> & { headers?: typeof RETRY_AFTER }> = {
    400: error('The request is not valid'),
    401: error('Missing, malformed, unknown or revoked token'),
    404: error('Not found, or not of this organization'),
    421: MISDIRECTED,
    500: error('Unexpected failure'),
  }
  if (access === 'write') responses[403] = error('A read token called a write endpoint')
  if (access === 'owner') {
    responses[403] = error(
      'Only the desktop app or the `factdesk web` session may do this; API tokens never can',
    )
  }
  for (const [status, description] of Object.entries(extra)) {
    if (description) responses[Number(status)] = error(description)
  }
  if (responses[429]) responses[429] = { ...responses[429], headers: RETRY_AFTER }
  return responses
}

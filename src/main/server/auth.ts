import type { Context, MiddlewareHandler, Next } from 'hono'
import { getCookie } from 'hono/cookie'
import { PAGE_KEY_HEADER } from '../../shared/browserSession'
import { ApiError } from '../../shared/errors'
import type { Principal } from '../engine/checks/access'
import type { Service } from '../engine/checks/service'

/// Hono's per-request variables of the API.
export interface ApiEnv {
  Variables: { principal: Principal }
}

/// Name of the browser-mode session cookie; it holds a browser session (see `web.ts`), never an API token.
export const SESSION_COOKIE = 'factdesk_session'

/// Authentication before anything else: a bearer token, or in browser mode the session cookie together with the
/// page's key (PAGE_KEY_HEADER), which only the page of this origin holds. Sets the principal for the handlers.
export function authenticate(service: Service, acceptSessionCookie: boolean): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const header = c.req.header('Authorization')
    if (header !== undefined) {
      const token = /^Bearer +(\S+) *$/i.exec(header)?.[1]
      if (!token) throw new ApiError('unauthorized', 'The Authorization header must be "Bearer <token>".')
      return authorised(c, await service.authenticate(token), next)
    }
    const cookie = acceptSessionCookie ? getCookie(c, SESSION_COOKIE) : undefined
    if (!cookie) throw new ApiError('unauthorized', 'Send your API token as "Authorization: Bearer <token>".')
    // Any program the browser visits on this host receives the cookie too: without the page's key it is nothing.
    const pageKey = c.req.header(PAGE_KEY_HEADER)
    if (!pageKey) {
      throw new ApiError(
        'unauthorized',
        `The browser session needs the page's key in ${PAGE_KEY_HEADER}: open the link \`factdesk web\` printed.`,
      )
    }
    return authorised(c, await service.authenticateSession({ cookie, pageKey }), next)
  }
}

/// Sets the principal for the handlers. What it may do is each operation's declared `access`, checked next,
/// before the request's body is read (`operationAccess`).
async function authorised(c: Context<ApiEnv>, principal: Principal, next: Next): Promise<void> {
  c.set('principal', principal)
  await next()
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Hono } from 'hono'
import { setCookie } from 'hono/cookie'
import { z } from 'zod'
import type { OpenedSession } from '../../shared/browserSession'
import { CONTENT_SECURITY_POLICY } from '../../shared/csp'
import { ApiError } from '../../shared/errors'
import { SESSION_LIFETIME_MS } from '../engine/checks/admin'
import type { Engine } from '../engine/engine'
import { SESSION_COOKIE } from './auth'
import { jsonText } from './body'
import { limitBody, validationError } from './errors'

const SessionRequest = z.strictObject({ token: z.string() })
/// The exchange carries one short token: anything bigger is refused before it is read.
const SESSION_BODY_BYTES = 1024
const digest = (value: string): Buffer => createHash('sha256').update(value).digest()

/// Browser mode, like a notebook server: serves the editor's built pages and exchanges the one-time token
/// printed at start (carried in the URL fragment, so it never reaches a request log) for a session: its cookie,
/// and in the answer the page's key, which the page keeps in its origin's storage (see PAGE_KEY_HEADER).
/// Returns the one-time token for the `open …` line.
export function mountWeb(app: Hono, engine: Engine, rendererDir: string): string {
  const oneTimeToken = randomBytes(24).toString('base64url')
  let unused: Buffer | null = digest(oneTimeToken)

  app.post('/auth/session', limitBody(SESSION_BODY_BYTES), async (c) => {
    const body = SessionRequest.safeParse(JSON.parse(jsonText(new Uint8Array(await c.req.arrayBuffer()))))
    if (!body.success) throw validationError(body.error, 'request body')
    const offered = digest(body.data.token)
    if (!unused || !timingSafeEqual(offered, unused)) {
      throw new ApiError(
        'unauthorized',
        'This link was used already or is not valid: use the one `factdesk web` printed.',
      )
    }
    unused = null
    const { keys } = await engine.admin.createSession()
    setCookie(c, SESSION_COOKIE, keys.cookie, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      maxAge: SESSION_LIFETIME_MS / 1000,
    })
    c.header('Cache-Control', 'no-store')
    return c.json({ pageKey: keys.pageKey } satisfies OpenedSession)
  })

  app.use('*', async (c, next) => {
    await next()
    c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('X-Frame-Options', 'DENY')
    c.header('Referrer-Policy', 'no-referrer')
  })
  app.get('*', serveStatic({ root: rendererDir }))
  return oneTimeToken
}

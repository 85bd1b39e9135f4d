import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PAGE_KEY_HEADER } from '../../../src/shared/browserSession'
import { CONTENT_SECURITY_POLICY } from '../../../src/shared/csp'
import { SESSION_LIFETIME_MS } from '../../../src/main/engine/checks/admin'
import { ManualClock } from '../../../src/main/engine/base/clock'
import type { SessionKeys } from '../../../src/main/engine/checks/account'
import { mountWeb } from '../../../src/main/server/web'
import { expectEnvelope, startServer, tempDir, type TestServer } from '../../helpers/server'

let server: TestServer
let oneTimeToken = ''
let rendererDir = ''

beforeAll(async () => {
  rendererDir = join(tempDir(), 'renderer')
  mkdirSync(rendererDir)
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Factdesk</title>')
  server = await startServer({ extend: (app, engine) => (oneTimeToken = mountWeb(app, engine, rendererDir)) })
})
afterAll(() => server.close())

/// The headers of the page of a browser session: its cookie and its key.
const sessionHeaders = (keys: SessionKeys): Record<string, string> => ({
  Cookie: `factdesk_session=${keys.cookie}`,
  [PAGE_KEY_HEADER]: keys.pageKey,
})

const exchange = (token: string) =>
  fetch(`${server.origin}/auth/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  })

describe('browser mode', () => {
  it('serves the editor page with a strict Content-Security-Policy', async () => {
    const res = await fetch(server.origin + '/')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('<title>Factdesk</title>')
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
  })

  it('missing files are 404 and paths cannot climb out of the renderer folder', async () => {
    expect((await fetch(server.origin + '/missing.js')).status).toBe(404)
    expect((await fetch(server.origin + '/..%2f..%2fetc%2fpasswd')).status).toBe(404)
  })

  it('exchanges the one-time token once for an HttpOnly, SameSite=Strict cookie and the page key', async () => {
    const wrong = await exchange('guess')
    expect(wrong.status).toBe(401)
    expectEnvelope(await wrong.json(), 'unauthorized')

    const res = await exchange(oneTimeToken)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const cookie = res.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(/^factdesk_session=fdk_[\w-]+;/)
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    expect(cookie).toMatch(/Max-Age=2592000/) // 30 days
    expect(cookie).not.toContain(oneTimeToken)
    const { pageKey } = (await res.json()) as { pageKey: string }
    expect(pageKey).toMatch(/^fdk_[\w-]+$/)
    expect(cookie).not.toContain(pageKey)

    expect((await exchange(oneTimeToken)).status).toBe(401) // one time only

    const session = cookie.split(';')[0] ?? ''
    const me = await fetch(`${server.api}/me`, { headers: { Cookie: session, [PAGE_KEY_HEADER]: pageKey } })
    expect(me.status).toBe(200)
    expect((await me.json()).token).toMatchObject({ name: 'browser session', scope: 'write' })

    // The cookie alone, or with a key that is not its session's, is nothing, whatever the Origin says.
    const other = (await server.engine.admin.createSession()).keys
    const rotate = (headers: Record<string, string>) =>
      fetch(`${server.api}/webhook-secret/rotate`, {
        method: 'POST',
        headers: { Cookie: session, ...headers },
      })
    const forged: Record<string, string>[] = [
      {},
      { Origin: server.origin },
      { Origin: server.origin, [PAGE_KEY_HEADER]: other.pageKey },
      { [PAGE_KEY_HEADER]: 'fdk_' + 'x'.repeat(43) },
    ]
    for (const headers of forged) {
      const refused = await rotate(headers)
      expect(refused.status).toBe(401)
      expectEnvelope(await refused.json(), 'unauthorized')
    }
    expect((await rotate({ [PAGE_KEY_HEADER]: pageKey })).status).toBe(200)
  })

  it('refuses the cookie without its page key on every route of the API, whatever else is sent', async () => {
    const { keys } = await server.engine.admin.createSession()
    const document = (await (await fetch(`${server.api}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown[] }>>
    }
    // Those that need signing in: the document itself (`security: []`) is open to all.
    const routes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) =>
        operation.security?.length === 0 ? [] : [[method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'x_1')]],
      ),
    )
    expect(routes).toContainEqual(['POST', '/tokens'])
    const answers: string[] = []
    for (const [method = '', path = ''] of routes) {
      const withBody = method !== 'GET'
      const response = await fetch(server.api + path, {
        method,
        headers: {
          Cookie: `factdesk_session=${keys.cookie}`,
          Origin: server.origin,
          ...(withBody ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(withBody ? { body: '{"amount":1000000,"scope":"write"}' } : {}),
      })
      const json = response.headers.get('content-type')?.startsWith('application/json')
        ? await response.json()
        : await response.body?.cancel()
      answers.push(`${method} ${path} ${response.status} ${json?.error?.code}`)
    }
    expect(answers.filter((answer) => !answer.endsWith('401 unauthorized'))).toEqual([])
  })

  it('takes no API token as the session cookie, and no session as an API token', async () => {
    // Any write token, of this organization or another, would otherwise become the person at this computer.
    const other = await server.engine.admin.createOrganization('Other', 10)
    for (const organizationId of [server.organizationId, other.id]) {
      const { value } = await server.engine.admin.createToken('write', organizationId, 'someone')
      const grant = await fetch(`${server.api}/credits/grants`, {
        method: 'POST',
        headers: {
          Cookie: `factdesk_session=${value}`,
          [PAGE_KEY_HEADER]: value,
          Origin: server.origin,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ amount: 1_000_000 }),
      })
      expect(grant.status).toBe(401)
      expectEnvelope(await grant.json(), 'unauthorized')
    }
    expect((await server.engine.service.credits(await server.engine.localPrincipal())).balance).toBe(1000)

    const { keys } = await server.engine.admin.createSession()
    expect((await fetch(`${server.api}/me`, { headers: sessionHeaders(keys) })).status).toBe(200)
    for (const half of [keys.cookie, keys.pageKey]) {
      const asBearer = await fetch(`${server.api}/me`, { headers: { Authorization: `Bearer ${half}` } })
      expect(asBearer.status).toBe(401)
    }
  })

  it('a session ends when it is revoked or 30 days after it opened, and ended sessions leave the list', async () => {
    const clock = new ManualClock()
    const timed = await startServer({
      clock,
      extend: (app, engine) => void mountWeb(app, engine, rendererDir),
    })
    try {
      const me = (keys: SessionKeys) =>
        fetch(`${timed.api}/me`, { headers: sessionHeaders(keys) }).then((res) => res.status)
      const first = await timed.engine.admin.createSession()
      const revoked = await timed.engine.admin.createSession()
      await timed.engine.admin.revokeToken(revoked.token.id)
      expect(await me(revoked.keys)).toBe(401)
      clock.advance(SESSION_LIFETIME_MS - 1000)
      expect(await me(first.keys)).toBe(200)
      clock.advance(1000)
      const refused = await fetch(`${timed.api}/me`, { headers: sessionHeaders(first.keys) })
      expect(refused.status).toBe(401)
      expect((await refused.json()).error.message).toContain('open the link')

      const second = await timed.engine.admin.createSession()
      expect(await me(second.keys)).toBe(200)
      const open = (await timed.engine.admin.listTokens()).filter((token) => token.revokedAt === null)
      expect(open.map((token) => token.id)).not.toContain(first.token.id)
      expect(open.map((token) => token.id)).toContain(second.token.id)
    } finally {
      await timed.close()
    }
  })

  it('refuses an exchange body over 1 KB before reading it', async () => {
    const res = await fetch(`${server.origin}/auth/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: 'x'.repeat(2000) }),
    })
    expect(res.status).toBe(413)
    expectEnvelope(await res.json(), 'payload_too_large')
  })

  it('a malformed exchange is 400 bad_request', async () => {
    const res = await fetch(`${server.origin}/auth/session`, { method: 'POST', body: '{"token":' })
    expect(res.status).toBe(400)
    expectEnvelope(await res.json(), 'bad_request')
  })
})

describe('headless mode', () => {
  it('does not accept a session cookie, only the bearer header', async () => {
    const headless = await startServer()
    const { value } = await headless.engine.admin.createToken('write', headless.organizationId, 'x')
    const res = await fetch(`${headless.api}/me`, { headers: { Cookie: `factdesk_session=${value}` } })
    expect(res.status).toBe(401)
    const session = await fetch(`${headless.api}/me`, {
      headers: sessionHeaders((await headless.engine.admin.createSession()).keys),
    })
    expect(session.status).toBe(401)
    await headless.close()
  })
})

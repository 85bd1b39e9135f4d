import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY } from '../../src/shared/csp'
import { mountWeb } from '../../src/main/server/web'
import { expectEnvelope, startServer, tempDir, type TestServer } from '../helpers/server'

let server: TestServer
let oneTimeToken = ''

beforeAll(async () => {
  const rendererDir = join(tempDir(), 'renderer')
  mkdirSync(rendererDir)
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Factdesk</title>')
  server = await startServer({ extend: (app, engine) => (oneTimeToken = mountWeb(app, engine, rendererDir)) })
})
afterAll(() => server.close())

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

  it('exchanges the one-time token once for an HttpOnly, SameSite=Strict session cookie', async () => {
    const wrong = await exchange('guess')
    expect(wrong.status).toBe(401)
    expectEnvelope(await wrong.json(), 'unauthorized')

    const res = await exchange(oneTimeToken)
    expect(res.status).toBe(204)
    const cookie = res.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(/^factdesk_session=fdk_[\w-]+;/)
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    expect(cookie).not.toContain(oneTimeToken)

    expect((await exchange(oneTimeToken)).status).toBe(401) // one time only

    const session = cookie.split(';')[0] ?? ''
    const me = await fetch(`${server.api}/me`, { headers: { Cookie: session } })
    expect(me.status).toBe(200)
    expect((await me.json()).token).toMatchObject({ name: 'browser session', scope: 'write' })

    // Writes with the cookie only from the page's own origin.
    const rotate = (origin?: string) =>
      fetch(`${server.api}/webhook-secret/rotate`, {
        method: 'POST',
        headers: { Cookie: session, ...(origin ? { Origin: origin } : {}) },
      })
    expect((await rotate()).status).toBe(403)
    expect((await rotate('https://evil.example')).status).toBe(403)
    expect((await rotate(server.origin)).status).toBe(200)
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
    const { value } = headless.engine.admin.createToken('write', headless.organizationId, 'x')
    const res = await fetch(`${headless.api}/me`, { headers: { Cookie: `factdesk_session=${value}` } })
    expect(res.status).toBe(401)
    await headless.close()
  })
})

import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorEnvelope } from '../../../src/shared/schemas'
import { startServer, type TestServer } from '../../helpers/server'

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const segment = fc.oneof(
  fc.constantFrom(
    'me',
    'credits',
    'webhook-secret',
    'rotate',
    'checks',
    'estimate',
    'report',
    'research',
    'openapi.json',
    '..',
    '%2e%2e',
    '',
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
)
const path = fc
  .tuple(fc.constantFrom('/api/v1', '/api', '', '/api/v1/'), fc.array(segment, { maxLength: 4 }))
  .map(([base, parts]) => `${base}/${parts.join('/')}`)

describe('random requests', () => {
  it('never get a 5xx, and every failure is the error envelope', async () => {
    const tokens = [server.write, server.read]
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          method: fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'),
          path,
          authorization: fc.option(
            fc.oneof(
              fc.constantFrom(...tokens).map((t) => `Bearer ${t}`),
              fc.string({ maxLength: 60 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
            ),
          ),
          contentType: fc.option(
            fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', 'x/y'),
          ),
          body: fc.option(fc.oneof(fc.json(), fc.string({ maxLength: 200 }))),
        }),
        async ({ method, path, authorization, contentType, body }) => {
          const headers: Record<string, string> = {}
          if (authorization !== null) headers.Authorization = authorization
          if (contentType !== null) headers['Content-Type'] = contentType
          const sendsBody = body !== null && method !== 'GET'
          const res = await fetch(server.origin + path, {
            method,
            headers,
            body: sendsBody ? body : undefined,
          })
          expect(res.status).toBeLessThan(500)
          if (res.status >= 400) {
            expect(res.headers.get('content-type')).toMatch(/^application\/json/)
            expect(ErrorEnvelope.safeParse(await res.json()).success).toBe(true)
          } else {
            await res.body?.cancel()
          }
        },
      ),
      { numRuns: 400 },
    )
  })
})

import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call, expectEnvelope, startServer, type TestServer } from '../../helpers/server'

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

describe('the error envelope', () => {
  it('unknown routes, with a valid token, are 404 not_found', async () => {
    for (const path of ['/nope', '/checks/chk_1/nope', '/research/rsc_1', '/me/extra', '/']) {
      const res = await call(server, 'GET', path)
      expect(res.status, path).toBe(404)
      expectEnvelope(res.json, 'not_found')
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    }
  })

  it('routes outside /api/v1 are 404 not_found too', async () => {
    for (const path of ['/', '/api', '/api/v2/me', '/index.html']) {
      const res = await fetch(server.origin + path)
      expect(res.status, path).toBe(404)
      expectEnvelope(await res.json(), 'not_found')
    }
  })

  it('a wrong method on a known path is 404 not_found', async () => {
    const res = await call(server, 'DELETE', '/me')
    expect(res.status).toBe(404)
    expectEnvelope(res.json, 'not_found')
  })

  it('malformed JSON is 400 bad_request', async () => {
    for (const rawBody of ['{', 'nope', '{"a":}', '\u0000']) {
      const res = await call(server, 'POST', '/webhook-secret/rotate', { rawBody })
      expect(res.status, rawBody).toBe(400)
      expectEnvelope(res.json, 'bad_request')
    }
  })

  it('a GET with a body is answered as if it had none (fetch cannot send one: node:http can)', async () => {
    const get = (path: string, token: string, body: string) =>
      new Promise<number>((resolve, reject) => {
        const sent = request(
          `${server.api}${path}`,
          {
            method: 'GET',
            headers: {
              Authorization: `Bearer ${token}`,
              'Content-Type': 'application/json',
              'Content-Length': Buffer.byteLength(body),
            },
          },
          (res) => {
            res.resume()
            resolve(res.statusCode ?? 0)
          },
        )
        sent.on('error', reject)
        sent.end(body)
      })
    expect(await get('/me', server.write, '{"a":1}')).toBe(200)
    expect(await get('/me', server.write, 'not json')).toBe(200)
    // The write scope decides, not the body.
    expect(await get('/webhook-secret', server.read, '{"a":1}')).toBe(403)
  })

  it('a body that is not JSON by its content type is 400 bad_request', async () => {
    const res = await call(server, 'POST', '/webhook-secret/rotate', {
      rawBody: 'text=1',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(res.status).toBe(400)
    expect(expectEnvelope(res.json, 'bad_request').message).toMatch(/application\/json/)
  })

  it('a content type that only starts like JSON is 400 bad_request on every route with a body, never 500', async () => {
    const { json: check } = await call(server, 'POST', '/checks', {
      body: { text: 'Ottawa is the capital city of Canada.', tiers: ['t1'] },
    })
    const routes: [string, string, unknown][] = [
      ['POST', '/checks/estimate', { text: 'Ottawa is the capital city of Canada.', tiers: ['t1'] }],
      ['POST', '/checks', { text: 'Ottawa is the capital city of Canada.', tiers: ['t1'] }],
      ['PATCH', `/checks/${check.id}`, { name: 'Ottawa' }],
      ['POST', '/research', { text: 'Ottawa is the capital city of Canada.' }],
    ]
    for (const type of [
      'application/json ; charset=utf-8',
      'application/json, text/plain',
      'application/json-seq',
    ]) {
      for (const [method, path, body] of routes) {
        const res = await call(server, method, path, { body, headers: { 'Content-Type': type } })
        expect(res.status, `${method} ${path} as ${type}`).toBe(400)
        expect(expectEnvelope(res.json, 'bad_request').message).toMatch(/application\/json/)
      }
    }
    // Parameters after the media type are fine: the body is read.
    const res = await call(server, 'PATCH', `/checks/${check.id}`, {
      body: { name: 'Ottawa' },
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    })
    expect(res.status).toBe(200)
    expect(res.json.name).toBe('Ottawa')
  })

  it('an over-large body is 413 payload_too_large', async () => {
    // Room for the longest draft (1,000,000 characters) at 6 bytes each, and a little more.
    const res = await call(server, 'POST', '/webhook-secret/rotate', {
      rawBody: JSON.stringify({ text: 'x'.repeat(7 * 1024 * 1024) }),
    })
    expect(res.status).toBe(413)
    expect(expectEnvelope(res.json, 'payload_too_large').message).toBe(
      'The request body is larger than 6 MB.',
    )
  })

  it('a body holding a text over the configured limit is refused by its length, in words', async () => {
    const roomy = await startServer({ config: { limits: { maxTextChars: 1_500_000 } } })
    try {
      // 4.5 MB of UTF-8: more than a fixed 4 MB body limit, which would have answered in bytes.
      const res = await call(roomy, 'POST', '/checks/estimate', {
        body: { text: '漢'.repeat(1_500_001), tiers: ['t1'] },
      })
      expect(res.status).toBe(422)
      expect(expectEnvelope(res.json, 'unprocessable').message).toBe(
        'The text is 1,500,001 characters long; the limit is 1,500,000.',
      )
    } finally {
      await roomy.close()
    }
  })

  it('names at most 20 unknown members, however many a body holds', async () => {
    const members = Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`unknown${i}`, 1]))
    const res = await call(server, 'POST', '/checks/estimate', {
      body: { text: 'Ottawa is the capital city of Canada.', tiers: ['t1'], ...members },
    })
    expect(res.status).toBe(400)
    const error = expectEnvelope(res.json, 'bad_request')
    expect(error.details).toHaveLength(20)
    expect((error.details as { field: string }[])[0]?.field).toBe('unknown0')
    expect(error.message).toMatch(/and 880 more problems\)\.$/)
    expect(JSON.stringify(res.json).length).toBeLessThan(4000)
  })

  it('a body of too many members, or nested too deep, is 400 before it is parsed', async () => {
    const many = `{${Array.from({ length: 200_000 }, (_, i) => `"k${i}":1`).join(',')}}`
    const manyRes = await call(server, 'POST', '/checks/estimate', { rawBody: many })
    expect(manyRes.status).toBe(400)
    expect(expectEnvelope(manyRes.json, 'bad_request').message).toBe(
      'The request body holds more than 1,000 members.',
    )
    expect(JSON.stringify(manyRes.json).length).toBeLessThan(500)
    for (const rawBody of ['['.repeat(33) + ']'.repeat(33), '['.repeat(1_000_000) + ']'.repeat(1_000_000)]) {
      const res = await call(server, 'POST', '/drafts/import', { rawBody })
      expect(res.status).toBe(400)
      expect(expectEnvelope(res.json, 'bad_request').message).toBe(
        'The request body nests deeper than 32 levels.',
      )
    }
    // Brackets, braces and colons inside strings are text, escaped quotes included.
    const res = await call(server, 'POST', '/checks/estimate', {
      body: { text: `Ottawa is the capital city of Canada. ${'[{":\\'.repeat(5000)}`, tiers: ['t1'] },
    })
    expect(res.status).toBe(200)
  })

  it('a body that is not valid UTF-8 is 400 naming the byte offset, never read as U+FFFD', async () => {
    const head = Buffer.from('{"text":"Ottawa is the capital ', 'utf8')
    const cases: [Buffer, number][] = [
      [Buffer.from([0xff]), head.length],
      [Buffer.from([0xc3, 0x28]), head.length],
      [Buffer.from([0xed, 0xa0, 0x80]), head.length], // a surrogate, encoded
      [Buffer.from([0xc0, 0xaf]), head.length], // an overlong slash
      [Buffer.from('é€', 'utf8'), -1],
    ]
    for (const [bad, offset] of cases) {
      const body = Buffer.concat([head, bad, Buffer.from(' city of Canada.","tiers":["t1"]}')])
      const res = await fetch(`${server.api}/checks/estimate`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${server.write}`, 'Content-Type': 'application/json' },
        body,
      })
      if (offset === -1) {
        expect(res.status).toBe(200)
        expect((await res.json()).claims[0].text).toContain('capital é€ city')
        continue
      }
      expect(res.status, bad.toString('hex')).toBe(400)
      expect(expectEnvelope(await res.json(), 'bad_request').message).toBe(
        `The request body is not valid UTF-8: the character at byte ${offset} is not.`,
      )
    }
  })

  it('an unexpected failure is 500 internal_error without stack, SQL or secrets', async () => {
    // Break the store underneath the running server: the next query fails inside SQLite.
    const broken = await startServer()
    await broken.engine.close()
    const res = await call(broken, 'GET', '/credits')
    expect(res.status).toBe(500)
    const error = expectEnvelope(res.json, 'internal_error')
    expect(error.message).toBe('Something went wrong on our side.')
    await broken.close().catch(() => undefined)
  })
})

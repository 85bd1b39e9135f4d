import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readEvents } from '../helpers/events'
import { call, startServer, type TestServer } from '../helpers/server'

let server: TestServer

beforeEach(async () => {
  server = await startServer()
})

afterEach(async () => {
  await server.close()
})

describe('GET /api/v1/events', () => {
  it('needs a token', async () => {
    const res = await fetch(`${server.api}/events`)
    expect(res.status).toBe(401)
    await res.body?.cancel()
  })

  it("streams the organization's report changes as they happen, and no one else's", async () => {
    const controller = new AbortController()
    const res = await fetch(`${server.api}/events`, {
      headers: { Authorization: `Bearer ${server.read}` },
      signal: controller.signal,
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const other = server.engine.admin.createOrganization('Other', 100)
    const otherToken = server.engine.admin.createToken('write', other.id, 'other').value
    await call(server, 'POST', '/checks', {
      token: otherToken,
      body: { text: 'Rome is in Italy.', tiers: ['t1'] },
    })
    const submitted = await call(server, 'POST', '/checks', {
      body: { text: 'The Eiffel Tower is 330 metres tall.', tiers: ['t1'] },
    })
    expect(submitted.status).toBe(202)
    const events = (await readEvents(res, (seen) =>
      seen.some((e: any) => e.type === 'check' && e.check.status === 'completed'),
    )) as any[]
    controller.abort()
    expect(events.length).toBeGreaterThan(0)
    expect(events.every((e) => !('organizationId' in e))).toBe(true)
    const checkIds = new Set(events.map((e) => (e.type === 'check' ? e.check.id : e.checkId)))
    expect([...checkIds]).toEqual([submitted.json.id])
    expect(events.some((e) => e.type === 'claim' && e.tier === 't1')).toBe(true)
  })

  it('ends when its token is revoked, before sending another event', async () => {
    const { value, token } = server.engine.admin.createToken('read', server.organizationId, 'dashboard')
    const res = await fetch(`${server.api}/events`, { headers: { Authorization: `Bearer ${value}` } })
    expect(res.status).toBe(200)
    server.engine.admin.revokeToken(token.id)
    await call(server, 'POST', '/checks', { body: { text: 'Rome is in Italy.', tiers: ['t1'] } })
    await expect(readEvents(res, () => false)).rejects.toThrow('the stream closed')
  })
})

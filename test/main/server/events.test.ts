import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readEvents, readStream } from '../../helpers/events'
import { call, startServer, type TestServer } from '../../helpers/server'

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
    const other = await server.engine.admin.createOrganization('Other', 100)
    const otherToken = (await server.engine.admin.createToken('write', other.id, 'other')).value
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

  it('numbers its events, and first sends a stream that reconnects with Last-Event-ID what it missed', async () => {
    const controller = new AbortController()
    const first = await fetch(`${server.api}/events`, {
      headers: { Authorization: `Bearer ${server.read}` },
      signal: controller.signal,
    })
    const submitted = await call(server, 'POST', '/checks', {
      body: { text: 'The Eiffel Tower is 330 metres tall. Rome is in Italy.', tiers: ['t1'] },
    })
    const heard = await readStream(first, (seen) => seen.some((event) => event.data.includes('"completed"')))
    controller.abort()
    expect(heard.length).toBeGreaterThan(3)
    expect(new Set(heard.map((event) => event.id)).size).toBe(heard.length)
    // One process's stream names its events; a team server's are numbered in its database.
    expect(heard.every((event) => /^(?:[0-9a-f]{8}-)?\d+$/.test(event.id ?? ''))).toBe(true)
    // Meanwhile another organization's check runs: its events are not this stream's to send.
    const other = await server.engine.admin.createOrganization('Other', 100)
    const otherToken = (await server.engine.admin.createToken('write', other.id, 'other')).value
    const elsewhere = await call(server, 'POST', '/checks', {
      token: otherToken,
      body: { text: 'Paris is in France.', tiers: ['t1'] },
    })
    await expect
      .poll(
        async () =>
          (await call(server, 'GET', `/checks/${elsewhere.json.id}`, { token: otherToken })).json.status,
      )
      .toBe('completed')

    // The connection broke after the second event: the rest comes first, in order, with the same ids.
    const again = await fetch(`${server.api}/events`, {
      headers: { Authorization: `Bearer ${server.read}`, 'Last-Event-ID': heard[1]!.id! },
    })
    const missed = await readStream(again, (seen) => seen.length === heard.length - 2)
    expect(missed).toEqual(heard.slice(2))
    expect(JSON.parse(missed.at(-1)!.data)).toMatchObject({ type: 'check', check: { id: submitted.json.id } })

    // Nothing was missed after the last one: the stream goes on with what happens next.
    const caughtUp = await fetch(`${server.api}/events`, {
      headers: { Authorization: `Bearer ${server.read}`, 'Last-Event-ID': heard.at(-1)!.id! },
    })
    const next = await call(server, 'POST', '/checks', { body: { text: 'Rome is in Italy.', tiers: ['t1'] } })
    const after = await readStream(caughtUp, (seen) => seen.length > 0)
    expect(JSON.parse(after[0]!.data)).toMatchObject({ type: 'check', check: { id: next.json.id } })
  })

  it('tells a stream that reconnects to read again when what it missed cannot be told', async () => {
    for (const lastId of ['0badc0de-3', 'not an id']) {
      const res = await fetch(`${server.api}/events`, {
        headers: { Authorization: `Bearer ${server.read}`, 'Last-Event-ID': lastId },
      })
      expect(res.status).toBe(200)
      const [first] = await readEvents(res, (seen) => seen.length > 0)
      expect(first).toEqual({ type: 'resync' })
    }
  })

  it('ends when its token is revoked, before sending another event', async () => {
    const { value, token } = await server.engine.admin.createToken('read', server.organizationId, 'dashboard')
    const res = await fetch(`${server.api}/events`, { headers: { Authorization: `Bearer ${value}` } })
    expect(res.status).toBe(200)
    await server.engine.admin.revokeToken(token.id)
    await call(server, 'POST', '/checks', { body: { text: 'Rome is in Italy.', tiers: ['t1'] } })
    await expect(readEvents(res, () => false)).rejects.toThrow('the stream closed')
  })
})

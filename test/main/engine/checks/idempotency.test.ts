import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GatedTier } from '../../../helpers/tiers'
import { call, expectEnvelope, startServer, type TestServer } from '../../../helpers/server'

const TEXT = 'The Eiffel Tower is 330 metres tall. Paris is the capital of France.'
let server: TestServer
beforeAll(async () => {
  server = await startServer({ tiers: new Map([['t1', new GatedTier(true)]]) })
})
afterAll(() => server.close())

const submit = (key: string, body: unknown) =>
  call(server, 'POST', '/checks', { body, headers: { 'Idempotency-Key': key } })

describe('Idempotency-Key', () => {
  it('a repeat with the same key and body returns the same check, marked replayed, and charges nothing more', async () => {
    const body = { text: TEXT, tiers: ['t1'], name: 'once' }
    const first = await submit('key-1', body)
    expect(first.status).toBe(202)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const balance = (await call(server, 'GET', '/credits')).json.balance
    const again = await submit('key-1', { name: 'once', tiers: ['t1'], text: TEXT })
    expect(again.status).toBe(202)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.json.id).toBe(first.json.id)
    expect((await call(server, 'GET', '/credits')).json.balance).toBe(balance)
  })

  it('a repeat that says the same in other words is the same request: tiers in another order, null for absent', async () => {
    const first = await submit('key-5', { text: TEXT, tiers: ['t1'], name: null })
    const again = await submit('key-5', { text: TEXT, tiers: ['t1', 't1'] })
    expect(again.status).toBe(202)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.json.id).toBe(first.json.id)
    // A member with a value is part of the request.
    expect((await submit('key-5', { text: TEXT, tiers: ['t1'], name: 'other' })).status).toBe(422)
  })

  it('the same key with a different body is 422', async () => {
    await submit('key-2', { text: TEXT, tiers: ['t1'] })
    const res = await submit('key-2', { text: `${TEXT} More.`, tiers: ['t1'] })
    expect(res.status).toBe(422)
    expect(expectEnvelope(res.json, 'unprocessable').message).toMatch(/different request body/)
  })

  it('10 concurrent repeats create one check and one charge', async () => {
    const before = (await call(server, 'GET', '/credits')).json.balance
    const results = await Promise.all(
      Array.from({ length: 10 }, () => submit('key-3', { text: TEXT, tiers: ['t1'] })),
    )
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(202))
    expect(new Set(results.map((r) => r.json.id)).size).toBe(1)
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(9)
    expect((await call(server, 'GET', '/credits')).json.balance).toBe(
      before - results[0]!.json.credits.charged,
    )
  })

  it('keys belong to one organization', async () => {
    const other = await server.engine.admin.createOrganization('B', 100)
    const token = (await server.engine.admin.createToken('write', other.id, null)).value
    const mine = await submit('key-4', { text: TEXT, tiers: ['t1'] })
    const theirs = await call(server, 'POST', '/checks', {
      token,
      body: { text: TEXT, tiers: ['t1'] },
      headers: { 'Idempotency-Key': 'key-4' },
    })
    expect(theirs.status).toBe(202)
    expect(theirs.json.id).not.toBe(mine.json.id)
  })

  it('a key must be visible ASCII of at most 255 characters', async () => {
    expect((await submit('x'.repeat(256), { text: TEXT, tiers: ['t1'] })).status).toBe(400)
  })
})

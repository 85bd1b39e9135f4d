import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ManualClock } from '../../../src/main/engine/base/clock'
import { Credits, Me, WebhookSecret, WebhookSecretRotation } from '../../../src/shared/schemas'
import { call, startServer, type TestServer } from '../../helpers/server'

const HOUR = 60 * 60 * 1000
let server: TestServer
const clock = new ManualClock(new Date('2026-03-01T12:00:00.000Z'))

beforeAll(async () => {
  server = await startServer({ clock, config: { pricing: { t2: 5 } } })
})
afterAll(() => server.close())

describe('GET /me', () => {
  it('returns the organization and the token, never the token value', async () => {
    const res = await call(server, 'GET', '/me', { token: server.read })
    expect(res.status).toBe(200)
    const me = Me.parse(res.json)
    expect(me.organization).toMatchObject({ id: server.organizationId, name: 'Default organization' })
    expect(me.token).toMatchObject({ scope: 'read', name: 'test read' })
    expect(me.token.id).toMatch(/^tok_/)
    expect(JSON.stringify(res.json)).not.toContain(server.read)
  })
})

describe('GET /credits', () => {
  it('returns the balance of 1,000 starting credits and the configured prices', async () => {
    const res = await call(server, 'GET', '/credits', { token: server.read })
    expect(Credits.parse(res.json)).toEqual({ balance: 1000, prices: { t1: 1, t2: 5, t3: 10, research: 40 } })
  })

  it('follows grants', async () => {
    const org = await server.engine.admin.createOrganization('Granted', 0)
    const token = (await server.engine.admin.createToken('read', org.id, null)).value
    expect((await call(server, 'GET', '/credits', { token })).json.balance).toBe(0)
    await server.engine.admin.grantCredits(org.id, 42)
    expect((await call(server, 'GET', '/credits', { token })).json.balance).toBe(42)
  })
})

describe('webhook secret rotation', () => {
  it('issues a new secret per rotation and keeps the previous one valid for 24 hours', async () => {
    const first = WebhookSecret.parse((await call(server, 'GET', '/webhook-secret')).json)
    expect(first.secret).toMatch(/^whsec_/)
    expect(first.previous).toEqual([])

    const rotation = await call(server, 'POST', '/webhook-secret/rotate')
    expect(rotation.status).toBe(200)
    const rotated = WebhookSecretRotation.parse(rotation.json)
    expect(rotated.secret).not.toBe(first.secret)
    expect(rotated.createdAt).toBe('2026-03-01T12:00:00.000Z')
    expect(rotated.previousExpiresAt).toBe('2026-03-02T12:00:00.000Z')

    const after = WebhookSecret.parse((await call(server, 'GET', '/webhook-secret')).json)
    expect(after).toEqual({
      secret: rotated.secret,
      createdAt: rotated.createdAt,
      previous: [{ expiresAt: rotated.previousExpiresAt }],
    })
    expect(JSON.stringify(after)).not.toContain(first.secret)

    clock.advance(2 * HOUR)
    const second = WebhookSecretRotation.parse((await call(server, 'POST', '/webhook-secret/rotate')).json)
    expect(new Set([first.secret, rotated.secret, second.secret]).size).toBe(3)
    const both = WebhookSecret.parse((await call(server, 'GET', '/webhook-secret')).json)
    expect(both.previous.map((p) => p.expiresAt)).toEqual([
      '2026-03-02T14:00:00.000Z',
      '2026-03-02T12:00:00.000Z',
    ])

    clock.advance(22 * HOUR) // 2026-03-02T12:00: the first secret's 24 hours are over
    expect(WebhookSecret.parse((await call(server, 'GET', '/webhook-secret')).json).previous).toEqual([
      { expiresAt: '2026-03-02T14:00:00.000Z' },
    ])
    clock.advance(2 * HOUR)
    const last = WebhookSecret.parse((await call(server, 'GET', '/webhook-secret')).json)
    expect(last).toEqual({ secret: second.secret, createdAt: second.createdAt, previous: [] })
  })
})

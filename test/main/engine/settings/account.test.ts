import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { localServerSwitch } from '../../../../src/main/server/localServer'
import { listen } from '../../../../src/main/server/listen'
import { Hono } from 'hono'
import { CreatedToken, TokenList } from '../../../../src/shared/schemas'
import { call, expectEnvelope } from '../../../helpers/server'
import { closedPort } from '../../../helpers/ports'
import { startOwnerServer, type OwnerServer } from './session'

let server: OwnerServer
beforeAll(async () => {
  server = await startOwnerServer()
})
afterAll(() => server.close())

describe('API tokens', () => {
  it('creates a read token shown once, lists it without its value, and revokes it', async () => {
    const created = await server.owner('POST', '/tokens', { scope: 'read', name: 'dashboard' })
    expect(created.status).toBe(201)
    const { token, value } = CreatedToken.parse(created.json)
    expect(token).toMatchObject({ name: 'dashboard', scope: 'read', revokedAt: null })
    expect((await call(server, 'GET', '/me', { token: value })).status).toBe(200)
    expect((await call(server, 'POST', '/checks/estimate', { token: value, body: {} })).status).toBe(403)

    const listed = await server.owner('GET', '/tokens')
    const list = TokenList.parse(listed.json)
    expect(list.data.map((t) => t.id)).toContain(token.id)
    expect(JSON.stringify(listed.json)).not.toContain(value)

    const revoked = await server.owner('POST', `/tokens/${token.id}/revoke`)
    expect(revoked.status).toBe(200)
    expect(revoked.json.revokedAt).not.toBeNull()
    const refused = await call(server, 'GET', '/me', { token: value })
    expect(refused.status).toBe(401)
    expectEnvelope(refused.json, 'unauthorized')
    expect(
      (await server.owner('GET', '/tokens')).json.data.find((t: any) => t.id === token.id).revokedAt,
    ).toBe(revoked.json.revokedAt)
  })

  it('a write token can write', async () => {
    const { value } = (await server.owner('POST', '/tokens', { scope: 'write' })).json
    const estimate = await call(server, 'POST', '/checks/estimate', {
      token: value,
      body: { text: 'Rome is old.', tiers: ['t1'] },
    })
    expect(estimate.status).toBe(200)
  })

  it("refuses to revoke the session's own token, and tokens of other organizations are not found", async () => {
    const session = (await server.owner('GET', '/me')).json.token
    const own = await server.owner('POST', `/tokens/${session.id}/revoke`)
    expect(own.status).toBe(422)
    expectEnvelope(own.json, 'unprocessable')
    expect((await server.owner('GET', '/me')).status).toBe(200)

    const other = await server.engine.admin.createOrganization('Elsewhere', 0)
    const foreign = await server.engine.admin.createToken('read', other.id, null)
    const res = await server.owner('POST', `/tokens/${foreign.token.id}/revoke`)
    expect(res.status).toBe(404)
    expectEnvelope(res.json, 'not_found')
    expect((await server.owner('GET', '/tokens')).json.data.map((t: any) => t.id)).not.toContain(
      foreign.token.id,
    )
  })

  it('a bad scope is a 400 with the field', async () => {
    const res = await server.owner('POST', '/tokens', { scope: 'admin' })
    expect(res.status).toBe(400)
    expect(expectEnvelope(res.json, 'bad_request').details).toEqual([
      expect.objectContaining({ field: 'scope' }),
    ])
  })
})

describe('webhook secret', () => {
  it('the session shows and rotates it; the old one stays valid for 24 hours', async () => {
    const before = await server.owner('GET', '/webhook-secret')
    expect(before.json.secret).toMatch(/^whsec_/)
    const rotated = await server.owner('POST', '/webhook-secret/rotate')
    expect(rotated.status).toBe(200)
    expect(rotated.json.secret).not.toBe(before.json.secret)
    const hours =
      (Date.parse(rotated.json.previousExpiresAt) - Date.parse(rotated.json.createdAt)) / 3_600_000
    expect(hours).toBe(24)
    const after = await server.owner('GET', '/webhook-secret')
    expect(after.json.secret).toBe(rotated.json.secret)
    expect(after.json.previous).toEqual([{ expiresAt: rotated.json.previousExpiresAt }])
  })
})

describe('credits', () => {
  it('the session adds credits to the organization', async () => {
    const before = (await server.owner('GET', '/credits')).json.balance
    const granted = await server.owner('POST', '/credits/grants', { amount: 250 })
    expect(granted.status).toBe(201)
    expect(granted.json.balance).toBe(before + 250)
    expect((await call(server, 'GET', '/credits')).json.balance).toBe(before + 250)
    for (const amount of [0, -5, 1.5, 'many']) {
      const bad = await server.owner('POST', '/credits/grants', { amount })
      expect(bad.status).toBe(400)
      expectEnvelope(bad.json, 'bad_request')
    }
  })
})

describe('local REST server', () => {
  it('is off by default, starts on 127.0.0.1 with the port chosen, answers bearer tokens only, and stops', async () => {
    await server.engine.settings.switches.attachLocalServer(localServerSwitch(server.engine))
    const off = (await server.owner('GET', '/settings')).json.localServer
    expect(off).toMatchObject({ available: true, enabled: false, address: null, error: null })

    const port = await closedPort()
    const on = await server.owner('PATCH', '/settings', { localServer: { enabled: true, port } })
    expect(on.json.localServer).toMatchObject({ enabled: true, port, error: null })
    expect(on.json.localServer.address).toBe(`http://127.0.0.1:${port}/api/v1`)
    const me = await fetch(`${on.json.localServer.address}/me`, {
      headers: { Authorization: `Bearer ${server.read}` },
    })
    expect(me.status).toBe(200)
    // No browser session here: settings stay out of reach of whatever reaches the port.
    const settings = await fetch(`${on.json.localServer.address}/settings`, {
      headers: { Authorization: `Bearer ${server.write}` },
    })
    expect(settings.status).toBe(403)

    const stopped = await server.owner('PATCH', '/settings', { localServer: { enabled: false } })
    expect(stopped.json.localServer).toMatchObject({ enabled: false, port, address: null })
    await expect(fetch(`http://127.0.0.1:${port}/api/v1/me`)).rejects.toThrow()
  })

  it('says in words when the port is taken', async () => {
    const taken = await listen(() => new Hono(), '127.0.0.1', 0, [])
    const port = Number(new URL(taken.origin).port)
    try {
      const res = await server.owner('PATCH', '/settings', { localServer: { enabled: true, port } })
      expect(res.json.localServer).toMatchObject({ enabled: true, address: null })
      expect(res.json.localServer.error).toBe(
        `Port ${port} is in use by another program; choose another port.`,
      )
    } finally {
      await server.owner('PATCH', '/settings', { localServer: { enabled: false } })
      await taken.close()
    }
  })
})

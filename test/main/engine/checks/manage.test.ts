import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CheckList } from '../../../../src/shared/schemas'
import { GatedTier } from '../../../helpers/tiers'
import { call, expectEnvelope, startServer, type TestServer } from '../../../helpers/server'

const TEXT = 'The Eiffel Tower is 330 metres tall.'
let server: TestServer
beforeAll(async () => {
  server = await startServer({ tiers: new Map([['t1', new GatedTier(true)]]) })
})
afterAll(() => server.close())

describe('PATCH /checks/{id}', () => {
  it('edits name, author and sourceUrl; null clears; other members are refused', async () => {
    const check = (
      await call(server, 'POST', '/checks', { body: { text: TEXT, tiers: ['t1'], name: 'Draft' } })
    ).json
    const res = await call(server, 'PATCH', `/checks/${check.id}`, {
      body: { name: 'Final', author: 'A. Writer', sourceUrl: 'https://example.com/story' },
    })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      id: check.id,
      name: 'Final',
      author: 'A. Writer',
      sourceUrl: 'https://example.com/story',
    })
    expect(
      (await call(server, 'PATCH', `/checks/${check.id}`, { body: { author: null } })).json,
    ).toMatchObject({ name: 'Final', author: null })
    expect((await call(server, 'GET', `/checks/${check.id}`)).json.author).toBeNull()

    const unknown = await call(server, 'PATCH', `/checks/${check.id}`, { body: { status: 'completed' } })
    expect(unknown.status).toBe(400)
    expectEnvelope(unknown.json, 'bad_request')
    expect((await call(server, 'PATCH', `/checks/${check.id}`, { body: { name: 3 } })).status).toBe(400)
    const badUrl = await call(server, 'PATCH', `/checks/${check.id}`, {
      body: { sourceUrl: 'javascript:alert(1)' },
    })
    expect(badUrl.status).toBe(422)
    expectEnvelope(badUrl.json, 'unprocessable')
    expect(
      (await call(server, 'PATCH', `/checks/${check.id}`, { token: server.read, body: { name: 'x' } }))
        .status,
    ).toBe(403)
    expect((await call(server, 'PATCH', '/checks/chk_nope', { body: { name: 'x' } })).status).toBe(404)
  })
})

describe('GET /checks', () => {
  it('lists newest first, a page at a time, with an opaque cursor', async () => {
    const org = await server.engine.admin.createOrganization('Lister', 100)
    const token = (await server.engine.admin.createToken('write', org.id, null)).value
    const ids: string[] = []
    for (let i = 0; i < 5; i++)
      ids.push(
        (await call(server, 'POST', '/checks', { token, body: { text: TEXT, tiers: ['t1'] } })).json.id,
      )
    const first = CheckList.parse(
      (
        await call(server, 'GET', '/checks?limit=2', {
          token: (await server.engine.admin.createToken('read', org.id, null)).value,
        })
      ).json,
    )
    expect(first.data.map((c) => c.id)).toEqual([ids[4], ids[3]])
    const second = CheckList.parse(
      (await call(server, 'GET', `/checks?limit=2&cursor=${first.nextCursor}`, { token })).json,
    )
    expect(second.data.map((c) => c.id)).toEqual([ids[2], ids[1]])
    const last = CheckList.parse(
      (await call(server, 'GET', `/checks?limit=2&cursor=${second.nextCursor}`, { token })).json,
    )
    expect(last).toEqual({ data: [expect.objectContaining({ id: ids[0] })], nextCursor: null })
    expect((await call(server, 'GET', '/checks', { token })).json.data).toHaveLength(5)
  })

  it('refuses a bad limit or cursor', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=%24%24%24']) {
      const res = await call(server, 'GET', `/checks?${query}`)
      expect(res.status, query).toBe(400)
      expectEnvelope(res.json, 'bad_request')
    }
  })
})

import { Agent, request, type IncomingHttpHeaders } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { hasEnded } from '../../../src/shared/vocabulary'
import { ReportEvents } from '../../../src/main/engine/base/events'
import { ReportCache } from '../../../src/main/engine/checks/reports'
import { startFakeOpenAI, type FakeOpenAI } from '../../helpers/fakeOpenAI'
import { call, startServer, waitForEnd, type TestServer } from '../../helpers/server'
import { GatedTier } from '../../helpers/tiers'
import { t2Config } from '../engine/tiers/t2/setup'
import {
  advance,
  endAndDeliver,
  startReceiver,
  startWebhookServer,
  submitWithCallback,
  type Receiver,
} from '../engine/webhooks/helpers'

let server: TestServer | null = null
let fake: FakeOpenAI | null = null
let receiver: Receiver | null = null
afterEach(async () => {
  await server?.close()
  await fake?.close()
  await receiver?.close()
  server = null
  fake = null
  receiver = null
})

const TEXT = 'Crate 1 weighs 12 kilograms. Crate 2 weighs 31 kilograms. The depot opened in 1998.'

/// The report as the engine builds it from scratch (the builder the cache replaced), serialized as the API did.
const freshReport = async (s: TestServer, checkId: string): Promise<string> =>
  JSON.stringify(await s.engine.service.report(await s.engine.localPrincipal(), checkId))

/// `GET /checks/{id}/report` with `headers` (or HEAD, over `agent`'s connections), its body as the bytes sent
/// (never decoded), and whether its connection had carried an answer before.
function rawReport(
  s: TestServer,
  checkId: string,
  headers: Record<string, string> = {},
  { method = 'GET', agent }: { method?: 'GET' | 'HEAD'; agent?: Agent } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const sending = request(
      `${s.api}/checks/${checkId}/report`,
      { method, agent, headers: { ...headers, Authorization: `Bearer ${s.read}` } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
            reused: sending.reusedSocket,
          }),
        )
        response.on('error', reject)
      },
    )
    sending.on('error', reject)
    sending.end()
  })
}

async function completedT1Check(s: TestServer, body: Record<string, unknown> = {}): Promise<string> {
  const submitted = await call(s, 'POST', '/checks', { body: { text: TEXT, tiers: ['t1'], ...body } })
  expect(submitted.status).toBe(202)
  await waitForEnd(s, submitted.json.id)
  return submitted.json.id
}

describe('GET /checks/{id}/report, served from the report cache', () => {
  it('answers a strong ETag, 304 for If-None-Match, and a new ETag and body after each PATCH', async () => {
    server = await startServer({ tiers: new Map([['t1', new GatedTier(true)]]) })
    const id = await completedT1Check(server, {
      name: 'Draft',
      author: 'Dana',
      sourceUrl: 'https://a.example/',
    })

    const first = await rawReport(server, id)
    expect(first.status).toBe(200)
    expect(first.headers['content-type']).toMatch(/^application\/json/)
    expect(first.headers.vary).toMatch(/Accept-Encoding/i)
    const etag = first.headers.etag as string
    expect(etag).toMatch(/^"[^"]+"$/)
    expect(first.body.toString()).toBe(await freshReport(server, id))
    expect((await rawReport(server, id)).headers.etag).toBe(etag)

    const unchanged = await rawReport(server, id, { 'If-None-Match': etag })
    expect(unchanged.status).toBe(304)
    expect(unchanged.body.length).toBe(0)
    expect(unchanged.headers.etag).toBe(etag)

    let previous = etag
    for (const edit of [{ name: 'Final' }, { author: 'Robin' }, { sourceUrl: 'https://b.example/' }]) {
      expect((await call(server, 'PATCH', `/checks/${id}`, { body: edit })).status).toBe(200)
      const after = await rawReport(server, id, { 'If-None-Match': previous })
      expect(after.status).toBe(200)
      expect(after.headers.etag).not.toBe(previous)
      const report = JSON.parse(after.body.toString())
      expect(report.check).toMatchObject(edit)
      expect(after.body.toString()).toBe(await freshReport(server, id))
      previous = after.headers.etag as string
    }
  })

  it('sends gzip and brotli when asked, each decoding to the same JSON, with a tag of its own', async () => {
    server = await startServer({ tiers: new Map([['t1', new GatedTier(true)]]) })
    const id = await completedT1Check(server)
    const plain = await rawReport(server, id)
    const gzip = await rawReport(server, id, { 'Accept-Encoding': 'gzip' })
    const br = await rawReport(server, id, { 'Accept-Encoding': 'gzip;q=0.5, br' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(br.headers['content-encoding']).toBe('br')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(gunzipSync(gzip.body).toString()).toBe(plain.body.toString())
    expect(brotliDecompressSync(br.body).toString()).toBe(plain.body.toString())
    expect(new Set([plain.headers.etag, gzip.headers.etag, br.headers.etag]).size).toBe(3)
    const again = await rawReport(server, id, {
      'Accept-Encoding': 'gzip',
      'If-None-Match': gzip.headers.etag as string,
    })
    expect(again.status).toBe(304)
    // Another organization's check is as good as absent.
    const other = await server.engine.admin.createOrganization('Other', 0)
    const stranger = (await server.engine.admin.createToken('read', other.id, 'stranger')).value
    expect((await call(server, 'GET', `/checks/${id}/report`, { token: stranger })).status).toBe(404)
  })

  it('writes the kept bytes with their length, over one kept-alive connection: plain, compressed, HEAD and 304', async () => {
    server = await startServer({ tiers: new Map([['t1', new GatedTier(true)]]) })
    const s = server
    const id = await completedT1Check(s)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const exchange = (method: 'GET' | 'HEAD', headers: Record<string, string> = {}) =>
      rawReport(s, id, headers, { method, agent })
    try {
      const plain = await exchange('GET')
      expect(plain.status).toBe(200)
      expect(plain.body.toString()).toBe(await freshReport(s, id))
      expect(plain.headers).toMatchObject({
        'content-type': 'application/json',
        'content-length': String(plain.body.length),
        'cache-control': 'private, no-cache',
        vary: 'Accept-Encoding',
      })
      expect(plain.headers['transfer-encoding']).toBeUndefined()
      const gzip = await exchange('GET', { 'Accept-Encoding': 'gzip' })
      expect(gzip.headers['content-length']).toBe(String(gzip.body.length))
      expect(gunzipSync(gzip.body).toString()).toBe(plain.body.toString())
      const head = await exchange('HEAD')
      expect(head.status).toBe(200)
      expect(head.body.length).toBe(0)
      expect(head.headers.etag).toBe(plain.headers.etag)
      expect(head.headers['content-length']).toBe(plain.headers['content-length'])
      const unchanged = await exchange('GET', { 'If-None-Match': plain.headers.etag as string })
      expect(unchanged.status).toBe(304)
      expect(unchanged.body.length).toBe(0)
      expect(unchanged.headers.etag).toBe(plain.headers.etag)
      const again = await exchange('GET')
      expect(again.body.equals(plain.body)).toBe(true)
      // Each answer ended where its length said: the connection carried every one of them.
      expect([gzip, head, unchanged, again].every((answer) => answer.reused)).toBe(true)
    } finally {
      agent.destroy()
    }
  })

  it('sends a long text exactly: escaped a slice at a time, no surrogate pair cut in two', async () => {
    server = await startServer({ tiers: new Map([['t1', new GatedTier(true)]]) })
    // After an odd number of characters, every even offset (where a slice of the text's escaping may end) falls
    // inside a pair; the quotes, backslash, tab and newline are escaped in JSON.
    const opening = 'Crate 1 weighs 12 kilograms. "Quoted", back\\slash,\ttab.\n'
    const text = `${opening.length % 2 === 0 ? ' ' : ''}${opening}${'😀'.repeat(60_000)} The depot opened in 1998.`
    const id = await completedT1Check(server, { text })
    const report = await rawReport(server, id)
    expect(report.body.toString()).toBe(await freshReport(server, id))
    expect(JSON.parse(report.body.toString()).text).toBe(text)
  })

  it('follows a terminal check’s webhook delivery: each attempt recorded gives a new ETag and body', async () => {
    receiver = await startReceiver()
    receiver.replies = [{ status: 500 }]
    const s = await startWebhookServer()
    server = s
    const submitted = await submitWithCallback(s, `${receiver.origin}/hook`)
    await endAndDeliver(s, submitted.id)
    const failed = await rawReport(s, submitted.id)
    expect(JSON.parse(failed.body.toString()).check.webhook).toMatchObject({ status: 'pending', attempts: 1 })
    await advance(s, submitted.id, 10_000)
    const delivered = await rawReport(s, submitted.id, { 'If-None-Match': failed.headers.etag as string })
    expect(delivered.status).toBe(200)
    expect(delivered.headers.etag).not.toBe(failed.headers.etag)
    expect(JSON.parse(delivered.body.toString()).check.webhook).toMatchObject({
      status: 'delivered',
      attempts: 2,
    })
    expect(delivered.body.toString()).toBe(await freshReport(s, submitted.id))
  })

  it('keeps a running t2 check’s report equal to a fresh build after every vote, consensus and resolution', async () => {
    fake = await startFakeOpenAI()
    // Every model request waits for the test: the engine stops at each one, so the report can be compared in a
    // state that holds still.
    const held: (() => void)[] = []
    fake.behave('*', {
      hold: () => new Promise<void>((release) => held.push(release)),
      resolve: ({ claim }) => ({ statement: `${claim} (resolved)`, parts: null }),
    })
    server = await startServer({
      config: t2Config(fake, ['a', 'b']),
      runner: { concurrency: 1, retryDelayMs: () => 10 },
    })
    const s = server
    const submitted = await call(s, 'POST', '/checks', { body: { text: TEXT, tiers: ['t2'] } })
    expect(submitted.status).toBe(202)
    const id = submitted.json.id as string
    let landings = 0
    const stop = s.engine.events.subscribe((event) => {
      if (event.type === 'claim' && event.checkId === id) landings++
    })
    const ended = async () => hasEnded(await s.engine.service.getCheck(await s.engine.localPrincipal(), id))
    let midway = 0
    const compare = async () => {
      const served = await rawReport(s, id)
      expect(served.body.toString()).toBe(await freshReport(s, id))
      const report = JSON.parse(served.body.toString())
      if (report.check.status === 'running' && report.claims.some((c: any) => c.evaluations.length > 0))
        midway++
    }
    await compare()
    while (!(await ended())) {
      await expect.poll(() => held.length > 0 || ended(), { timeout: 10_000 }).toBe(true)
      if (await ended()) break
      held.shift()?.()
      // Wait until the engine holds still again: at its next request, or ended.
      const before = fake.requests.length
      await expect.poll(() => fake!.requests.length > before || ended(), { timeout: 10_000 }).toBe(true)
      await compare()
    }
    stop()
    await compare()
    // Three claims, two votes and a judge each; compared with votes in and the check still running.
    expect(landings).toBeGreaterThanOrEqual(9)
    expect(midway).toBeGreaterThanOrEqual(3)
    expect(JSON.parse(await freshReport(s, id)).claims[0].statement).toMatch(/\(resolved\)$/)
  })

  it('shows every claim as it ended once it shows the check ended, though the claims’ events are not heard yet', async () => {
    // Another replica of a team server, or a version serialized while the last consensus lands: the check's end
    // is heard before the events of its claims. A poller that stops once the check ended must get them all.
    const gate = new GatedTier(false)
    server = await startServer({ tiers: new Map([['t1', gate]]) })
    const s = server
    const submitted = await call(s, 'POST', '/checks', { body: { text: TEXT, tiers: ['t1'] } })
    const id = submitted.json.id as string
    await expect.poll(() => gate.started.length).toBe(3)
    const principal = await s.engine.localPrincipal()
    const store = await s.openStore()
    // This cache hears only what the test tells it.
    const heard = new ReportEvents()
    const cache = new ReportCache(store, heard)
    try {
      const running = JSON.parse((await cache.report(principal, id)).json.toString())
      expect(running.claims.map((claim: any) => claim.consensus.t1 ?? null)).toEqual([null, null, null])
      gate.releaseAll()
      const check = await waitForEnd(s, id)
      heard.emit({ type: 'check', check, organizationId: principal.organizationId })
      const ended = (await cache.report(principal, id)).json.toString()
      expect(JSON.parse(ended).check.status).toBe('completed')
      expect(ended).toBe(await freshReport(s, id))
    } finally {
      cache.close()
      await store.close()
    }
  })

  it('holds no more than its byte bound, and builds a report it let go of again', async () => {
    server = await startServer({ tiers: new Map([['t1', new GatedTier(true)]]) })
    const ids = [
      await completedT1Check(server),
      await completedT1Check(server),
      await completedT1Check(server),
    ]
    const principal = await server.engine.localPrincipal()
    // Second connections to the same store: what one report takes, then room for two and a half.
    const store = await server.openStore()
    const measure = new ReportCache(store, server.engine.events)
    await measure.report(principal, ids[0] as string)
    const oneReport = measure.size
    measure.close()
    const cache = new ReportCache(store, server.engine.events, 2.5 * oneReport)
    try {
      for (const id of ids) {
        const bytes = await cache.report(principal, id)
        expect(bytes.json.toString()).toBe(await freshReport(server, id))
        expect(cache.size).toBeLessThanOrEqual(2.5 * oneReport)
      }
      expect(cache.count).toBe(2)
      const again = await cache.report(principal, ids[0] as string)
      expect(again.json.toString()).toBe(await freshReport(server, ids[0] as string))
      expect(cache.size).toBeLessThanOrEqual(2.5 * oneReport)
    } finally {
      cache.close()
      await store.close()
    }
  })
})

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ReportUpdate } from '../../../../../src/shared/api'
import type { ConfigInput } from '../../../../../src/shared/config'
import { PendingCheck } from '../../../../../src/shared/schemas'
import { ManualClock } from '../../../../../src/main/engine/base/clock'
import { startFakeOpenAI, type FakeOpenAI } from '../../../../helpers/fakeOpenAI'
import {
  call,
  expectEnvelope,
  startServer,
  tempDir,
  waitForEnd,
  type TestServer,
} from '../../../../helpers/server'
import { Relay } from './relay'

const TEXT = 'The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World Fair in Paris.'

let fake: FakeOpenAI
let models: Relay
let search: Relay
const servers: TestServer[] = []

/// t2 and t3 on models behind `models` (at `modelsURL`) and a search provider behind `search`, both closed until
/// opened.
const offlineConfig = (modelsURL = models.url('/v1')): ConfigInput => {
  const model = (id: string) => ({
    id,
    provider: 'openai-compatible' as const,
    baseURL: modelsURL,
    model: `model-${id}`,
  })
  return {
    models: {
      panel: [model('a')],
      judge: model('judge'),
      requestTimeoutMs: 2000,
      retryDelayMs: 20,
      maxRetries: 1,
    },
    search: { provider: 'wikipedia', baseURL: search.url('/w/api.php') },
    web: { allowLocalTargets: true },
  }
}

async function start(options: { dataDir?: string; clock?: ManualClock } = {}): Promise<TestServer> {
  const server = await startServer({
    config: offlineConfig(),
    runner: { retryDelayMs: () => 10 },
    ...options,
  })
  servers.push(server)
  return server
}

async function stop(server: TestServer): Promise<void> {
  servers.splice(servers.indexOf(server), 1)
  await server.close()
}

const balance = async (server: TestServer): Promise<number> =>
  (await call(server, 'GET', '/credits')).json.balance
const checks = async (server: TestServer): Promise<any[]> => (await call(server, 'GET', '/checks')).json.data

async function queue(
  server: TestServer,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<PendingCheck> {
  const res = await call(server, 'POST', '/pending-checks', { body, headers })
  expect(res.status).toBe(202)
  return PendingCheck.parse(res.json)
}

const pending = async (server: TestServer, id: string): Promise<PendingCheck> =>
  PendingCheck.parse((await call(server, 'GET', `/pending-checks/${id}`)).json)

beforeEach(async () => {
  fake = await startFakeOpenAI({ '*': { overrides: { verdict: 'supported', confidence: 0.9 } } })
  models = await Relay.reserve()
  search = await Relay.reserve()
})

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
  await models.close()
  await search.close()
  await fake.close()
})

describe('with no network', () => {
  it('estimates and runs a t1 check, and refuses t2 and t3 with 503 providers_unreachable, charging nothing', async () => {
    const server = await start()
    const estimate = await call(server, 'POST', '/checks/estimate', {
      body: { text: TEXT, tiers: ['t1', 't2', 't3'] },
    })
    expect(estimate.status).toBe(200)
    expect(estimate.json.claimCount).toBeGreaterThan(0)

    const t1 = await call(server, 'POST', '/checks', { body: { text: TEXT, tiers: ['t1'] } })
    expect(t1.status).toBe(202)
    expect((await waitForEnd(server, t1.json.id)).status).toBe('completed')
    const report = await call(server, 'GET', `/checks/${t1.json.id}/report`)
    expect(report.json.claims.length).toBe(estimate.json.claimCount)
    const afterT1 = await balance(server)
    expect(afterT1).toBe(1000 - t1.json.credits.charged)

    const t2 = await call(server, 'POST', '/checks', { body: { text: TEXT, tiers: ['t2'] } })
    expect(t2.status).toBe(503)
    const error = expectEnvelope(t2.json, 'providers_unreachable')
    expect(error.message).toContain(`model "a", model "judge" at http://127.0.0.1:${models.port}`)
    expect(error.message).toContain('ECONNREFUSED')
    expect(error.message).toContain('Nothing was charged')

    // t3 needs the search provider too; the models answer now, the search does not.
    await models.open(fake.baseURL)
    const t3 = await call(server, 'POST', '/checks', { body: { text: TEXT, tiers: ['t3'] } })
    expect(t3.status).toBe(503)
    const t3Error = expectEnvelope(t3.json, 'providers_unreachable')
    expect(t3Error.message).toContain('search (wikipedia)')
    expect(t3Error.message).not.toContain('model "a"')

    expect(await balance(server)).toBe(afterT1)
    expect((await checks(server)).map((check) => check.id)).toEqual([t1.json.id])
    expect(fake.requests).toEqual([])
  })

  it('names a model endpoint as configured in the 503, never the address its host name resolved to', async () => {
    // Nothing listens at 127.0.0.8 on that port; Node's error would say "connect ECONNREFUSED 127.0.0.8:…".
    const config = offlineConfig(`http://models.example.test:${models.port}/v1`)
    const resolveHost = async (host: string): Promise<string[]> =>
      host === 'models.example.test' ? ['127.0.0.8'] : []
    const server = await startServer({ config, reachability: { resolveHost } })
    servers.push(server)
    const res = await call(server, 'POST', '/checks', { body: { text: TEXT, tiers: ['t2'] } })
    expect(res.status).toBe(503)
    const message = expectEnvelope(res.json, 'providers_unreachable').message
    expect(message).toContain(`at http://models.example.test:${models.port}: connect ECONNREFUSED`)
    expect(JSON.stringify(res.json)).not.toContain('127.0.0.8')
  })

  it('a search provider at a non-public address can never work: 422, not 503, and a queued check fails', async () => {
    await models.open(fake.baseURL)
    const config = offlineConfig()
    const server = await startServer({
      config: {
        ...config,
        search: { provider: 'searxng', baseURL: `http://search.example.test:${search.port}/` },
        web: { allowLocalTargets: false },
      },
      reachability: { resolveHost: async () => ['10.0.0.7'] },
    })
    servers.push(server)
    const t3 = await call(server, 'POST', '/checks', { body: { text: TEXT, tiers: ['t3'] } })
    expect(t3.status).toBe(422)
    const message = expectEnvelope(t3.json, 'unprocessable').message
    expect(message).toContain('search (searxng)')
    expect(message).toContain('resolves to a non-public address')
    expect(message).not.toContain('10.0.0.7')
    expect(await balance(server)).toBe(1000)

    const queued = await queue(server, { text: TEXT, tiers: ['t3'] })
    await server.engine.pending.runDue()
    expect(await pending(server, queued.id)).toMatchObject({
      status: 'failed',
      error: { code: 'unprocessable', message: expect.stringContaining('non-public address') },
    })
    expect(await checks(server)).toEqual([])
  })

  it('refuses deep research with 503 while its models or search cannot be reached, charging nothing', async () => {
    const server = await start()
    const offline = await call(server, 'POST', '/research', {
      body: { text: 'Ottawa is the capital of Canada.' },
    })
    expect(offline.status).toBe(503)
    const message = expectEnvelope(offline.json, 'providers_unreachable').message
    expect(message).toContain('model "a"')
    // Research cannot be queued: its refusal says so by offering nothing but a later try.
    expect(message).toMatch(
      /^The providers deep research needs cannot be reached \(.*\)\. Nothing was charged; try again when you are online\.$/,
    )
    await models.open(fake.baseURL)
    const noSearch = await call(server, 'POST', '/research', {
      body: { text: 'Ottawa is the capital of Canada.' },
    })
    expect(expectEnvelope(noSearch.json, 'providers_unreachable').message).toContain('search (wikipedia)')
    expect(await balance(server)).toBe(1000)
    expect(fake.requests).toEqual([])
  })

  it('leaves an Idempotency-Key unused when refused, so the same request succeeds once online', async () => {
    const server = await start()
    const body = { text: TEXT, tiers: ['t2'] }
    const headers = { 'Idempotency-Key': 'offline-then-online' }
    expect((await call(server, 'POST', '/checks', { body, headers })).status).toBe(503)
    await models.open(fake.baseURL)
    const first = await call(server, 'POST', '/checks', { body, headers })
    expect(first.status).toBe(202)
    // A replay is answered from the store, even when the providers are gone again.
    await models.close()
    const again = await call(server, 'POST', '/checks', { body, headers })
    expect(again.status).toBe(202)
    expect(again.headers.get('Idempotent-Replayed')).toBe('true')
    expect(again.json.id).toBe(first.json.id)
    expect(await balance(server)).toBe(1000 - first.json.credits.charged)
  })
})

describe('check when online', () => {
  it('keeps a queued check across a restart and submits it once the providers answer', async () => {
    const clock = new ManualClock(new Date())
    const dataDir = tempDir()
    const first = await start({ dataDir, clock })
    const queued = await queue(first, { text: TEXT, tiers: ['t2'], name: 'Tower piece' })
    expect(queued).toMatchObject({ status: 'waiting', label: 'Tower piece', tiers: ['t2'], checkId: null })
    await first.engine.pending.runDue()
    const tried = await pending(first, queued.id)
    expect(tried.status).toBe('waiting')
    expect(tried.attempts).toBeGreaterThanOrEqual(1)
    expect(tried.lastError).toContain('ECONNREFUSED')
    expect(Date.parse(tried.nextAttemptAt ?? '')).toBeGreaterThan(clock.now().getTime())
    await stop(first)

    const second = await start({ dataDir, clock })
    const waiting = (await call(second, 'GET', '/pending-checks?status=waiting')).json.data
    expect(waiting.map((each: PendingCheck) => each.id)).toEqual([queued.id])
    const updates: ReportUpdate[] = []
    second.engine.events.subscribe((event) => updates.push(event))

    await models.open(fake.baseURL)
    clock.advance(10 * 60_000)
    await second.engine.pending.runDue()
    const submitted = await pending(second, queued.id)
    expect(submitted.status).toBe('submitted')
    expect(submitted.checkId).toMatch(/^chk_/)
    const started = updates.find(
      (update) => update.type === 'pending' && update.pending.status === 'submitted',
    )
    expect(started).toMatchObject({ type: 'pending', check: { id: submitted.checkId, name: 'Tower piece' } })

    const check = await waitForEnd(second, submitted.checkId ?? '')
    expect(check.status).toBe('completed')
    expect(await checks(second)).toHaveLength(1)
    expect(await balance(second)).toBe(1000 - check.credits.charged)
    expect((await call(second, 'GET', '/pending-checks?status=waiting')).json.data).toEqual([])
  })

  it('makes one check and one charge when the engine dies between submitting and recording it', async () => {
    const clock = new ManualClock(new Date())
    const dataDir = tempDir()
    const first = await start({ dataDir, clock })
    const queued = await queue(first, { text: TEXT, tiers: ['t2'] })
    await first.engine.pending.runDue()
    await models.open(fake.baseURL)
    // The worker's submission, made as the worker makes it (the queueing token, the queued key), and then the
    // engine stops before the pending check is marked.
    const principal = await first.engine.service.authenticate(first.write)
    const request = { text: TEXT, tiers: ['t2' as const] }
    const { check } = await first.engine.service.submit(principal, request, queued.idempotencyKey)
    await stop(first)

    const second = await start({ dataDir, clock })
    clock.advance(10 * 60_000)
    await second.engine.pending.runDue()
    const submitted = await pending(second, queued.id)
    expect(submitted).toMatchObject({ status: 'submitted', checkId: check.id })
    await waitForEnd(second, check.id)
    expect((await checks(second)).map((each) => each.id)).toEqual([check.id])
    expect(await balance(second)).toBe(1000 - check.credits.charged)
  })

  it('cancels a waiting check, which then never runs; a started one is the check’s to cancel', async () => {
    const clock = new ManualClock(new Date())
    const server = await start({ clock })
    const cancelled = await queue(server, { text: TEXT, tiers: ['t2'] })
    const kept = await queue(server, { text: TEXT, tiers: ['t2'], name: 'kept' })
    const res = await call(server, 'POST', `/pending-checks/${cancelled.id}/cancel`)
    expect(res.status).toBe(200)
    expect(res.json.status).toBe('cancelled')
    expect((await call(server, 'POST', `/pending-checks/${cancelled.id}/cancel`)).json.status).toBe(
      'cancelled',
    )

    await server.engine.pending.runDue() // after the tries made when they were queued, offline
    await models.open(fake.baseURL)
    clock.advance(10 * 60_000)
    await server.engine.pending.runDue()
    expect((await pending(server, cancelled.id)).checkId).toBeNull()
    const started = await pending(server, kept.id)
    expect(started.status).toBe('submitted')
    expect((await checks(server)).map((check) => check.id)).toEqual([started.checkId])
    const late = await call(server, 'POST', `/pending-checks/${kept.id}/cancel`)
    expect(late.status).toBe(422)
    expect(expectEnvelope(late.json, 'unprocessable').message).toContain(started.checkId ?? '')
  })

  it('lists a manuscript queued in parts once, and cancels all its parts at once', async () => {
    const clock = new ManualClock(new Date())
    const server = await start({ clock })
    const single = await queue(server, { text: TEXT, tiers: ['t2'], name: 'single' })
    // Queued later, the manuscript lists first (newest first; ids made in the same millisecond have no order).
    clock.advance(1000)
    const id = 'mns_waiting-book'
    const parts = [
      '# One\n\nParis is in France. ',
      '# Two\n\nRome is in Italy. ',
      '# Three\n\nOslo is in Norway.',
    ]
    const queued: PendingCheck[] = []
    for (const [index, text] of parts.entries()) {
      const manuscript = { id, part: index + 1, parts: parts.length }
      queued.push(await queue(server, { text, tiers: ['t2'], name: 'Book', manuscript }))
    }
    // Each part queued answers for the manuscript so far.
    expect(queued.map((each) => each.id)).toEqual([id, id, id])

    const listed = (await call(server, 'GET', '/pending-checks?status=waiting')).json.data as PendingCheck[]
    expect(listed.map((each) => PendingCheck.parse(each))).toHaveLength(2)
    expect(listed.map((each) => [each.id, each.label, each.manuscript])).toEqual([
      [id, 'Book', { id, parts: 3 }],
      [single.id, 'single', undefined],
    ])
    expect(listed[0]).toMatchObject({ status: 'waiting', checkId: null, documentId: id })
    // Read alone it is what the list shows, but for its attempts: on a team server the worker looks in real time
    // (every few seconds, whatever the test's clock) and may try it between the two reads.
    const apartFromTries = (check: PendingCheck) => ({
      ...check,
      ...{ attempts: 0, nextAttemptAt: null, lastError: null, updatedAt: '' },
    })
    expect(apartFromTries(await pending(server, id))).toEqual(apartFromTries(listed[0] as PendingCheck))

    const res = await call(server, 'POST', `/pending-checks/${id}/cancel`)
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ id, status: 'cancelled', manuscript: { id, parts: 3 } })
    expect((await call(server, 'GET', '/pending-checks?status=waiting')).json.data).toHaveLength(1)
    expect(
      (await call(server, 'GET', '/pending-checks')).json.data.map((each: PendingCheck) => each.id),
    ).toEqual([id, single.id])

    // No part runs once the providers answer; the single check does.
    await models.open(fake.baseURL)
    clock.advance(10 * 60_000)
    await server.engine.pending.runDue()
    expect((await pending(server, id)).status).toBe('cancelled')
    const started = await pending(server, single.id)
    expect((await checks(server)).map((check) => check.id)).toEqual([started.checkId])
  })

  it('ends a queued check as failed, with the reason, when its submission is refused for good', async () => {
    const clock = new ManualClock(new Date())
    const server = await start({ clock })
    // Enough for one claim, so it is queued, but not for the text's two.
    const org = await server.engine.admin.createOrganization('Small desk', 4)
    const token = (await server.engine.admin.createToken('write', org.id, 'small')).value
    const res = await call(server, 'POST', '/pending-checks', { token, body: { text: TEXT, tiers: ['t2'] } })
    expect(res.status).toBe(202)
    await server.engine.pending.runDue() // after the try made when it was queued, offline
    await models.open(fake.baseURL)
    clock.advance(10 * 60_000)
    await server.engine.pending.runDue()
    const failed = (await call(server, 'GET', `/pending-checks/${res.json.id}`, { token })).json
    expect(failed).toMatchObject({ status: 'failed', checkId: null, error: { code: 'insufficient_credits' } })
    expect((await call(server, 'GET', '/checks', { token })).json.data).toEqual([])
    expect((await call(server, 'GET', '/credits', { token })).json.balance).toBe(4)
  })

  it('refuses at once what waiting would not fix, and answers a repeated key with the first', async () => {
    const server = await start()
    const empty = await call(server, 'POST', '/pending-checks', { body: { text: ' ', tiers: ['t2'] } })
    expect(empty.status).toBe(422)
    expectEnvelope(empty.json, 'unprocessable')
    const body = { text: TEXT, tiers: ['t2'] }
    const headers = { 'Idempotency-Key': 'queue-once' }
    const first = await queue(server, body, headers)
    expect(first.idempotencyKey).toBe('queue-once')
    const again = await call(server, 'POST', '/pending-checks', { body, headers })
    expect(again.headers.get('Idempotent-Replayed')).toBe('true')
    expect(again.json.id).toBe(first.id)
    const other = await call(server, 'POST', '/pending-checks', { body: { ...body, name: 'x' }, headers })
    expect(other.status).toBe(422)
    expect((await call(server, 'GET', '/pending-checks')).json.data).toHaveLength(1)
  })

  it('belongs to its organization, and needs write scope to queue or cancel', async () => {
    const server = await start()
    const queued = await queue(server, { text: TEXT, tiers: ['t2'] })
    const org = await server.engine.admin.createOrganization('Other desk', 100)
    const other = (await server.engine.admin.createToken('write', org.id, 'other')).value
    expect((await call(server, 'GET', '/pending-checks', { token: other })).json.data).toEqual([])
    const hidden = await call(server, 'GET', `/pending-checks/${queued.id}`, { token: other })
    expect(hidden.status).toBe(404)
    expectEnvelope(hidden.json, 'not_found')
    expect((await call(server, 'POST', `/pending-checks/${queued.id}/cancel`, { token: other })).status).toBe(
      404,
    )
    expect((await pending(server, queued.id)).status).toBe('waiting')

    const read = await call(server, 'POST', '/pending-checks', {
      token: server.read,
      body: { text: TEXT, tiers: ['t2'] },
    })
    expect(read.status).toBe(403)
    expect(
      (await call(server, 'POST', `/pending-checks/${queued.id}/cancel`, { token: server.read })).status,
    ).toBe(403)
    expect((await call(server, 'GET', '/pending-checks', { token: server.read })).json.data).toHaveLength(1)
  })
})

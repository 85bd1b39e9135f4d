import pg from 'pg'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ReportEvent } from '../../../src/main/engine/base/events'
import { openEngine, type Engine } from '../../../src/main/engine/engine'
import { Store } from '../../../src/main/engine/store'
import { createApp } from '../../../src/main/server/app'
import { listen } from '../../../src/main/server/listen'
import { Config } from '../../../src/shared/config'
import { API_BASE } from '../../../src/shared/rest'
import { hasEnded } from '../../../src/shared/vocabulary'
import { readStream, type StreamEvent } from '../../helpers/events'
import { postgresForTests } from '../../helpers/postgres'
import { call, tempDir, THREE_CLAIMS, type TestServer } from '../../helpers/server'
import { GatedTier } from '../../helpers/tiers'

// Two replicas of a team server on one PostgreSQL database, each with its data folder and its HTTP server: A
// runs the jobs, B only answers. What either emits, both hear, in one order, under the same ids.

const postgres = postgresForTests()

/// A replica: its engine served on 127.0.0.1, as `call` and `readStream` reach it.
async function replica(database: string, gate: GatedTier, runJobs: boolean): Promise<TestServer> {
  const dataDir = tempDir()
  const engine = await openEngine({
    dataDir,
    database,
    config: Config.parse({}),
    tiers: new Map([['t1', gate]]),
    runJobs,
  })
  const server = await listen(
    (stopping) => createApp(engine, { stopping }),
    '127.0.0.1',
    0,
    engine.config.server.allowedHosts,
  )
  const organizationId = (await engine.admin.defaultOrganization()).id
  return {
    engine,
    dataDir,
    database,
    openStore: () => Store.connect(database),
    origin: server.origin,
    api: server.origin + API_BASE,
    write: (await engine.admin.createToken('write', organizationId, 'test write')).value,
    read: (await engine.admin.createToken('read', organizationId, 'test read')).value,
    organizationId,
    close: async () => {
      await server.close()
      await engine.close()
    },
  }
}

/// The events `engine` hears, with their ids, from now on.
function heard(engine: Engine): { events: { id: string; event: ReportEvent }[]; stop: () => void } {
  const events: { id: string; event: ReportEvent }[] = []
  const stop = engine.events.numbered((event, id) => events.push({ id, event }))
  return { events, stop }
}

const endedIn = (events: { event: ReportEvent }[], checkId: string): boolean =>
  events.some(({ event }) => event.type === 'check' && event.check.id === checkId && hasEnded(event.check))

/// Opens `GET /events` on `server`, going on from `lastId` when given.
const stream = (server: TestServer, signal: AbortSignal, lastId?: string): Promise<Response> =>
  fetch(`${server.api}/events`, {
    headers: { Authorization: `Bearer ${server.read}`, ...(lastId ? { 'Last-Event-ID': lastId } : {}) },
    signal,
  })

const completedIn = (events: StreamEvent[], checkId: string): boolean =>
  events.some((event) => {
    const update = JSON.parse(event.data) as { type: string; check?: { id: string; status: string } }
    return update.type === 'check' && update.check?.id === checkId && update.check.status === 'completed'
  })

describe.skipIf(postgres.skip)('events shared by the replicas of a team server', () => {
  let database: string
  let gate: GatedTier
  let a: TestServer
  let b: TestServer

  beforeEach(async () => {
    database = await postgres.database()
    gate = new GatedTier()
    a = await replica(database, gate, true)
    b = await replica(database, new GatedTier(true), false)
  })

  afterEach(async () => {
    gate.releaseAll()
    await b?.close()
    await a?.close()
  })

  it('a check worked on replica A: a subscriber on B hears every event, in order, under the ids A hears', async () => {
    const onA = heard(a.engine)
    const onB = heard(b.engine)
    const principal = await a.engine.localPrincipal()
    const { check } = await a.engine.service.submit(principal, { text: THREE_CLAIMS, tiers: ['t1'] })
    gate.releaseAll()
    await expect.poll(() => endedIn(onB.events, check.id), { timeout: 15_000 }).toBe(true)
    await expect.poll(() => onA.events.length).toBe(onB.events.length)
    onA.stop()
    onB.stop()
    // Global ids: the events' rows, in order, the same on both replicas.
    const ids = onB.events.map(({ id }) => Number(id))
    expect(onB.events.every(({ id }) => /^\d+$/.test(id))).toBe(true)
    expect(ids).toEqual([...ids].sort((x, y) => x - y))
    expect(new Set(ids).size).toBe(ids.length)
    expect(onB.events).toEqual(onA.events)
    // Every event of the check: accepted, a vote on each claim, its progress, the end.
    const claims = onB.events.filter(({ event }) => event.type === 'claim')
    expect(claims.length).toBe(3)
    expect(onB.events[0]?.event).toMatchObject({ type: 'check', check: { id: check.id } })
    expect(onB.events.at(-1)?.event).toMatchObject({
      type: 'check',
      check: { id: check.id, status: 'completed' },
    })
  })

  it('what B emits reaches A: a check submitted through B is heard on A, under the same id', async () => {
    const onA = heard(a.engine)
    const onB = heard(b.engine)
    const submitted = await call(b, 'POST', '/checks', { body: { text: 'Rome is in Italy.', tiers: ['t1'] } })
    expect(submitted.status).toBe(202)
    const accepted = (events: { event: ReportEvent }[]) =>
      events.filter(({ event }) => event.type === 'check' && event.check.id === submitted.json.id)
    await expect.poll(() => accepted(onA.events).length).toBeGreaterThan(0)
    await expect.poll(() => accepted(onB.events).length).toBeGreaterThan(0)
    expect(accepted(onA.events)[0]).toEqual(accepted(onB.events)[0])
    onA.stop()
    onB.stop()
  })

  it('a check that ended on A is not told as running again by B, whose progress of it came late', async () => {
    const onA = heard(a.engine)
    const onB = heard(b.engine)
    const { json: check } = await call(a, 'POST', '/checks', { body: { text: THREE_CLAIMS, tiers: ['t1'] } })
    gate.releaseAll()
    await expect.poll(() => endedIn(onB.events, check.id), { timeout: 15_000 }).toBe(true)
    const ended = onB.events.at(-1)!.event
    expect(ended).toMatchObject({ type: 'check', check: { id: check.id, status: 'completed' } })
    // B read the check's progress before it ended and tells it now: no replica hears it.
    if (ended.type === 'check')
      b.engine.events.emit({ ...ended, check: { ...ended.check, status: 'running' } })
    const { json: next } = await call(b, 'POST', '/checks', {
      body: { text: 'Rome is in Italy.', tiers: ['t1'] },
    })
    const told = (events: { event: ReportEvent }[]) =>
      events.flatMap(({ event }) =>
        event.type === 'check' ? [`${event.check.id} ${event.check.status}`] : [],
      )
    // What B emitted before the next check, every replica hears before it.
    await expect.poll(() => told(onA.events).includes(`${next.id} queued`)).toBe(true)
    onA.stop()
    onB.stop()
    for (const events of [onA.events, onB.events]) {
      const ofCheck = told(events).filter((change) => change.startsWith(check.id))
      expect(ofCheck.at(-1)).toBe(`${check.id} completed`)
      expect(ofCheck.filter((change) => change.endsWith('completed'))).toHaveLength(1)
    }
  })

  it('a stream on B that drops, then reconnects to A with Last-Event-ID, gets exactly what it missed, then goes on', async () => {
    // The whole stream, on A, from before the check to its end: what the other client should have heard.
    const whole = new AbortController()
    const reference = await stream(a, whole.signal)
    const first = new AbortController()
    const onB = await stream(b, first.signal)
    expect(onB.status).toBe(200)
    const { json: check } = await call(a, 'POST', '/checks', { body: { text: THREE_CLAIMS, tiers: ['t1'] } })
    // One claim decided, then the connection to B breaks.
    const claimOf = (event: StreamEvent): string | null =>
      (JSON.parse(event.data) as { type: string; claimId?: string }).claimId ?? null
    await expect.poll(() => gate.started.length, { timeout: 10_000 }).toBe(3)
    const [one] = gate.started
    gate.release(one!)
    const before = await readStream(onB, (seen) => seen.some((event) => claimOf(event) === one))
    first.abort()
    gate.releaseAll()
    const all = await readStream(reference, (seen) => completedIn(seen, check.id))
    whole.abort()
    expect(all.slice(0, before.length)).toEqual(before)

    // To A, with the last id B sent: the rest, in order, the same ids, then what happens next, wherever.
    const again = new AbortController()
    const onA = await stream(a, again.signal, before.at(-1)!.id)
    const missedCount = all.length - before.length
    const next = call(b, 'POST', '/checks', { body: { text: 'Rome is in Italy.', tiers: ['t1'] } })
    const after = await readStream(onA, (seen) => seen.length > missedCount)
    again.abort()
    expect(after.slice(0, missedCount)).toEqual(all.slice(before.length))
    expect(JSON.parse(after[missedCount]!.data)).toMatchObject({
      type: 'check',
      check: { id: (await next).json.id },
    })
    expect(Number(after[missedCount]!.id)).toBeGreaterThan(Number(all.at(-1)!.id))
  })

  it('tells a stream to read again when its id is not one of the database’s, or events after it were pruned', async () => {
    const onA = heard(a.engine)
    const { json: check } = await call(a, 'POST', '/checks', { body: { text: THREE_CLAIMS, tiers: ['t1'] } })
    gate.releaseAll()
    await expect.poll(() => endedIn(onA.events, check.id), { timeout: 15_000 }).toBe(true)
    onA.stop()
    const [oldest, , newest] = [onA.events[0]!.id, null, onA.events.at(-1)!.id]
    const firstOf = async (server: TestServer, lastId: string): Promise<unknown> => {
      const controller = new AbortController()
      const response = await stream(server, controller.signal, lastId)
      const [event] = await readStream(response, (seen) => seen.length > 0).finally(() => controller.abort())
      return JSON.parse(event!.data)
    }
    const resync = { type: 'resync' }
    for (const lastId of ['0badc0de-3', 'not an id', String(Number(newest) + 1000)])
      expect(await firstOf(b, lastId), lastId).toEqual(resync)
    expect(await firstOf(b, oldest)).toMatchObject({ type: onA.events[1]!.event.type })

    // A day later the replicas prune what came before: a stream after the oldest id can no longer be told.
    const store = await Store.connect(database)
    try {
      await store.events.prune('2999-01-01T00:00:00.000Z', 1)
    } finally {
      await store.close()
    }
    expect(await firstOf(a, oldest)).toEqual(resync)
    // After the latest one kept, nothing was missed: the stream waits for what comes next.
    const controller = new AbortController()
    const caughtUp = await stream(b, controller.signal, newest)
    const next = await call(a, 'POST', '/checks', { body: { text: 'Rome is in Italy.', tiers: ['t1'] } })
    const [first] = await readStream(caughtUp, (seen) => seen.length > 0).finally(() => controller.abort())
    expect(JSON.parse(first!.data)).toMatchObject({ type: 'check', check: { id: next.json.id } })
  })

  it('a report read on B while the check ran on A is, once it completed, the completed report', async () => {
    const onB = heard(b.engine)
    const { json: check } = await call(a, 'POST', '/checks', { body: { text: THREE_CLAIMS, tiers: ['t1'] } })
    // B keeps the report as it stands: no claim decided yet.
    const running = await call(b, 'GET', `/checks/${check.id}/report`)
    expect(running.status).toBe(200)
    expect(running.json.check.status).not.toBe('completed')
    expect(running.json.claims.map((claim: { consensus: object }) => claim.consensus)).toEqual([{}, {}, {}])
    gate.releaseAll()
    await expect.poll(() => endedIn(onB.events, check.id), { timeout: 15_000 }).toBe(true)
    onB.stop()
    const completed = await call(b, 'GET', `/checks/${check.id}/report`)
    expect(completed.json.check.status).toBe('completed')
    expect(completed.json).toEqual((await call(a, 'GET', `/checks/${check.id}/report`)).json)
    expect(completed.json).toEqual(
      JSON.parse(JSON.stringify(await a.engine.service.report(await a.engine.localPrincipal(), check.id))),
    )
    expect(completed.headers.get('etag')).not.toBe(running.headers.get('etag'))
  })

  it('a replica whose listening connection was lost hears what was emitted meanwhile, in order, once it is back', async () => {
    const onB = heard(b.engine)
    const admin = new pg.Client({ connectionString: database })
    await admin.connect()
    try {
      const { rows } = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'factdesk-events'`,
      )
      expect(rows.length).toBe(2)
      // Both replicas' connections end; events appended meanwhile are not notified to either.
      await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [
        rows.map((row) => row.pid),
      ])
    } finally {
      await admin.end()
    }
    const onA = heard(a.engine)
    const { json: check } = await call(a, 'POST', '/checks', { body: { text: THREE_CLAIMS, tiers: ['t1'] } })
    gate.releaseAll()
    await expect.poll(() => endedIn(onB.events, check.id), { timeout: 15_000 }).toBe(true)
    await expect.poll(() => onA.events.length).toBe(onB.events.length)
    expect(onB.events).toEqual(onA.events)
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { systemClock } from '../../../../src/main/engine/base/clock'
import { ReportEvents, type ReportEvent } from '../../../../src/main/engine/base/events'
import { Store } from '../../../../src/main/engine/store'
import { postgresForTests } from '../../../helpers/postgres'
import { researchRun } from '../../../helpers/resources'

// The events of a team server through the database, without engines: two replicas' `ReportEvents` on one
// PostgreSQL database (engines on it: test/main/server/sharedEvents.test.ts).

const postgres = postgresForTests()

const change = (n: number, organizationId = 'org_1'): ReportEvent => ({
  type: 'research',
  research: researchRun({ id: `rsc_${n}` }),
  step: null,
  sourcesRead: n,
  organizationId,
})

const numberOf = (event: ReportEvent): number => (event.type === 'research' ? event.sourcesRead : -1)

/// What a subscriber heard: the id and the event's number.
type Heard = [string, number][]

function listening(events: ReportEvents): Heard {
  const heard: Heard = []
  events.numbered((event, id) => heard.push([id, numberOf(event)]))
  return heard
}

const closing: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close()
})

/// A replica's events and store over `url`.
async function replica(url: string): Promise<{ events: ReportEvents; store: Store }> {
  const store = await Store.connect(url)
  closing.push(() => store.close())
  const events = await ReportEvents.shared(store.events, systemClock)
  closing.push(() => events.close())
  return { events, store }
}

describe('following the events of one process', () => {
  it('sends what came after an id, then what comes, none twice; or resync, then what comes', async () => {
    const events = new ReportEvents()
    const ids: string[] = []
    events.numbered((_event, id) => ids.push(id))
    for (let n = 0; n < 3; n++) events.emit(change(n))
    const followed: Heard = []
    const stop = events.follow(
      ids[0]!,
      'org_1',
      (event, id) => followed.push([id, numberOf(event)]),
      () => followed.push(['resync', -1]),
    )
    // Emitted while the missed ones are read: after them, once.
    events.emit(change(3))
    events.emit(change(4, 'org_2'))
    await new Promise((resolve) => setImmediate(resolve))
    events.emit(change(5))
    stop()
    events.emit(change(6))
    // The organization's missed events; the live ones are the caller's to filter.
    expect(followed).toEqual([
      [ids[1], 1],
      [ids[2], 2],
      [ids[3], 3],
      [ids[4], 4],
      [ids[5], 5],
    ])
    const resynced: Heard = []
    const stopAgain = events.follow(
      '0badc0de-1',
      'org_1',
      (event, id) => resynced.push([id, numberOf(event)]),
      () => resynced.push(['resync', -1]),
    )
    events.emit(change(7))
    await new Promise((resolve) => setImmediate(resolve))
    stopAgain()
    expect(resynced).toEqual([
      ['resync', -1],
      [ids[7], 7],
    ])
  })
})

describe.skipIf(postgres.skip)('the events of a team server', () => {
  it('each replica hears what every replica emits, in one order, under the same ids', async () => {
    const url = await postgres.database()
    const [a, b] = [await replica(url), await replica(url)]
    const [onA, onB] = [listening(a.events), listening(b.events)]
    for (let n = 0; n < 60; n++) (n % 2 === 0 ? a : b).events.emit(change(n))
    await expect.poll(() => [onA.length, onB.length]).toEqual([60, 60])
    expect(onB).toEqual(onA)
    const ids = onA.map(([id]) => Number(id))
    expect(ids).toEqual([...ids].sort((x, y) => x - y))
    // Each replica's own events in the order it emitted them.
    for (const parity of [0, 1]) {
      const own = onA.map(([, n]) => n).filter((n) => n % 2 === parity)
      expect(own).toEqual([...own].sort((x, y) => x - y))
    }
    // An event is its organization's update as the page sees it, stored once.
    const [stored] = await a.store.events.after(ids[0]! - 1, 1)
    expect(JSON.parse(stored!.body)).toEqual({
      type: 'research',
      research: researchRun({ id: `rsc_${onA[0]![1]}` }),
      step: null,
      sourcesRead: onA[0]![1],
    })
    expect(stored!.organizationId).toBe('org_1')
  })

  it('a subscriber hears what its replica emits at once, what another does when read, each once', async () => {
    const url = await postgres.database()
    const [a, b] = [await replica(url), await replica(url)]
    const changes = (events: ReportEvents): number[] => {
      const heard: number[] = []
      events.subscribe((event) => heard.push(numberOf(event)))
      return heard
    }
    const [onA, onB, numberedOnA] = [changes(a.events), changes(b.events), listening(a.events)]
    a.events.emit(change(1))
    // At once, as in one process: what a request changed shows in the next read on this replica.
    expect(onA).toEqual([1])
    expect(numberedOnA).toEqual([])
    b.events.emit(change(2))
    a.events.emit(change(3))
    expect(onA).toEqual([1, 3])
    await expect.poll(() => numberedOnA.length).toBe(3)
    await expect.poll(() => onA).toEqual([1, 3, 2])
    // Many more from both, side by side: each heard once on each replica.
    for (let n = 4; n < 200; n++) (n % 2 === 0 ? a : b).events.emit(change(n))
    const all = Array.from({ length: 199 }, (_, i) => i + 1)
    await expect.poll(() => numberedOnA.length, { timeout: 10_000 }).toBe(199)
    await expect.poll(() => onB.length, { timeout: 10_000 }).toBe(199)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(onA.toSorted((x, y) => x - y)).toEqual(all)
    expect(onB.toSorted((x, y) => x - y)).toEqual(all)
  })

  it('a stream following from an id while replicas emit gets every later event once, in order', async () => {
    const url = await postgres.database()
    const [a, b, c] = [await replica(url), await replica(url), await replica(url)]
    const onC = listening(c.events)
    for (let n = 0; n < 50; n++) a.events.emit(change(n))
    await expect.poll(() => onC.length).toBe(50)
    // C follows from the 20th while A and B go on emitting, and C itself hears them late or early.
    const followed: Heard = []
    const emitting = (async () => {
      for (let n = 50; n < 250; n++) {
        ;(n % 2 === 0 ? a : b).events.emit(change(n))
        if (n % 10 === 0) await new Promise((resolve) => setImmediate(resolve))
      }
    })()
    const stop = c.events.follow(
      onC[19]![0],
      'org_1',
      (event, id) => followed.push([id, numberOf(event)]),
      () => followed.push(['resync', -1]),
    )
    await emitting
    await expect.poll(() => onC.length, { timeout: 10_000 }).toBe(250)
    await expect.poll(() => followed.length).toBe(230)
    stop()
    expect(followed).toEqual(onC.slice(20))
  })

  it('tells a stream to read again after an id not given, or when events after it were pruned', async () => {
    const url = await postgres.database()
    const { events, store } = await replica(url)
    const heard = listening(events)
    const resyncs = async (lastId: string): Promise<boolean> => (await events.since(lastId, 'org_1')) === null
    // Before any event, no id was given.
    expect(await resyncs('0')).toBe(true)
    for (let n = 0; n < 5; n++) events.emit(change(n))
    await expect.poll(() => heard.length).toBe(5)
    const [first, , third, , last] = heard.map(([id]) => id)
    expect(await resyncs(String(Number(last) + 1))).toBe(true)
    expect(await resyncs('3f9a02c1-12')).toBe(true)
    expect(await resyncs('1e3')).toBe(true)
    expect((await events.since(first!, 'org_1'))?.map(({ id }) => id)).toEqual(
      heard.slice(1).map(([id]) => id),
    )
    expect(await events.since(first!, 'org_2')).toEqual([])
    expect(await events.since(last!)).toEqual([])
    // Keep the latest two: after the third, nothing was lost; after the first, something was.
    await store.events.prune('2000-01-01T00:00:00.000Z', 2)
    expect((await events.since(third!))?.map(({ id }) => id)).toEqual(heard.slice(3).map(([id]) => id))
    expect(await resyncs(first!)).toBe(true)
  })

  it('stores what was emitted before it closed', async () => {
    const url = await postgres.database()
    const { events } = await replica(url)
    const reader = await replica(url)
    for (let n = 0; n < 1200; n++) events.emit(change(n))
    await events.close()
    const rows = await reader.store.events.after(0, 2000)
    expect(rows.map((row) => (JSON.parse(row.body) as { sourcesRead: number }).sourcesRead)).toEqual(
      Array.from({ length: 1200 }, (_, n) => n),
    )
  })
})

import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { Store } from '../../../../src/main/engine/store'
import { postgresForTests } from '../../../helpers/postgres'
import { tempDir } from '../../../helpers/server'

const postgres = postgresForTests()
const AT = '2026-01-01T00:00:00.000Z'
const LATER = '2026-01-02T00:00:00.000Z'

const opened: Store[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()))
})

/// A fresh store on `dialect`; on PostgreSQL `url` names the database to share with another store.
async function openStore(dialect: 'sqlite' | 'postgres', url?: string): Promise<Store> {
  const dir = tempDir()
  const store =
    dialect === 'sqlite' ? await Store.open(dir) : await Store.connect(url ?? (await postgres.database()))
  opened.push(store)
  return store
}

const event = (organizationId: string, n: number) => ({ organizationId, body: JSON.stringify({ n }) })

describe.each(['sqlite', 'postgres'] as const)('the events table on %s', (dialect) => {
  it.skipIf(dialect === 'postgres' && postgres.skip)(
    'gives ids in the order appended, and reads them back in order, all or one organization’s',
    async () => {
      const store = await openStore(dialect)
      expect(await store.events.bounds()).toEqual({ first: null, last: null })
      const first = await store.events.append([event('org_a', 1), event('org_b', 2)], AT)
      const second = await store.events.append([event('org_a', 3)], AT)
      expect(await store.events.append([], AT)).toEqual([])
      const ids = [...first, ...second]
      expect(ids).toEqual([...ids].sort((a, b) => a - b))
      expect(new Set(ids).size).toBe(3)
      expect(await store.events.after(0, 10)).toEqual([
        { id: ids[0], organizationId: 'org_a', body: '{"n":1}' },
        { id: ids[1], organizationId: 'org_b', body: '{"n":2}' },
        { id: ids[2], organizationId: 'org_a', body: '{"n":3}' },
      ])
      expect((await store.events.after(ids[0]!, 1)).map((row) => row.id)).toEqual([ids[1]])
      expect((await store.events.after(0, 10, 'org_a')).map((row) => row.id)).toEqual([ids[0], ids[2]])
      expect(await store.events.bounds()).toEqual({ first: ids[0], last: ids[2] })
    },
  )

  it.skipIf(dialect === 'postgres' && postgres.skip)(
    'prunes the oldest run of events: older than the cut-off or beyond the latest kept, never the latest one',
    async () => {
      const store = await openStore(dialect)
      const old = await store.events.append(
        [1, 2, 3].map((n) => event('org_a', n)),
        AT,
      )
      const recent = await store.events.append(
        [4, 5, 6].map((n) => event('org_a', n)),
        LATER,
      )
      expect(await store.events.prune(LATER, 100)).toBe(3)
      expect(await store.events.bounds()).toEqual({ first: recent[0], last: recent[2] })
      // Beyond the latest two.
      expect(await store.events.prune(AT, 2)).toBe(1)
      expect(await store.events.bounds()).toEqual({ first: recent[1], last: recent[2] })
      // Nothing recent: all but the latest, whose id tells which ids were given.
      expect(await store.events.prune('2026-02-01T00:00:00.000Z', 100)).toBe(1)
      expect(await store.events.bounds()).toEqual({ first: recent[2], last: recent[2] })
      expect(await store.events.prune('2026-02-01T00:00:00.000Z', 100)).toBe(0)
      // Ids are never given again.
      const [next] = await store.events.append([event('org_a', 7)], LATER)
      expect(next).toBeGreaterThan(recent[2]!)
      expect(old.every((id) => id < recent[0]!)).toBe(true)
    },
  )
})

describe.skipIf(postgres.skip)('the events table on PostgreSQL, shared by replicas', () => {
  it('commits ids in order: a reader going on from the last id it read, while two replicas append, skips none', async () => {
    const url = await postgres.database()
    const [a, b, reader] = [
      await openStore('postgres', url),
      await openStore('postgres', url),
      await openStore('postgres', url),
    ]
    let appending = true
    const read: number[] = []
    const follow = (async () => {
      let cursor = 0
      for (;;) {
        const done = !appending
        for (const row of await reader.events.after(cursor, 1000)) {
          read.push(row.id)
          cursor = row.id
        }
        if (done) return
      }
    })()
    // Each replica appends one at a time and in small batches, many side by side.
    const appends = [a, b].flatMap((store, replica) =>
      Array.from({ length: 40 }, (_, i) =>
        store.events.append(
          Array.from({ length: 1 + (i % 3) }, (_, n) => event(`org_${replica}`, i * 10 + n)),
          AT,
        ),
      ),
    )
    const given = (await Promise.all(appends)).flat()
    appending = false
    await follow
    expect(read).toEqual([...given].sort((x, y) => x - y))
  })

  it('tells a listener of each append, and again after its connection was lost and made anew', async () => {
    const url = await postgres.database()
    const [writer, listening] = [await openStore('postgres', url), await openStore('postgres', url)]
    let heard = 0
    const notifications = await listening.events.listen(() => heard++)
    expect(notifications).not.toBeNull()
    await writer.events.append([event('org_a', 1)], AT)
    await expect.poll(() => heard).toBe(1)
    // Another batch: one notification, carrying its last id.
    await writer.events.append([event('org_a', 2), event('org_a', 3)], AT)
    await expect.poll(() => heard).toBe(2)

    // The server ends the listening connection (a restart, a failover): it is made anew and says so.
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    try {
      const { rows } = await admin.query<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = 'factdesk-events'`,
      )
      expect(rows).toEqual([{ ended: true }])
    } finally {
      await admin.end()
    }
    await expect.poll(() => heard, { timeout: 5_000 }).toBe(3)
    await writer.events.append([event('org_a', 4)], AT)
    await expect.poll(() => heard).toBe(4)
    await notifications?.close()
    await writer.events.append([event('org_a', 5)], AT)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(heard).toBe(4)
  })
})

it('has no listener on SQLite, which one process writes', async () => {
  const store = await openStore('sqlite')
  expect(await store.events.listen(() => undefined)).toBeNull()
})

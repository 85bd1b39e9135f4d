// Leases at the store: what a replica of a team server may take (due work, and work whose lease expired), what a
// holder renews, and the fencing that refuses every write of a holder whose lease was taken over. The same on the
// data folder's SQLite and on PostgreSQL, where two stores stand for two replicas on one database.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Store } from '../../../../src/main/engine/store'
import { postgresForTests } from '../../../helpers/postgres'
import { ORGANIZATION, seedCheck, seedOrganization, TEXT, TOKEN } from '../../../helpers/seed'
import { tempDir } from '../../../helpers/server'

const postgres = postgresForTests()

/// A moment `seconds` from the start of the test.
const start = Date.now()
const at = (seconds: number): string => new Date(start + seconds * 1000).toISOString()
const LATER = at(3600)

describe.each([
  { dialect: 'SQLite', postgres: false },
  { dialect: 'PostgreSQL', postgres: true },
])('leases on $dialect', ({ postgres: onPostgres }) => {
  /// Two stores over one database: two replicas.
  let a: Store
  let b: Store

  beforeEach(async (context) => {
    if (onPostgres && postgres.skip) return context.skip()
    const dataDir = tempDir()
    const database = onPostgres ? await postgres.database() : null
    const open = () => (database ? Store.connect(database) : Store.open(dataDir))
    a = await open()
    b = await open()
    await seedOrganization(a, at(0))
  })
  afterEach(async () => {
    await a?.close()
    await b?.close()
  })

  /// A check of four claims, queued at 0: its units wait.
  const submitted = (): Promise<string> => seedCheck(a, at(0))

  describe('units', () => {
    it('a unit leased and held is not leased again; once its lease has expired, another takes it over', async () => {
      await submitted()
      const first = await a.units.lease(at(1), at(31), 'lease-a', 10)
      expect(first).toHaveLength(4)
      expect(first.every((unit) => unit.attempts === 1 && unit.leaseId === 'lease-a')).toBe(true)
      // Held: not before its lease ends, whoever asks.
      expect(await b.units.lease(at(30), at(60), 'lease-b', 10)).toEqual([])
      expect(await b.units.nextDue()).toBe(at(31))
      // Expired: taken over, with a token of its own and one more attempt.
      const taken = await b.units.lease(at(31), at(61), 'lease-b', 10)
      expect(taken.map((unit) => unit.id)).toEqual(first.map((unit) => unit.id))
      expect(taken.every((unit) => unit.attempts === 2 && unit.leaseId === 'lease-b')).toBe(true)
    })

    it('renewing extends only the leases still held, and says which', async () => {
      await submitted()
      const [one, two] = await a.units.lease(at(1), at(31), 'lease-a', 2)
      expect(await b.units.renew(['lease-b'], at(90))).toEqual([]) // a token no one holds renews nothing
      // The first expires and is taken over; the second is renewed, and holds past its first end.
      const [taken] = await b.units.lease(at(31), at(61), 'lease-b', 1)
      expect(taken?.id).toBe(one?.id)
      expect(await a.units.renew(['lease-a'], at(100))).toEqual([String(two?.id)])
      const later = await b.units.lease(at(99), at(129), 'lease-c', 10)
      expect(later.map((unit) => unit.id)).not.toContain(two?.id)
      expect(later).toHaveLength(3) // the two left pending, and the first, whose lease-b ended at 61
    })

    it('fencing: the holder whose lease was taken over can neither finish, fail nor put back its unit', async () => {
      await submitted()
      const [unit] = await a.units.lease(at(1), at(31), 'lease-a', 1)
      const id = unit?.id as number
      const [taken] = await b.units.lease(at(32), at(62), 'lease-b', 1)
      expect(taken?.id).toBe(id)
      // The stale holder's transaction writes nothing: its unit stays the new holder's, running.
      expect(await a.transaction((tx) => tx.units.finish(id, 'lease-a'))).toBe(false)
      expect(await a.units.fail(id, 'lease-a', 'stale')).toBe(false)
      await a.units.retryLater(id, 'lease-a', 'stale', at(33))
      expect(await b.units.renew(['lease-b'], at(63))).toEqual([String(id)])
      // The holder finishes it, once.
      expect(await b.units.finish(id, 'lease-b')).toBe(true)
      expect(await b.units.finish(id, 'lease-b')).toBe(false)
    })

    it('two replicas leasing at the same time never lease one unit twice', async () => {
      for (let i = 0; i < 5; i++) await submitted()
      const leased: number[][] = [[], []]
      await Promise.all(
        [a, b].map(async (store, replica) => {
          for (;;) {
            const units = await store.units.lease(at(1), at(31), `lease-${replica}`, 3)
            if (units.length === 0) break
            leased[replica]?.push(...units.map((unit) => unit.id))
          }
        }),
      )
      const all = [...(leased[0] ?? []), ...(leased[1] ?? [])]
      expect(all).toHaveLength(20)
      expect(new Set(all).size).toBe(20)
    })

    it('SQLite’s start ends the leases a dead process left, so that they are taken at once', async () => {
      await submitted()
      await a.units.lease(at(1), LATER, 'lease-dead', 10)
      expect(await b.units.lease(at(2), at(32), 'lease-b', 10)).toEqual([])
      await b.units.expireLeases(at(2))
      expect(await b.units.lease(at(2), at(32), 'lease-b', 10)).toHaveLength(4)
    })
  })

  describe('deep research runs', () => {
    async function queued(): Promise<string> {
      const organizationId = ORGANIZATION
      const id = `rsr_${Math.random().toString(36).slice(2)}`
      await a.research.insert({
        id,
        organizationId,
        claimId: null,
        text: 'The Nile is 6650 kilometres long.',
        context: '',
        charged: 5,
        createdAt: at(0),
      })
      return id
    }

    it('is leased once while held, taken over after its lease, and the stale attempt saves, ends and refunds nothing', async () => {
      const id = await queued()
      const [run] = await a.research.lease(at(1), at(31), 'lease-a', 2)
      expect(run).toMatchObject({ id, attempts: 1, leaseId: 'lease-a', status: 'running' })
      expect(await b.research.lease(at(30), at(60), 'lease-b', 2)).toEqual([])
      expect(await a.research.renew(['lease-a'], at(40))).toEqual([id])
      expect(await b.research.nextDue()).toBe(at(40))
      expect(await a.research.saveState(id, 'lease-a', '{"plan":1}', at(2))).toBe(true)
      const [taken] = await b.research.lease(at(40), at(70), 'lease-b', 2)
      expect(taken).toMatchObject({ id, attempts: 2, leaseId: 'lease-b', state: '{"plan":1}' })
      // The stale attempt: nothing saved, not ended, not refunded.
      expect(await a.research.saveState(id, 'lease-a', '{"plan":2}', at(41))).toBe(false)
      expect(await a.research.complete(id, 'lease-a', '{}', at(41))).toBe(false)
      expect(
        await a.research.fail(id, 'lease-a', { code: 'failed', message: 'stale', refunded: 5 }, at(41)),
      ).toBe(false)
      await a.research.retryLater(id, 'lease-a', at(42))
      expect(await a.research.renew(['lease-a'], at(90))).toEqual([])
      expect(await b.research.byId(id)).toMatchObject({ status: 'running', state: '{"plan":1}', refunded: 0 })
      expect(await b.research.complete(id, 'lease-b', '{}', at(43))).toBe(true)
    })

    it('a run put back is due again at its time, leased by whoever comes', async () => {
      const id = await queued()
      await a.research.lease(at(1), at(31), 'lease-a', 1)
      await a.research.retryLater(id, 'lease-a', at(10))
      expect(await b.research.nextDue()).toBe(at(10))
      expect(await b.research.lease(at(9), at(39), 'lease-b', 1)).toEqual([])
      expect(await b.research.lease(at(10), at(40), 'lease-b', 1)).toMatchObject([{ id, attempts: 2 }])
    })
  })

  describe('webhook events', () => {
    async function queued(): Promise<string> {
      const checkId = await submitted()
      const organizationId = ORGANIZATION
      const id = `evt_${checkId}`
      await a.outbox.insert({
        id,
        organizationId,
        checkId,
        type: 'check.completed',
        url: 'https://example.com/hook',
        body: '{}',
        createdAt: at(0),
      })
      return id
    }
    const attempt = (number: number) => ({
      attempt: number,
      attemptedAt: at(5),
      statusCode: 500,
      error: 'The receiver answered 500.',
    })

    it('one attempt at a time: held, then taken over after its lease; the stale attempt is not recorded', async () => {
      const id = await queued()
      const [event] = await a.outbox.lease(at(1), at(31), 'lease-a', 5)
      expect(event).toMatchObject({ id, leaseId: 'lease-a', attempts: 0 })
      expect(await b.outbox.lease(at(30), at(60), 'lease-b', 5)).toEqual([])
      expect(await b.outbox.nextDue()).toBe(at(31))
      const [taken] = await b.outbox.lease(at(31), at(61), 'lease-b', 5)
      expect(taken).toMatchObject({ id, leaseId: 'lease-b' })
      const retry = { status: 'pending', nextAttemptAt: at(40) } as const
      expect(await a.transaction((tx) => tx.outbox.recordAttempt(id, 'lease-a', attempt(1), retry))).toBe(
        false,
      )
      expect(await a.outbox.attempts(id)).toEqual([])
      expect(await b.transaction((tx) => tx.outbox.recordAttempt(id, 'lease-b', attempt(1), retry))).toBe(
        true,
      )
      // Recorded: the lease ends with it, and the event is due again at its next attempt.
      expect(await b.outbox.renew(['lease-b'], at(70))).toEqual([])
      expect(await a.outbox.nextDue()).toBe(at(40))
      expect(await a.outbox.lease(at(40), at(70), 'lease-c', 5)).toMatchObject([{ id, attempts: 1 }])
    })

    it('an event given back is due at once; one renewed stays its holder’s', async () => {
      const id = await queued()
      await a.outbox.lease(at(1), at(31), 'lease-a', 5)
      expect(await a.outbox.renew(['lease-a'], at(61))).toEqual([id])
      expect(await b.outbox.lease(at(40), at(70), 'lease-b', 5)).toEqual([])
      await a.outbox.release(id, 'lease-a')
      expect(await b.outbox.lease(at(40), at(70), 'lease-b', 5)).toMatchObject([{ id }])
    })
  })

  describe('pending checks', () => {
    async function queued(): Promise<string> {
      const [organizationId, tokenId] = [ORGANIZATION, TOKEN]
      const id = `pnd_${Math.random().toString(36).slice(2)}`
      await a.pendingChecks.insert({
        id,
        organizationId,
        tokenId,
        request: { text: TEXT, tiers: ['t1'] },
        label: 'four claims',
        idempotencyKey: `key-${id}`,
        createdAt: at(0),
      })
      return id
    }

    it('one attempt at a time: held, then taken over after its lease; the stale attempt records nothing', async () => {
      const id = await queued()
      expect(await a.pendingChecks.lease(at(1), at(31), 'lease-a')).toMatchObject({ id, leaseId: 'lease-a' })
      expect(await b.pendingChecks.lease(at(30), at(60), 'lease-b')).toBeNull()
      expect(await b.pendingChecks.nextDue()).toBe(at(31))
      expect(await b.pendingChecks.lease(at(31), at(61), 'lease-b')).toMatchObject({ id, leaseId: 'lease-b' })
      const retry = { nextAttemptAt: at(40), reason: 'down' }
      expect(await a.pendingChecks.retryLater(id, 'lease-a', 1, retry, at(32))).toBe(false)
      expect(await a.pendingChecks.fail(id, 'lease-a', 1, { code: 'x', message: 'stale' }, at(32))).toBe(
        false,
      )
      const checkId = await submitted()
      expect(await a.pendingChecks.submitted(id, 'lease-a', 1, checkId, at(32))).toBe(false)
      expect(await b.pendingChecks.get(ORGANIZATION, id)).toMatchObject({ status: 'waiting', attempts: 0 })
      expect(await b.pendingChecks.retryLater(id, 'lease-b', 1, retry, at(33))).toBe(true)
      expect(await a.pendingChecks.nextDue()).toBe(at(40))
      expect(await a.pendingChecks.lease(at(40), at(70), 'lease-c')).toMatchObject({ id, attempts: 1 })
    })

    it('a check given back is due at once; one renewed stays its holder’s', async () => {
      const id = await queued()
      await a.pendingChecks.lease(at(1), at(31), 'lease-a')
      expect(await a.pendingChecks.renew(['lease-a'], at(61))).toEqual([id])
      expect(await b.pendingChecks.lease(at(40), at(70), 'lease-b')).toBeNull()
      await a.pendingChecks.release(id, 'lease-a')
      expect(await b.pendingChecks.lease(at(40), at(70), 'lease-b')).toMatchObject({ id })
    })
  })
})

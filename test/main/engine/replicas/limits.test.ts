// The limits of an organization on a team server whose replicas share one PostgreSQL database: requests made at once
// on two replicas get the organization its limit a minute in all, not on each replica, and never take it past a
// quota of what it keeps. (On SQLite one engine serves a data folder; the same code counts there:
// checks/estimateLimits.test.ts, checks/pending/limits.test.ts, files/drafts/limits.test.ts.)
import { afterEach, describe, expect, it } from 'vitest'
import { Config, type ConfigInput } from '../../../../src/shared/config'
import { ApiError } from '../../../../src/shared/errors'
import { ManualClock } from '../../../../src/main/engine/base/clock'
import { openEngine, type Engine } from '../../../../src/main/engine/engine'
import { postgresForTests } from '../../../helpers/postgres'
import { tempDir } from '../../../helpers/server'
import { GatedTier } from '../../../helpers/tiers'

const postgres = postgresForTests()

const MINUTE_MS = 60_000
const TEXT = 'The Eiffel Tower is 330 metres tall. It was finished in 1889.'

let opened: Engine[] = []
afterEach(async () => {
  const engines = opened.reverse()
  opened = []
  for (const engine of engines) await engine.close()
})

/// Two engines over one fresh database, as two replicas, on one clock; they run no jobs (a pending check waits).
async function replicas(limits: ConfigInput['limits'], clock = new ManualClock()): Promise<Engine[]> {
  const database = await postgres.database()
  for (let i = 0; i < 2; i++) {
    opened.push(
      await openEngine({
        dataDir: tempDir(),
        database,
        config: Config.parse({ limits }),
        clock,
        tiers: new Map([['t1', new GatedTier()]]),
      }),
    )
  }
  return opened
}

/// `request` made `times` times on each replica, all at once.
const onBoth = (engines: Engine[], times: number, request: (engine: Engine) => Promise<unknown>) =>
  engines.flatMap((engine) => Array.from({ length: times }, () => request(engine)))

/// How many of `requests` passed, and the codes of the refusals with their Retry-After, in order.
async function tally(requests: Promise<unknown>[]): Promise<{ passed: number; refused: string[] }> {
  const results = await Promise.allSettled(requests)
  const refused = results.flatMap((result) => {
    if (result.status === 'fulfilled') return []
    if (!(result.reason instanceof ApiError)) throw result.reason
    return [`${result.reason.code} ${result.reason.retryAfterSeconds ?? ''}`.trim()]
  })
  return { passed: results.length - refused.length, refused }
}

const refusals = (count: number, refusal: string): string[] => Array<string>(count).fill(refusal)

describe.skipIf(postgres.skip)('an organization’s limits on replicas of one PostgreSQL database', () => {
  it('estimates a minute: made at once on two replicas, the limit in all; the next minute as many again', async () => {
    const clock = new ManualClock()
    const engines = await replicas({ estimatesPerMinute: 5 }, clock)
    const principal = await engines[0]!.localPrincipal()
    const estimate = (engine: Engine) => engine.service.estimate(principal, { text: TEXT, tiers: ['t1'] })

    expect(await tally(onBoth(engines, 6, estimate))).toEqual({
      passed: 5,
      refused: refusals(7, 'rate_limited 60'),
    })
    clock.advance(MINUTE_MS / 2)
    // A check of a text counts with the estimates, on either replica.
    await expect(engines[1]!.service.submit(principal, { text: TEXT, tiers: ['t1'] })).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfterSeconds: 30,
    })
    clock.advance(MINUTE_MS / 2)
    expect(await tally(onBoth(engines, 6, estimate))).toEqual({
      passed: 5,
      refused: refusals(7, 'rate_limited 60'),
    })
  })

  it('new drafts a minute: made at once on two replicas, the limit in all', async () => {
    const clock = new ManualClock()
    const engines = await replicas({ draftsPerMinute: 4 }, clock)
    const principal = await engines[0]!.localPrincipal()
    const create = (engine: Engine) => engine.drafts.create(principal, { text: 'A draft.' })

    expect(await tally(onBoth(engines, 5, create))).toEqual({
      passed: 4,
      refused: refusals(6, 'rate_limited 60'),
    })
    expect((await engines[1]!.drafts.list(principal)).data).toHaveLength(4)
    clock.advance(MINUTE_MS)
    expect((await tally(onBoth(engines, 5, create))).passed).toBe(4)
  })

  it('checks waiting to run when online: queued at once on two replicas, never more than limits.pendingChecks', async () => {
    const engines = await replicas({ pendingChecks: 3 })
    const principal = await engines[0]!.localPrincipal()
    const queue = (engine: Engine) => engine.pending.queue(principal, { text: TEXT, tiers: ['t1'] })

    expect(await tally(onBoth(engines, 4, queue))).toEqual({
      passed: 3,
      refused: refusals(5, 'payload_too_large'),
    })
    expect((await engines[1]!.pending.list(principal, true)).data).toHaveLength(3)
  })

  it('drafts made, or made longer, at once on two replicas: never past limits.drafts or limits.draftBytes', async () => {
    const engines = await replicas({ drafts: 4, draftBytes: 1000 })
    const principal = await engines[0]!.localPrincipal()
    const create = (engine: Engine) => engine.drafts.create(principal, { text: 'A draft.' })

    expect(await tally(onBoth(engines, 3, create))).toEqual({
      passed: 4,
      refused: refusals(2, 'payload_too_large'),
    })
    // Each draft autosaved 600 bytes long at once, half of them on each replica: one fits, the others do not.
    const drafts = (await engines[0]!.drafts.list(principal)).data
    const longer = drafts.map((draft, i) =>
      engines[i % 2]!.drafts.save(principal, draft.id, { text: 'x'.repeat(600) }),
    )
    expect(await tally(longer)).toEqual({ passed: 1, refused: refusals(3, 'payload_too_large') })
    const texts = await Promise.all(drafts.map((draft) => engines[1]!.drafts.open(principal, draft.id)))
    expect(texts.reduce((bytes, draft) => bytes + Buffer.byteLength(draft.text), 0)).toBe(600 + 3 * 8)
  })
})

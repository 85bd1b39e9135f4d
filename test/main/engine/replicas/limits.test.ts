// The limits of an organization on a team server whose replicas share one PostgreSQL database: requests made at once
// on two replicas get the organization its limit a minute in all, not on each replica. (On SQLite one engine serves
// a data folder; the same code counts there: checks/estimateLimits.test.ts, files/drafts/limits.test.ts.)
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

/// Runs `request` `times` times on each replica, all at once; gives how many passed and the codes of the refusals,
/// with their Retry-After, in order.
async function atOnce(
  engines: Engine[],
  times: number,
  request: (engine: Engine) => Promise<unknown>,
): Promise<{ passed: number; refused: string[] }> {
  const results = await Promise.allSettled(
    engines.flatMap((engine) => Array.from({ length: times }, () => request(engine))),
  )
  const refused = results.flatMap((result) => {
    if (result.status === 'fulfilled') return []
    if (!(result.reason instanceof ApiError)) throw result.reason
    return [`${result.reason.code} ${result.reason.retryAfterSeconds ?? ''}`.trim()]
  })
  return { passed: results.length - refused.length, refused }
}

describe.skipIf(postgres.skip)(
  'limits of an organization on replicas sharing one PostgreSQL database',
  () => {
    it('estimates a minute: requests at once on two replicas get the limit in all, and the next minute as many again', async () => {
      const clock = new ManualClock()
      const engines = await replicas({ estimatesPerMinute: 5 }, clock)
      const principal = await engines[0]!.localPrincipal()
      const estimate = (engine: Engine) => engine.service.estimate(principal, { text: TEXT, tiers: ['t1'] })

      expect(await atOnce(engines, 6, estimate)).toEqual({
        passed: 5,
        refused: Array(7).fill('rate_limited 60'),
      })
      clock.advance(MINUTE_MS / 2)
      // A check of a text counts with the estimates, on either replica.
      await expect(
        engines[1]!.service.submit(principal, { text: TEXT, tiers: ['t1'] }),
      ).rejects.toMatchObject({
        code: 'rate_limited',
        retryAfterSeconds: 30,
      })
      clock.advance(MINUTE_MS / 2)
      expect(await atOnce(engines, 6, estimate)).toEqual({
        passed: 5,
        refused: Array(7).fill('rate_limited 60'),
      })
    })

    it('new drafts a minute: requests at once on two replicas get the limit in all', async () => {
      const clock = new ManualClock()
      const engines = await replicas({ draftsPerMinute: 4 }, clock)
      const principal = await engines[0]!.localPrincipal()
      const create = (engine: Engine) => engine.drafts.create(principal, { text: 'A draft.' })

      expect(await atOnce(engines, 5, create)).toEqual({
        passed: 4,
        refused: Array(6).fill('rate_limited 60'),
      })
      expect((await engines[1]!.drafts.list(principal)).data).toHaveLength(4)
      clock.advance(MINUTE_MS)
      expect(await atOnce(engines, 5, create)).toEqual({
        passed: 4,
        refused: Array(6).fill('rate_limited 60'),
      })
    })
  },
)

// A replica of a team server in a process of its own, for the tests that kill one (`node --import tsx`): an engine
// that runs jobs on the PostgreSQL database given, whose t1 starts every unit and finishes none. It prints `ready`
// once started and `started CLAIM_ID` as each unit starts, and runs until it is killed.
//
//   replica.ts DATA_DIR DATABASE_URL LEASE_MS
import { Config } from '../../src/shared/config'
import { openEngine } from '../../src/main/engine/engine'
import type { UnitInput, UnitOutcome } from '../../src/main/engine/tiers/tier'
import { GatedTier } from './tiers'

const [dataDir, database, leaseMs] = process.argv.slice(2)
if (!dataDir || !database || !leaseMs) throw new Error('usage: replica.ts DATA_DIR DATABASE_URL LEASE_MS')

/// Says which unit it starts, then waits like the gate it is.
class Announcing extends GatedTier {
  override async check(input: UnitInput): Promise<UnitOutcome> {
    console.log(`started ${input.claim.id}`)
    return await super.check(input)
  }
}

await openEngine({
  dataDir,
  database,
  config: Config.parse({}),
  runJobs: true,
  tiers: new Map([['t1', new Announcing()]]),
  runner: { leaseMs: Number(leaseMs), pollMs: 50 },
})
console.log('ready')

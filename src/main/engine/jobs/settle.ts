import { hasEnded } from '../../../shared/vocabulary'
import type { Store } from '../store'
import type { UnitRecord } from '../store/units'
import { JUDGE_UNIT } from '../tiers/tier'
import { queueCheckEvent } from '../webhooks/event'

// What ends a claim-tier's panel and a check. Both read whether other units are still open, after the check's row
// lock (`checks.lock`): two transactions (two batches, or two processes) ending the last two units of a claim-tier
// or of a check then run one after the other, and the second reads the first's unit ended. Without it, under
// PostgreSQL's READ COMMITTED, each could read the other's unit still open: the judge would never be queued, or
// the check would never end. SQLite's single writer runs them one after the other anyway.

/// Called in the transaction `tx` that ends a panel unit (done or failed) of a tier with a judge: when it was the
/// claim-tier's last open one and at least one vote is in, queues the judge unit, under the check's lock (taken
/// here if the transaction does not hold it yet). If every panel unit failed there is no judge, and the
/// claim-tier ends without consensus (refunded when the check settles).
export async function queueJudge(tx: Store, unit: UnitRecord, at: string): Promise<void> {
  if (unit.model === JUDGE_UNIT) return
  await tx.checks.lock(unit.checkId)
  if ((await tx.units.openFor(unit.checkId, unit.claimId, unit.tier)) > 0) return
  if ((await tx.results.votes(unit.checkId, unit.claimId, unit.tier)).length === 0) return
  await tx.units.enqueueOnce(unit.checkId, { claimId: unit.claimId, tier: unit.tier, model: JUDGE_UNIT }, at)
}

/// Ends the check in the transaction `tx` (which holds its organization's lock) once none of its units is open:
/// completed when all succeeded, otherwise failed with the claim-tiers that reached no consensus refunded, its
/// webhook event queued with the ending. True when this call ended it.
///
/// The check's row is locked before its units are read (see above); the conditional update lets only one ending
/// win besides.
export async function settleCheck(tx: Store, checkId: string, at: string): Promise<boolean> {
  const check = await tx.checks.lock(checkId)
  if (!check || hasEnded(check)) return false
  if (await tx.units.anyOpen(checkId)) return false
  const failed = await tx.units.failedUndecided(checkId)
  if (failed === 0) {
    if (!(await tx.checks.end(checkId, { status: 'completed', refunded: 0, error: null, at }))) return false
    await queueCheckEvent(tx, checkId, at) // the webhook event, with the ending or not at all
    return true
  }
  const decided = await tx.results.decided(checkId)
  const refund = check.tiers.reduce((sum, tier) => {
    const undecided = check.claimCount - decided.filter((entry) => entry.tier === tier).length
    return sum + undecided * (check.unitPrices[tier] ?? 0)
  }, 0)
  const error = {
    code: 'unit_failed',
    message: `${failed} claim check${failed === 1 ? '' : 's'} failed: ${(await tx.units.lastError(checkId)) ?? 'unknown error'}`,
  }
  if (!(await tx.checks.end(checkId, { status: 'failed', refunded: refund, error, at }))) return false
  await tx.ledger.record(check.organizationId, 'refund', refund, checkId, at)
  await queueCheckEvent(tx, checkId, at)
  return true
}

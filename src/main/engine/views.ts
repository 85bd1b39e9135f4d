import type { Check, Claim, Report, Tier } from '../../shared/schemas'
import type { CheckRecord } from './store/checks'
import type { Store } from './store'
import { JUDGE_UNIT } from './tiers/tier'
import { webhookView } from './webhooks/view'

/// The public shape of a check: the stored record with its progress per tier (counted here unless the caller
/// has counted it already) and its webhook's delivery.
export function checkView(
  store: Store,
  record: CheckRecord,
  done: Partial<Record<Tier, number>> = store.checks.claimsDone(record.id),
): Check {
  const { organizationId: _organization, unitPrices: _prices, ...check } = record
  return {
    ...check,
    progress: { claimsDone: Object.fromEntries(record.tiers.map((tier) => [tier, done[tier] ?? 0])) },
    webhook: webhookView(store, record),
  }
}

/// The report of a check, assembled from one consistent read of the store.
export function reportView(store: Store, record: CheckRecord): Report {
  return store.snapshot(() => {
    const text = store.documents.text(record.documentId)
    const results = store.results.forCheck(record.id)
    const verdicts: Record<string, number> = {}
    const done: Partial<Record<Tier, number>> = Object.fromEntries(record.tiers.map((tier) => [tier, 0]))
    const claims: Claim[] = store.documents.claims(record.documentId).map((claim) => {
      const consensus = results.consensus.get(claim.id) ?? {}
      for (const [tier, entry] of Object.entries(consensus) as [Tier, { verdict: string }][]) {
        done[tier] = (done[tier] ?? 0) + 1
        verdicts[entry.verdict] = (verdicts[entry.verdict] ?? 0) + 1
      }
      const partConsensus = results.partConsensus.get(claim.id) ?? {}
      return {
        claimId: claim.id,
        text: claim.text,
        charStart: claim.charStart,
        charEnd: claim.charEnd,
        statement: claim.statement,
        parts:
          claim.parts?.map((statement, index) => ({
            statement,
            consensus: Object.fromEntries(
              Object.entries(partConsensus).flatMap(([tier, parts]) =>
                parts[index] ? [[tier, parts[index]]] : [],
              ),
            ),
          })) ?? null,
        carriedFrom: results.carriedFrom.get(claim.id) ?? null,
        evaluations: results.evaluations.get(claim.id) ?? [],
        consensus,
        issues: results.issues.get(claim.id) ?? [],
      }
    })
    const check = checkView(store, record, done)
    const tokens = store.results.tokens(record.id)
    const panel = store.units.panelSizes(record.id, JUDGE_UNIT)
    return { check, text, claims, summary: { claimCount: claims.length, done, verdicts, tokens }, panel }
  })
}

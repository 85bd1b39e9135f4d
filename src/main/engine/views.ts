import type { Check, Claim, Report, Tier, WebhookDelivery } from '../../shared/schemas'
import type { CheckRecord } from './store/checks'
import type { Store } from './store'
import { JUDGE_UNIT } from './tiers/tier'

/// The `webhook` member of a check: null without a `callbackUrl`; `waiting` until the check ends; then the
/// delivery of its event (`pending` while attempts go on, `delivered`, `failed`) with every attempt; `skipped`
/// when it ended without an event (cancelled).
function webhookView(store: Store, record: CheckRecord): WebhookDelivery | null {
  if (record.callbackUrl === null) return null
  const event = store.outbox.forCheck(record.id)
  if (!event) {
    const active = record.status === 'queued' || record.status === 'running'
    return {
      status: active ? 'waiting' : 'skipped',
      eventId: null,
      attempts: 0,
      lastAttemptAt: null,
      nextAttemptAt: null,
      log: [],
    }
  }
  return {
    status: event.status,
    eventId: event.id,
    attempts: event.attempts,
    lastAttemptAt: event.lastAttemptAt,
    nextAttemptAt: event.nextAttemptAt,
    log: store.outbox.attempts(event.id),
  }
}

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

import type { Check, Claim, Report, Tier, WebhookDelivery } from '../../../shared/schemas'
import type { CheckRecord } from '../store/checks'
import type { ClaimRecord } from '../store/documents'
import type { CheckResults } from '../store/results'
import type { Store } from '../store'
import { JUDGE_UNIT } from '../tiers/tier'

/// The `webhook` member of a check: null without a `callbackUrl`; `waiting` until the check ends; then the
/// delivery of its event (`pending` while attempts go on, `delivered`, `failed`) with every attempt; `skipped`
/// when it ended without an event (cancelled).
async function webhookView(store: Store, record: CheckRecord): Promise<WebhookDelivery | null> {
  if (record.callbackUrl === null) return null
  const event = await store.outbox.forCheck(record.id)
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
    log: await store.outbox.attempts(event.id),
  }
}

/// The public shape of a check: the stored record with its progress per tier (counted here unless the caller
/// has counted it already) and its webhook's delivery.
export async function checkView(
  store: Store,
  record: CheckRecord,
  counted?: Partial<Record<Tier, number>>,
): Promise<Check> {
  const done = counted ?? (await store.checks.claimsDone(record.id))
  const { organizationId: _organization, unitPrices: _prices, sourcePolicy: _policy, ...check } = record
  return {
    ...check,
    progress: { claimsDone: Object.fromEntries(record.tiers.map((tier) => [tier, done[tier] ?? 0])) },
    webhook: await webhookView(store, record),
  }
}

/// The report of a check, assembled from one consistent read of the store.
export async function reportView(store: Store, record: CheckRecord): Promise<Report> {
  return await store.snapshot(async (tx) => {
    const text = await tx.documents.text(record.documentId)
    const results = await tx.results.forCheck(record.id)
    const tally = new ReportTally(record.tiers)
    const claims = (await tx.documents.claims(record.documentId)).map((claim) => {
      const view = claimView(claim, results)
      tally.add(view, null)
      return view
    })
    const check = await checkView(tx, record, tally.done)
    const tokens = await tx.results.tokens(record.id)
    return {
      check,
      text,
      claims,
      summary: tally.summary(claims.length, tokens),
      panel: await panelOf(tx, record),
      sources: record.sourcePolicy ?? null,
    }
  })
}

/// One claim of a report, with what the check found on it.
export function claimView(claim: ClaimRecord, results: CheckResults): Claim {
  const consensus = results.consensus.get(claim.id) ?? {}
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
}

/// A report's panel: the models that vote in each tier.
export const panelOf = async (store: Store, record: CheckRecord): Promise<Report['panel']> =>
  await store.units.panelSizes(record.id, JUDGE_UNIT)

/// What a report's counts read of a claim: its verdict in each tier.
export interface Decided {
  consensus: Partial<Record<Tier, { verdict: string }>>
}

/// The part of `claim` a report's counts read, without the rest of its consensus.
export const decided = (claim: Decided): Decided => ({
  consensus: Object.fromEntries(
    Object.entries(claim.consensus).map(([tier, entry]) => [tier, { verdict: entry.verdict }]),
  ),
})

/// A report's counts of claims decided per tier and of verdicts, kept as claims come, go and change.
export class ReportTally {
  readonly done: Partial<Record<Tier, number>>
  private readonly verdicts = new Map<string, number>()

  constructor(tiers: readonly Tier[]) {
    this.done = Object.fromEntries(tiers.map((tier) => [tier, 0]))
  }

  /// Counts `claim` in place of `replaced`, its earlier view (null for a claim not counted yet).
  add(claim: Decided, replaced: Decided | null): void {
    if (replaced) this.count(replaced, -1)
    this.count(claim, 1)
  }

  /// The summary of a report of `claimCount` claims that spent `tokens`; its verdicts in alphabetical order.
  summary(claimCount: number, tokens: { input: number; output: number }): Report['summary'] {
    const verdicts = Object.fromEntries(
      [...this.verdicts].filter(([, count]) => count > 0).sort(([a], [b]) => (a < b ? -1 : 1)),
    )
    return { claimCount, done: { ...this.done }, verdicts, tokens }
  }

  private count(claim: Decided, sign: 1 | -1): void {
    for (const [tier, entry] of Object.entries(claim.consensus) as [Tier, { verdict: string }][]) {
      this.done[tier] = (this.done[tier] ?? 0) + sign
      this.verdicts.set(entry.verdict, (this.verdicts.get(entry.verdict) ?? 0) + sign)
    }
  }
}

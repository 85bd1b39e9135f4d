import { createHash } from 'node:crypto'
import type { Verdict, VerdictDetail } from '../../../shared/schemas'
import type { Db } from './database'

/// A panel model's vote as the cache keeps it.
export interface CachedVote {
  verdict: Verdict
  /// Which kind of misleading or unverifiable the model said it is (null for a vote cached before kinds were).
  detail: VerdictDetail | null
  confidence: number
  rationale: string
  /// When the model gave it; the cache serves it for 24 hours from then.
  createdAt: string
}

interface Row {
  verdict: Verdict
  detail: VerdictDetail | null
  confidence: number
  rationale: string
  created_at: string
}

/// What a vote was given on: a claim's statement (context null), or a claim checked as its words with the
/// sentences around them, a digest of those as its context.
export interface VotedClaim {
  text: string
  context: string | null
}

/// Statements that differ only in surrounding or repeated whitespace are the same claim; the same words in
/// another context are another.
const claimHash = ({ text, context }: VotedClaim): string =>
  createHash('sha256')
    .update(text.trim().replace(/\s+/g, ' ') + (context === null ? '' : `\n${context}`))
    .digest('hex')

/// Panel votes by organization, model and claim as checked (its statement, references resolved; or its words in
/// their context): identical claims within 24 hours cost no model call.
export class VoteCache {
  constructor(
    private readonly db: Db,
    /// Runs a write with the others that land in the same turn, over the vote cache of their transaction.
    private readonly batched: (work: (cache: VoteCache) => Promise<void>) => Promise<void>,
  ) {}

  /// The model's vote on this claim given at or after `since`, or null.
  async get(
    organizationId: string,
    modelKey: string,
    claim: VotedClaim,
    since: string,
  ): Promise<CachedVote | null> {
    const row = (await this.db
      .prepare(
        `SELECT verdict, detail, confidence, rationale, created_at FROM vote_cache
         WHERE organization_id = ? AND model_key = ? AND claim_hash = ? AND created_at >= ?`,
      )
      .get(organizationId, modelKey, claimHash(claim), since)) as Row | undefined
    return row
      ? {
          verdict: row.verdict,
          detail: row.detail,
          confidence: row.confidence,
          rationale: row.rationale,
          createdAt: row.created_at,
        }
      : null
  }

  /// Keeps a vote a model has just given, replacing an older one for the same claim: written with the other
  /// writes that land with it (a batch's votes), and not at all if that fails (the model is asked again).
  put(organizationId: string, modelKey: string, claim: VotedClaim, vote: CachedVote): void {
    const hash = claimHash(claim)
    void this.batched((cache) => cache.write(organizationId, modelKey, hash, vote)).catch(() => undefined)
  }

  private async write(
    organizationId: string,
    modelKey: string,
    hash: string,
    vote: CachedVote,
  ): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO vote_cache
           (organization_id, model_key, claim_hash, verdict, detail, confidence, rationale, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (organization_id, model_key, claim_hash) DO UPDATE SET
           verdict = excluded.verdict, detail = excluded.detail, confidence = excluded.confidence,
           rationale = excluded.rationale, created_at = excluded.created_at`,
      )
      .run(
        organizationId,
        modelKey,
        hash,
        vote.verdict,
        vote.detail,
        vote.confidence,
        vote.rationale,
        vote.createdAt,
      )
  }

  /// Forgets votes given before `before`.
  async prune(before: string): Promise<number> {
    return (await this.db.prepare('DELETE FROM vote_cache WHERE created_at < ?').run(before)).changes
  }
}

import type {
  Citation,
  Consensus,
  Evaluation,
  Fallback,
  TextIssue,
  Tier,
  TokenUsage,
} from '../../../shared/schemas'
import { storedCitation, withStances } from '../../../shared/citations'
import { jsonStrings, sql, type Db } from './database'

interface EvaluationRow {
  claim_id: string
  tier: Tier
  model: string
  verdict: Evaluation['verdict']
  confidence: number
  rationale: string
  citations: string
  created_at: string
  cached: number
  input_tokens: number | null
  output_tokens: number | null
  round: number
  detail: Evaluation['detail']
}

/// A panel model's vote as its judge reads it: with its votes on each part of a multi-fact claim (else null).
export type PanelVote = Evaluation & { parts: Evaluation[] | null }

const EVALUATION_COLUMNS =
  'claim_id, tier, model, round, verdict, detail, confidence, rationale, citations, created_at, cached, input_tokens, output_tokens'

const toCitations = (json: string): Citation[] => (JSON.parse(json) as Citation[]).map(storedCitation)

const toEvaluation = (row: EvaluationRow): Evaluation => ({
  tier: row.tier,
  model: row.model,
  verdict: row.verdict,
  detail: row.detail,
  confidence: row.confidence,
  rationale: row.rationale,
  citations: toCitations(row.citations),
  createdAt: row.created_at,
  cached: row.cached === 1,
  usage:
    row.input_tokens === null || row.output_tokens === null
      ? null
      : { inputTokens: Number(row.input_tokens), outputTokens: Number(row.output_tokens) },
  round: row.round,
})

interface ConsensusRow {
  claim_id: string
  tier: Tier
  verdict: Consensus['verdict']
  confidence: number
  agreement: number
  reasoning: string
  citations: string
  correction: string | null
  decided_at: string
  detail: Consensus['detail']
  sourced: number
  sources: number
  decided_by: Consensus['decidedBy']
  calibrated_confidence: number | null
  fallbacks: string
  parts: string | null
  carried_from: string | null
}

interface IssueRow {
  claim_id: string
  char_start: number
  char_end: number
  message: string
  suggestions: string
  rule: string
}

/// Everything a check has found, per claim id.
export interface CheckResults {
  evaluations: Map<string, Evaluation[]>
  consensus: Map<string, Partial<Record<Tier, Consensus>>>
  /// The consensus on each part of a multi-fact claim, per tier, in the claim's parts' order.
  partConsensus: Map<string, Partial<Record<Tier, Consensus[]>>>
  issues: Map<string, TextIssue[]>
  /// The check each carried claim's results come from.
  carriedFrom: Map<string, string>
}

/// A query's condition to the claims `claimIds` (none when null), and its parameter.
const ofClaims = (db: Db, claimIds: readonly string[] | null) =>
  claimIds === null
    ? { sql: '', params: [] }
    : { sql: ` AND claim_id IN (${jsonStrings(db)})`, params: [JSON.stringify(claimIds)] }

/// `claims.document_id` in a condition SQLite must not answer through the claims' document index (`+`, its
/// way of saying so: the claims are found by their ids, and the index would read the whole document's). PostgreSQL
/// has no such hint (`+` is no operator on text there): its planner weighs the indexes itself.
const NOT_BY_DOCUMENT = (db: Db): string => sql(db, { sqlite: '+document_id', postgres: 'document_id' })

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

/// Per-model evaluations, per-tier consensus and spelling issues of checks' claims.
export class Results {
  constructor(private readonly db: Db) {}

  /// Records a model's vote, with its votes on each part of a multi-fact claim. The primary key makes a second
  /// vote of the same model on the same claim-tier and round fail, so a unit re-run after a crash can never
  /// count twice.
  async addEvaluation(
    checkId: string,
    claimId: string,
    evaluation: Evaluation,
    parts: Evaluation[] | null = null,
  ): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO evaluations (check_id, claim_id, tier, model, round, verdict, detail, confidence, rationale,
           citations, created_at, cached, input_tokens, output_tokens, parts)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        checkId,
        claimId,
        evaluation.tier,
        evaluation.model,
        evaluation.round,
        evaluation.verdict,
        evaluation.detail,
        evaluation.confidence,
        evaluation.rationale,
        JSON.stringify(evaluation.citations),
        evaluation.createdAt,
        evaluation.cached ? 1 : 0,
        evaluation.usage?.inputTokens ?? null,
        evaluation.usage?.outputTokens ?? null,
        parts === null ? null : JSON.stringify(parts),
      )
  }

  /// Records a claim-tier's consensus, with the tokens its judge spent when there was one and the consensus on
  /// each part of a multi-fact claim.
  async setConsensus(
    checkId: string,
    claimId: string,
    tier: Tier,
    consensus: Consensus,
    usage: TokenUsage | null = null,
    parts: Consensus[] | null = null,
  ): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO consensus (check_id, claim_id, tier, verdict, confidence, agreement, reasoning, citations, correction, decided_at,
           detail, sourced, sources, decided_by, calibrated_confidence, fallbacks, input_tokens, output_tokens, parts)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        checkId,
        claimId,
        tier,
        consensus.verdict,
        consensus.confidence,
        consensus.agreement,
        consensus.reasoning,
        JSON.stringify(consensus.citations),
        consensus.correction,
        consensus.decidedAt,
        consensus.detail,
        consensus.sourced ? 1 : 0,
        consensus.sources,
        consensus.decidedBy,
        consensus.calibratedConfidence,
        JSON.stringify(consensus.fallbacks),
        usage?.inputTokens ?? null,
        usage?.outputTokens ?? null,
        parts === null ? null : JSON.stringify(parts),
      )
  }

  /// Gives the claim-tier's votes the stances judged for their citations (by URL and quote); on a multi-fact
  /// claim each part's votes those judged toward that part.
  async judgeVoteCitations(
    checkId: string,
    claimId: string,
    tier: Tier,
    stances: readonly Citation[],
    partStances: readonly Citation[][] | null,
  ): Promise<void> {
    const update = this.db.prepare(
      `UPDATE evaluations SET citations = ?, parts = ?
       WHERE check_id = ? AND claim_id = ? AND tier = ? AND model = ? AND round = ?`,
    )
    for (const vote of await this.votes(checkId, claimId, tier)) {
      const parts = vote.parts?.map((part, index) => ({
        ...part,
        citations: withStances(part.citations, partStances?.[index] ?? stances),
      }))
      await update.run(
        JSON.stringify(withStances(vote.citations, stances)),
        parts ? JSON.stringify(parts) : null,
        checkId,
        claimId,
        tier,
        vote.model,
        vote.round,
      )
    }
  }

  /// The votes on one claim-tier of a check, in the order they landed.
  async votes(checkId: string, claimId: string, tier: Tier): Promise<PanelVote[]> {
    const rows = (await this.db
      .prepare(
        `SELECT ${EVALUATION_COLUMNS}, parts FROM evaluations
         WHERE check_id = ? AND claim_id = ? AND tier = ? ORDER BY created_at, model`,
      )
      .all(checkId, claimId, tier)) as (EvaluationRow & { parts: string | null })[]
    return rows.map((row) => ({
      ...toEvaluation(row),
      parts: row.parts === null ? null : (JSON.parse(row.parts) as Evaluation[]),
    }))
  }

  /// How many consensus entries of the check reached each verdict, every tier counted.
  async verdicts(checkId: string): Promise<Record<string, number>> {
    const rows = (await this.db
      .prepare(
        'SELECT verdict, COUNT(*) AS count FROM consensus WHERE check_id = ? GROUP BY verdict ORDER BY verdict',
      )
      .all(checkId)) as { verdict: string; count: number }[]
    return Object.fromEntries(rows.map((row) => [row.verdict, Number(row.count)]))
  }

  /// Model tokens a check spent: its votes, its judges' consensus (t3's with its research) and the resolving of
  /// its claims into statements.
  async tokens(checkId: string): Promise<{ input: number; output: number }> {
    let input = 0
    let output = 0
    for (const spent of (await this.tokensByClaim(checkId)).values()) {
      input += spent.input
      output += spent.output
    }
    return { input, output }
  }

  /// The tokens of `tokens` per claim, of every claim or of `claimIds` only; a claim that spent none is absent.
  /// Carried votes and consensus were spent by the check they come from.
  async tokensByClaim(
    checkId: string,
    claimIds: readonly string[] | null = null,
  ): Promise<Map<string, { input: number; output: number }>> {
    const only = ofClaims(this.db, claimIds)
    // Given claims are found by their ids: by the document, every page of a long report would read all of them.
    const resolved =
      claimIds === null
        ? `SELECT c.id, c.resolver_input_tokens, c.resolver_output_tokens
           FROM claims c JOIN checks k ON k.document_id = c.document_id WHERE k.id = ?`
        : `SELECT id, resolver_input_tokens, resolver_output_tokens FROM claims
           WHERE id IN (${jsonStrings(this.db)}) AND ${NOT_BY_DOCUMENT(this.db)} = (SELECT document_id FROM checks WHERE id = ?)`
    const rows = (await this.db
      .prepare(
        `SELECT claim_id, SUM(input) AS input, SUM(output) AS output FROM (
           SELECT claim_id, input_tokens AS input, output_tokens AS output FROM evaluations
           WHERE check_id = ? AND carried_from IS NULL${only.sql}
           UNION ALL
           SELECT claim_id, input_tokens, output_tokens FROM consensus
           WHERE check_id = ? AND carried_from IS NULL${only.sql}
           UNION ALL
           ${resolved}) AS spent
         GROUP BY claim_id HAVING SUM(input) IS NOT NULL OR SUM(output) IS NOT NULL`,
      )
      .all(checkId, ...only.params, checkId, ...only.params, ...only.params, checkId)) as {
      claim_id: string
      input: number | null
      output: number | null
    }[]
    return new Map(
      rows.map((row) => [row.claim_id, { input: Number(row.input ?? 0), output: Number(row.output ?? 0) }]),
    )
  }

  async addIssues(checkId: string, claimId: string, issues: readonly TextIssue[]): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO claim_issues (check_id, claim_id, position, char_start, char_end, message, suggestions, rule)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    for (const [position, issue] of issues.entries())
      await insert.run(
        checkId,
        claimId,
        position,
        issue.charStart,
        issue.charEnd,
        issue.message,
        JSON.stringify(issue.suggestions),
        issue.rule,
      )
  }

  /// Copies a claim's votes, consensus and (t1) issues in `tiers` from an earlier check to a re-check's unchanged
  /// claim, its issues moved with the claim; each names the check it was carried from.
  async carry(
    from: { checkId: string; claimId: string; charStart: number },
    to: { checkId: string; claimId: string; charStart: number },
    tiers: readonly Tier[],
  ): Promise<void> {
    const tierList = JSON.stringify(tiers)
    await this.db
      .prepare(
        `INSERT INTO evaluations (check_id, claim_id, tier, model, round, verdict, detail, confidence, rationale,
           citations, created_at, cached, input_tokens, output_tokens, parts, carried_from)
         SELECT ?, ?, tier, model, round, verdict, detail, confidence, rationale, citations, created_at, cached,
           input_tokens, output_tokens, parts, check_id
         FROM evaluations WHERE check_id = ? AND claim_id = ? AND tier IN (${jsonStrings(this.db)})`,
      )
      .run(to.checkId, to.claimId, from.checkId, from.claimId, tierList)
    await this.db
      .prepare(
        `INSERT INTO consensus (check_id, claim_id, tier, verdict, confidence, agreement, reasoning, citations,
           correction, decided_at, detail, sourced, sources, decided_by, calibrated_confidence, fallbacks,
           input_tokens, output_tokens, parts, carried_from)
         SELECT ?, ?, tier, verdict, confidence, agreement, reasoning, citations, correction, decided_at, detail,
           sourced, sources, decided_by, calibrated_confidence, fallbacks, input_tokens, output_tokens, parts,
           check_id
         FROM consensus WHERE check_id = ? AND claim_id = ? AND tier IN (${jsonStrings(this.db)})`,
      )
      .run(to.checkId, to.claimId, from.checkId, from.claimId, tierList)
    // What the kept verdicts were checked as (resolved once, its tokens counted by the earlier check).
    await this.db
      .prepare(
        `UPDATE claims SET (statement, parts) = (SELECT statement, parts FROM claims WHERE id = ?)
         WHERE id = ? AND statement IS NULL`,
      )
      .run(from.claimId, to.claimId)
    if (!tiers.includes('t1')) return
    await this.db
      .prepare(
        `INSERT INTO claim_issues (check_id, claim_id, position, char_start, char_end, message, suggestions, rule)
         SELECT ?, ?, position, char_start + ?, char_end + ?, message, suggestions, rule
         FROM claim_issues WHERE check_id = ? AND claim_id = ?`,
      )
      .run(
        to.checkId,
        to.claimId,
        to.charStart - from.charStart,
        to.charStart - from.charStart,
        from.checkId,
        from.claimId,
      )
  }

  /// Claim-tiers of the check that reached a consensus.
  async decided(checkId: string): Promise<{ claimId: string; tier: Tier }[]> {
    const rows = (await this.db
      .prepare('SELECT claim_id, tier FROM consensus WHERE check_id = ?')
      .all(checkId)) as {
      claim_id: string
      tier: Tier
    }[]
    return rows.map((row) => ({ claimId: row.claim_id, tier: row.tier }))
  }

  /// All results of a check, or of its claims `claimIds` only (a report's claims refreshed as they land), read
  /// with three indexed queries.
  async forCheck(checkId: string, claimIds: readonly string[] | null = null): Promise<CheckResults> {
    const results: CheckResults = {
      evaluations: new Map(),
      consensus: new Map(),
      partConsensus: new Map(),
      issues: new Map(),
      carriedFrom: new Map(),
    }
    const only = ofClaims(this.db, claimIds)
    const params = [checkId, ...only.params]
    const evaluations = (await this.db
      .prepare(
        `SELECT ${EVALUATION_COLUMNS} FROM evaluations WHERE check_id = ?${only.sql}
         ORDER BY created_at, tier, model, round`,
      )
      .all(...params)) as EvaluationRow[]
    for (const row of evaluations) push(results.evaluations, row.claim_id, toEvaluation(row))
    const consensus = (await this.db
      .prepare(
        `SELECT claim_id, tier, verdict, confidence, agreement, reasoning, citations, correction, decided_at, detail,
           sourced, sources, decided_by, calibrated_confidence, fallbacks, parts, carried_from
         FROM consensus WHERE check_id = ?${only.sql} ORDER BY claim_id, tier`,
      )
      .all(...params)) as ConsensusRow[]
    for (const row of consensus) {
      const entry = results.consensus.get(row.claim_id) ?? {}
      entry[row.tier] = {
        verdict: row.verdict,
        confidence: row.confidence,
        agreement: row.agreement,
        reasoning: row.reasoning,
        citations: toCitations(row.citations),
        correction: row.correction,
        decidedAt: row.decided_at,
        detail: row.detail,
        sourced: row.sourced === 1,
        sources: row.sources,
        decidedBy: row.decided_by,
        calibratedConfidence: row.calibrated_confidence,
        fallbacks: JSON.parse(row.fallbacks) as Fallback[],
      }
      results.consensus.set(row.claim_id, entry)
      if (row.parts !== null) {
        const parts = results.partConsensus.get(row.claim_id) ?? {}
        // A part decided before verdicts named their fallbacks has none.
        parts[row.tier] = (JSON.parse(row.parts) as Consensus[]).map((part) => ({
          ...part,
          fallbacks: part.fallbacks ?? [],
        }))
        results.partConsensus.set(row.claim_id, parts)
      }
      if (row.carried_from !== null) results.carriedFrom.set(row.claim_id, row.carried_from)
    }
    const issues = (await this.db
      .prepare(
        `SELECT claim_id, char_start, char_end, message, suggestions, rule FROM claim_issues
         WHERE check_id = ?${only.sql} ORDER BY claim_id, position`,
      )
      .all(...params)) as IssueRow[]
    for (const row of issues) {
      push(results.issues, row.claim_id, {
        charStart: row.char_start,
        charEnd: row.char_end,
        message: row.message,
        suggestions: JSON.parse(row.suggestions) as string[],
        rule: row.rule,
      })
    }
    return results
  }
}

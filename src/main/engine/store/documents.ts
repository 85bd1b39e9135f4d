import type { Tier, TokenUsage } from '../../../shared/schemas'
import type { Db } from './database'

/// A text as estimated or submitted, with the tiers it was quoted for.
export interface DocumentRecord {
  id: string
  organizationId: string
  text: string
  tiers: Tier[]
  /// The prices per claim of its tiers when it was quoted; null for a document from before they were kept.
  unitPrices: Partial<Record<Tier, number>> | null
  createdAt: string
  /// When an estimate not yet submitted expires; null for a submitted (or queued) document.
  expiresAt: string | null
}

/// A claim found in a document; offsets are UTF-16 indices into the document's text.
export interface ClaimRecord {
  id: string
  documentId: string
  text: string
  charStart: number
  charEnd: number
  /// The claim as the self-contained sentence that is checked; null until resolved.
  statement: string | null
  /// The atomic statements of a claim that states several facts; null for one fact (or unresolved).
  parts: string[] | null
  /// How the statement came to be; null until resolved.
  statementState: StatementState | null
}

/// How a claim's statement came to be, which says what is checked:
/// - `resolved`: the resolver's statement, checked alone;
/// - `unresolved`: the resolver failed on it (refused, never answered usefully, or kept a pronoun the document
///   may say the meaning of): the claim's words are checked with the sentences around them;
/// - `rejected`: the resolver's statement dropped what the claim says (a number, a name, most of its words) or
///   said something else: the claim's words are checked with the sentences around them;
/// - `unclear`: the statement still leans on a word the document never explains ("It" opening the text, or words
///   the resolver says it could not resolve): no model is asked, the claim is not checkable.
export type StatementState = 'resolved' | 'unresolved' | 'rejected' | 'unclear'

/// A claim resolved into what is checked, with the resolver's tokens for it (a batched request's share).
export interface Resolution {
  statement: string
  parts: string[] | null
  state: StatementState
  usage: TokenUsage | null
}

interface DocumentRow {
  id: string
  organization_id: string
  text: string
  tiers: string
  unit_prices: string | null
  created_at: string
  expires_at: string | null
}

export interface ClaimRow {
  id: string
  document_id: string
  text: string
  char_start: number
  char_end: number
  statement: string | null
  parts: string | null
  statement_state: StatementState | null
}

/// The columns of a ClaimRow, for a query on `claims` (named `alias` in it).
export const claimColumns = (alias = 'claims'): string =>
  ['id', 'document_id', 'text', 'char_start', 'char_end', 'statement', 'parts', 'statement_state']
    .map((column) => `${alias}.${column}`)
    .join(', ')

export const toClaim = (row: ClaimRow): ClaimRecord => ({
  id: row.id,
  documentId: row.document_id,
  text: row.text,
  charStart: Number(row.char_start),
  charEnd: Number(row.char_end),
  statement: row.statement,
  parts: row.parts === null ? null : (JSON.parse(row.parts) as string[]),
  statementState: row.statement_state,
})

/// An estimate not submitted (alias `d`), unless deep research was asked about one of its claims (the research
/// refers to it).
const UNSUBMITTED =
  'd.expires_at IS NOT NULL AND NOT EXISTS ' +
  '(SELECT 1 FROM research r JOIN claims c ON c.id = r.claim_id WHERE c.document_id = d.id)'

/// Told of a claim whose statement was resolved.
export type ResolvedListener = (claim: { id: string; documentId: string }) => void

/// Documents and their extracted claims: an estimate caches them so that the check reuses the same claims.
export class Documents {
  constructor(
    private readonly db: Db,
    /// Shared by the store's modules over every connection, so that a claim resolved in a transaction is told too.
    private readonly resolvedListeners: Set<ResolvedListener>,
  ) {}

  /// Calls `listener` with each claim resolved from now on: every report of its document changes (its statement,
  /// its resolver's tokens), whichever check or research run resolved it. Returns the function that stops it.
  onResolved(listener: ResolvedListener): () => void {
    this.resolvedListeners.add(listener)
    return () => this.resolvedListeners.delete(listener)
  }

  async insert(document: DocumentRecord, claims: readonly ClaimRecord[]): Promise<void> {
    await this.db
      .prepare(
        'INSERT INTO documents (id, organization_id, text, tiers, unit_prices, created_at, expires_at) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        document.id,
        document.organizationId,
        document.text,
        JSON.stringify(document.tiers),
        document.unitPrices === null ? null : JSON.stringify(document.unitPrices),
        document.createdAt,
        document.expiresAt,
      )
    const insertClaim = this.db.prepare(
      'INSERT INTO claims (id, document_id, text, char_start, char_end) VALUES (?, ?, ?, ?, ?)',
    )
    for (const claim of claims)
      await insertClaim.run(claim.id, document.id, claim.text, claim.charStart, claim.charEnd)
  }

  /// The document if it belongs to the organization; another organization's is as good as absent.
  async get(organizationId: string, id: string): Promise<DocumentRecord | null> {
    const row = (await this.db
      .prepare(
        'SELECT id, organization_id, text, tiers, unit_prices, created_at, expires_at FROM documents ' +
          'WHERE id = ? AND organization_id = ?',
      )
      .get(id, organizationId)) as DocumentRow | undefined
    return row
      ? {
          id: row.id,
          organizationId: row.organization_id,
          text: row.text,
          tiers: JSON.parse(row.tiers) as Tier[],
          unitPrices:
            row.unit_prices === null ? null : (JSON.parse(row.unit_prices) as Partial<Record<Tier, number>>),
          createdAt: row.created_at,
          expiresAt: row.expires_at,
        }
      : null
  }

  /// Keeps an estimate from expiring once it is submitted or queued; false when it has expired already.
  async keep(id: string): Promise<boolean> {
    return (await this.db.prepare('UPDATE documents SET expires_at = NULL WHERE id = ?').run(id)).changes > 0
  }

  /// Whether the organization's document `id` was an estimate that expired (and was deleted) lately.
  async expired(organizationId: string, id: string): Promise<boolean> {
    return (
      (await this.db
        .prepare('SELECT 1 FROM expired_documents WHERE id = ? AND organization_id = ?')
        .get(id, organizationId)) !== undefined
    )
  }

  /// When the next estimate expires, if any does.
  async nextExpiry(): Promise<string | null> {
    const row = (await this.db
      .prepare('SELECT MIN(expires_at) AS due FROM documents WHERE expires_at IS NOT NULL')
      .get()) as { due: string | null }
    return row.due
  }

  /// Deletes the estimates expired by `now` with their claims, keeping their ids so that a late submission is
  /// told it expired, until `forgetBefore`. An estimate whose claim deep research was asked about stays (the
  /// research refers to one). Answers how many expired.
  async expire(now: string, forgetBefore: string): Promise<number> {
    const due = (await this.db
      .prepare(`SELECT id, organization_id FROM documents d WHERE ${UNSUBMITTED} AND expires_at <= ?`)
      .all(now)) as { id: string; organization_id: string }[]
    await this.expireNow(due, now)
    await this.db.prepare('DELETE FROM expired_documents WHERE expired_at < ?').run(forgetBefore)
    return due.length
  }

  /// Expires the organization's unsubmitted estimates but the `kept` newest, as `expire` does: what one
  /// organization keeps for free is bounded. Answers how many expired.
  async expireOldest(organizationId: string, kept: number, now: string): Promise<number> {
    // All but the first `kept`: SQLite says so with LIMIT -1 OFFSET, PostgreSQL with LIMIT ALL; both with this.
    const due = (await this.db
      .prepare(
        `SELECT id, organization_id FROM documents d WHERE ${UNSUBMITTED} AND organization_id = ? AND id NOT IN (
           SELECT id FROM documents d WHERE ${UNSUBMITTED} AND organization_id = ? ORDER BY id DESC LIMIT ?)
         ORDER BY id DESC`,
      )
      .all(organizationId, organizationId, kept)) as { id: string; organization_id: string }[]
    await this.expireNow(due, now)
    return due.length
  }

  /// Deletes estimates with their claims, keeping their ids (see `expire`).
  private async expireNow(
    due: readonly { id: string; organization_id: string }[],
    now: string,
  ): Promise<void> {
    const deleteClaims = this.db.prepare('DELETE FROM claims WHERE document_id = ?')
    const deleteDocument = this.db.prepare('DELETE FROM documents WHERE id = ?')
    const remember = this.db.prepare(
      'INSERT INTO expired_documents (id, organization_id, expired_at) VALUES (?, ?, ?)',
    )
    for (const { id, organization_id } of due) {
      await deleteClaims.run(id)
      await deleteDocument.run(id)
      await remember.run(id, organization_id, now)
    }
  }

  async text(id: string): Promise<string> {
    const row = (await this.db.prepare('SELECT text FROM documents WHERE id = ?').get(id)) as
      { text: string } | undefined
    if (!row) throw new Error(`document ${id} is missing`)
    return row.text
  }

  /// The document's claims in text order.
  async claims(documentId: string): Promise<ClaimRecord[]> {
    const rows = (await this.db
      .prepare(`SELECT ${claimColumns()} FROM claims WHERE document_id = ? ORDER BY char_start, id`)
      .all(documentId)) as ClaimRow[]
    return rows.map(toClaim)
  }

  /// Up to `limit` of the document's claims in text order, after `after` (from the first when null): a long
  /// document's claims a page at a time.
  async claimsAfter(documentId: string, after: ClaimRecord | null, limit: number): Promise<ClaimRecord[]> {
    const rows = (await this.db
      .prepare(
        `SELECT ${claimColumns()} FROM claims WHERE document_id = ? AND (char_start, id) > (?, ?)
         ORDER BY char_start, id LIMIT ?`,
      )
      .all(documentId, after?.charStart ?? -1, after?.id ?? '', limit)) as ClaimRow[]
    return rows.map(toClaim)
  }

  async claim(id: string): Promise<ClaimRecord | null> {
    const row = (await this.db.prepare(`SELECT ${claimColumns()} FROM claims WHERE id = ?`).get(id)) as
      ClaimRow | undefined
    return row ? toClaim(row) : null
  }

  /// The tokens resolving the claim cost (its share of a batched request), when the resolver reported them.
  async resolverUsage(claimId: string): Promise<TokenUsage | null> {
    const row = (await this.db
      .prepare(
        'SELECT resolver_input_tokens AS input, resolver_output_tokens AS output FROM claims WHERE id = ?',
      )
      .get(claimId)) as { input: number | null; output: number | null } | undefined
    return row && row.input !== null && row.output !== null
      ? { inputTokens: Number(row.input), outputTokens: Number(row.output) }
      : null
  }

  /// Records what a claim is checked as. The first resolution stands: every unit of the claim checks the same
  /// statement, whichever process resolved it. False when the claim was resolved already.
  /// Stores the resolutions of claims resolved together in one transaction, and gives each claim as stored
  /// (another process may have resolved it first).
  async resolveAll(
    resolved: ReadonlyArray<{ claim: ClaimRecord; resolution: Resolution }>,
  ): Promise<ClaimRecord[]> {
    return await this.db.transaction(async (db) => {
      const documents = new Documents(db, this.resolvedListeners)
      const stored: ClaimRecord[] = []
      for (const { claim, resolution } of resolved) {
        await documents.resolve(claim.id, resolution)
        stored.push(
          (await documents.claim(claim.id)) ?? {
            ...claim,
            statement: resolution.statement,
            parts: resolution.parts,
            statementState: resolution.state,
          },
        )
      }
      return stored
    })
  }

  async resolve(claimId: string, resolution: Resolution): Promise<boolean> {
    const changed = (await this.db
      .prepare(
        `UPDATE claims SET statement = ?, parts = ?, statement_state = ?, resolver_input_tokens = ?,
           resolver_output_tokens = ?
         WHERE id = ? AND statement IS NULL RETURNING document_id`,
      )
      .get(
        resolution.statement,
        resolution.parts === null ? null : JSON.stringify(resolution.parts),
        resolution.state,
        resolution.usage?.inputTokens ?? null,
        resolution.usage?.outputTokens ?? null,
        claimId,
      )) as { document_id: string } | undefined
    if (!changed) return false
    for (const listener of this.resolvedListeners) listener({ id: claimId, documentId: changed.document_id })
    return true
  }
}

import type { DraftAnchor } from '../../../shared/schemas'
import type { Db } from './database'

/// A draft as stored: its text, the file it belongs to (if any) and the digest of that file's text as last
/// opened or saved, the last check tied to it and that check's claim anchors.
export interface DraftRecord {
  id: string
  organizationId: string
  title: string
  filePath: string | null
  text: string
  fileDigest: string | null
  lastCheckId: string | null
  anchors: DraftAnchor[]
  createdAt: string
  updatedAt: string
  openedAt: string
}

interface DraftRow {
  id: string
  organization_id: string
  title: string
  file_path: string | null
  text: string
  file_digest: string | null
  last_check_id: string | null
  anchors: string
  created_at: string
  updated_at: string
  opened_at: string
}

// A draft keeps whatever was typed, and the driver returns text cut at its first U+0000 and turns half of a
// surrogate pair into U+FFFD: its text, title and file path are stored as JSON strings, which escape both.
const encoded = (value: string): string => JSON.stringify(value)
const decoded = (stored: string): string => JSON.parse(stored) as string

const COLUMNS =
  'id, organization_id, title, file_path, text, file_digest, last_check_id, anchors, created_at, updated_at, opened_at'

const toDraft = (row: DraftRow): DraftRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  title: decoded(row.title),
  filePath: row.file_path === null ? null : decoded(row.file_path),
  text: decoded(row.text),
  fileDigest: row.file_digest,
  lastCheckId: row.last_check_id,
  anchors: JSON.parse(row.anchors) as DraftAnchor[],
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  openedAt: row.opened_at,
})

/// The changes one save makes to a draft; absent members stay as they are.
export type DraftChanges = Partial<
  Pick<DraftRecord, 'title' | 'filePath' | 'text' | 'fileDigest' | 'lastCheckId' | 'anchors' | 'openedAt'>
> & { updatedAt: string }

const CHANGED_COLUMNS: Record<Exclude<keyof DraftChanges, 'updatedAt'>, string> = {
  title: 'title',
  filePath: 'file_path',
  text: 'text',
  fileDigest: 'file_digest',
  lastCheckId: 'last_check_id',
  anchors: 'anchors',
  openedAt: 'opened_at',
}

/// The members kept as JSON: the anchors, and the texts (see `encoded`).
const STORED_AS_JSON = new Set<keyof DraftChanges>(['anchors', 'title', 'filePath', 'text'])

/// The organization's drafts.
export class Drafts {
  constructor(private readonly db: Db) {}

  async insert(draft: DraftRecord): Promise<void> {
    await this.db
      .prepare(`INSERT INTO drafts (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(
        draft.id,
        draft.organizationId,
        encoded(draft.title),
        draft.filePath === null ? null : encoded(draft.filePath),
        encoded(draft.text),
        draft.fileDigest,
        draft.lastCheckId,
        JSON.stringify(draft.anchors),
        draft.createdAt,
        draft.updatedAt,
        draft.openedAt,
      )
  }

  /// The draft if it belongs to the organization.
  async get(organizationId: string, id: string): Promise<DraftRecord | null> {
    const row = (await this.db
      .prepare(`SELECT ${COLUMNS} FROM drafts WHERE id = ? AND organization_id = ?`)
      .get(id, organizationId)) as DraftRow | undefined
    return row ? toDraft(row) : null
  }

  /// The organization's draft of a file, if it has one.
  async byFile(organizationId: string, filePath: string): Promise<DraftRecord | null> {
    const row = (await this.db
      .prepare(`SELECT ${COLUMNS} FROM drafts WHERE organization_id = ? AND file_path = ?`)
      .get(organizationId, encoded(filePath))) as DraftRow | undefined
    return row ? toDraft(row) : null
  }

  /// The most recently opened drafts first.
  async recent(organizationId: string, limit: number): Promise<DraftRecord[]> {
    const rows = (await this.db
      .prepare(
        `SELECT ${COLUMNS} FROM drafts WHERE organization_id = ? ORDER BY opened_at DESC, id DESC LIMIT ?`,
      )
      .all(organizationId, limit)) as DraftRow[]
    return rows.map(toDraft)
  }

  /// How many drafts the organization keeps, and the bytes their texts take in the store (octet_length reads
  /// only the stored length, not the texts).
  async usage(organizationId: string): Promise<{ drafts: number; bytes: number }> {
    const row = (await this.db
      .prepare(
        'SELECT COUNT(*) AS drafts, COALESCE(SUM(octet_length(text)), 0) AS bytes FROM drafts WHERE organization_id = ?',
      )
      .get(organizationId)) as { drafts: number; bytes: number }
    return { drafts: Number(row.drafts), bytes: Number(row.bytes) }
  }

  async update(id: string, changes: DraftChanges): Promise<void> {
    const sets = ['updated_at = ?']
    const values: unknown[] = [changes.updatedAt]
    for (const [key, column] of Object.entries(CHANGED_COLUMNS) as [keyof typeof CHANGED_COLUMNS, string][]) {
      const value = changes[key]
      if (value === undefined) continue
      sets.push(`${column} = ?`)
      values.push(STORED_AS_JSON.has(key) && value !== null ? JSON.stringify(value) : value)
    }
    await this.db.prepare(`UPDATE drafts SET ${sets.join(', ')} WHERE id = ?`).run(...values, id)
  }
}

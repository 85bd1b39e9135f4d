import type { Db, Listen, Notifications } from './database'
import { EVENTS_LOCK } from './postgres'

/// The channel a team server's replicas are told of new events on: its payload is the last id appended.
export const EVENTS_CHANNEL = 'factdesk_events'

/// An event as stored: its id (ids only grow, in the order the events were appended, on every replica), its
/// organization and its body (the organization's `ReportUpdate` as JSON).
export interface StoredEvent {
  id: number
  organizationId: string
  body: string
}

/// The report events in the order they happened (base/events.ts's `ReportEvents` on a team server): appended by
/// every replica, read back by each from the last id it read, and pruned.
export class Events {
  constructor(
    private readonly db: Db,
    private readonly listenTo: Listen | null,
  ) {}

  /// Appends `events` in the order given, created `at`; gives their ids, in the same order. On PostgreSQL in one
  /// statement that takes the events' lock first, so that ids are committed in the order they are given out
  /// (one replica's append waits for another's to commit), and NOTIFYs `EVENTS_CHANNEL` with the last id when it
  /// commits: a reader that goes on from the last id it read skips none.
  async append(events: readonly { organizationId: string; body: string }[], at: string): Promise<number[]> {
    if (events.length === 0) return []
    if (this.db.dialect === 'postgres') {
      const rows = (await this.db
        .prepare(
          // The lock's CTE joins every row to insert: it is taken before the first id is drawn. A volatile
          // default (the identity's nextval) is evaluated after the sort, in the rows' order.
          `WITH locked AS (SELECT pg_advisory_xact_lock(?, ?)),
           inserted AS (
             INSERT INTO events (organization_id, body, created_at)
             SELECT appended.organization_id, appended.body, ?
             FROM locked, unnest(?::text[], ?::text[]) WITH ORDINALITY AS appended (organization_id, body, n)
             ORDER BY appended.n
             RETURNING id
           ),
           notified AS (SELECT pg_notify(?, MAX(id)::text) FROM inserted)
           SELECT inserted.id FROM inserted, notified ORDER BY inserted.id`,
        )
        .all(
          ...EVENTS_LOCK,
          at,
          events.map((event) => event.organizationId),
          events.map((event) => event.body),
          EVENTS_CHANNEL,
        )) as { id: number }[]
      return rows.map((row) => row.id)
    }
    return await this.db.transaction(async (db) => {
      const insert = db.prepare(
        'INSERT INTO events (organization_id, body, created_at) VALUES (?, ?, ?) RETURNING id',
      )
      const ids: number[] = []
      for (const event of events) {
        const row = (await insert.get(event.organizationId, event.body, at)) as { id: number }
        ids.push(row.id)
      }
      return ids
    })
  }

  /// Up to `limit` events after id `id`, oldest first: all organizations', or `organizationId`'s only.
  async after(id: number, limit: number, organizationId?: string): Promise<StoredEvent[]> {
    const rows = (
      organizationId === undefined
        ? await this.db
            .prepare('SELECT id, organization_id, body FROM events WHERE id > ? ORDER BY id LIMIT ?')
            .all(id, limit)
        : await this.db
            .prepare(
              `SELECT id, organization_id, body FROM events WHERE organization_id = ? AND id > ?
               ORDER BY id LIMIT ?`,
            )
            .all(organizationId, id, limit)
    ) as { id: number; organization_id: string; body: string }[]
    return rows.map((row) => ({ id: row.id, organizationId: row.organization_id, body: row.body }))
  }

  /// The first and the last id kept; both null before the first event.
  async bounds(): Promise<{ first: number | null; last: number | null }> {
    const row = (await this.db.prepare('SELECT MIN(id) AS first, MAX(id) AS last FROM events').get()) as {
      first: number | null
      last: number | null
    }
    return { first: row.first, last: row.last }
  }

  /// Deletes the events before the first one created at `before` or later, and beyond the latest `keep`, but
  /// never the latest one (it tells which ids were given). Always a run of the oldest: what is kept follows on
  /// from the first id kept without a hole, so that a reader after an older id can tell it missed some.
  async prune(before: string, keep: number): Promise<number> {
    const id = async (sql: string, ...params: unknown[]): Promise<number | null> =>
      ((await this.db.prepare(sql).get(...params)) as { id: number | null } | undefined)?.id ?? null
    const last = await id('SELECT MAX(id) AS id FROM events')
    if (last === null) return 0
    const recent = await id('SELECT id FROM events WHERE created_at >= ? ORDER BY id LIMIT 1', before)
    const kept = await id('SELECT id FROM events ORDER BY id DESC LIMIT 1 OFFSET ?', keep - 1)
    const from = Math.max(recent ?? last, kept ?? 0)
    return (await this.db.prepare('DELETE FROM events WHERE id < ?').run(from)).changes
  }

  /// Calls `appended` whenever another process may have appended events, and each time the listening connection
  /// came back after it was lost (notifications sent meanwhile are lost: read from the last id read); null where
  /// no other process appends (SQLite: one process per data folder).
  async listen(appended: () => void): Promise<Notifications | null> {
    return this.listenTo ? await this.listenTo(EVENTS_CHANNEL, appended) : null
  }
}

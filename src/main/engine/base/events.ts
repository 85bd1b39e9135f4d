import { randomBytes } from 'node:crypto'
import { EventEmitter } from 'node:events'
import type { EngineUpdate, ReportUpdate } from '../../../shared/api'
import type { Check } from '../../../shared/schemas'
import { hasEnded } from '../../../shared/vocabulary'
import type { Clock } from './clock'

/// A change to a report or to a deep research run, as it happens, with the organization it belongs to: the IPC
/// layer and the server's event stream subscribe to these and pass on the `ReportUpdate` to that organization's
/// pages only.
export type ReportEvent = EngineUpdate & { organizationId: string }

/// The page's copy of an event: the organization stays with the server or the main process.
export function toUpdate(event: ReportEvent): ReportUpdate {
  if (event.type === 'check') return { type: 'check', check: event.check }
  const { organizationId: _organization, ...update } = event
  return update
}

/// An event with its id, and its place in the stream (later events have greater ones). In one process's stream
/// (SQLite) the id is the stream's name and the event's number in it (`"3f9a02c1-1207"`); on a team server it is
/// the event's row in the database (`"1207"`), the same on every replica. A client that reconnects names the last
/// id it heard (SSE's `Last-Event-ID`) to be sent what it missed (`since`).
export interface NumberedEvent {
  id: string
  seq: number
  event: ReportEvent
}

/// Where report changes can be heard, without ids: the engine's `ReportEvents`, or a remote service's updates.
export interface ReportSource {
  subscribe(listener: (event: ReportEvent) => void): () => void
}

/// How many of the latest events, at least, one process's stream keeps for streams that reconnect (at most twice
/// as many are held, as the list is trimmed in batches).
export const RECENT_EVENTS = 2000

/// How long a team server keeps its events for streams that reconnect, and how many of them at most.
export const SHARED_EVENTS_KEPT = { ms: 24 * 3600_000, count: 100_000 }

/// The most events a stream that reconnects is sent before the live ones; beyond, it is told to read again.
export const REPLAY_LIMIT = 10_000

/// How many of the checks it heard end a process remembers, to tell none of them as running again: far more than
/// end within the time a check's last progress takes to read (a few queries).
const ENDED_CHECKS_KEPT = 10_000

/// How a log hands events to the engine's subscribers: each change as soon as this process knows of it (its own
/// when emitted, another replica's when read), and each change with its id, in the log's order.
interface Deliver {
  change(event: ReportEvent): void
  numbered(event: ReportEvent, id: string, seq: number): void
}

/// Where an engine's events are numbered and kept for streams that reconnect.
interface EventLog {
  /// Numbers `event` and delivers it: at once, or once stored and read back in the order of all replicas.
  append(event: ReportEvent): void
  /// The events after the one named `lastId` (of `organizationId` only, when given), oldest first; null when that
  /// cannot be told: not one of this log's ids, or events after it are no longer kept.
  since(lastId: string, organizationId?: string): Promise<NumberedEvent[] | null>
  /// Gets ready to deliver (a shared log listens to the other replicas).
  start?(): Promise<void>
  /// Stores what was appended and stops.
  close(): Promise<void>
}

/// The table a team server's events are stored in (the store's `events`), as the shared log uses it.
export interface EventTable {
  append(events: readonly { organizationId: string; body: string }[], at: string): Promise<number[]>
  after(
    id: number,
    limit: number,
    organizationId?: string,
  ): Promise<{ id: number; organizationId: string; body: string }[]>
  bounds(): Promise<{ first: number | null; last: number | null }>
  prune(before: string, keep: number): Promise<number>
  listen(appended: () => void): Promise<{ close(): Promise<void> } | null>
}

/// The engine's typed event stream of report changes and research progress. On a data folder's SQLite the events
/// are numbered and kept in this process (one process per folder: nothing else writes them); on a team server's
/// PostgreSQL (`ReportEvents.shared`) they go through the database's `events` table, so that every replica hears
/// what every replica emits, in one order, under ids they all share.
///
/// Two ways to listen: `subscribe` hears each change as soon as this process knows of it (what it emits at once,
/// as on SQLite, so that what a request changed shows in the next read of the same replica), and `numbered`
/// (`follow` for a stream that reconnects) hears each change with its id, in the order every replica hears it.
/// In one process both hear the same changes at the same moment.
export class ReportEvents {
  private readonly emitter = new EventEmitter()
  private readonly log: EventLog
  /// The latest checks this process heard end, its own and other replicas', oldest first (`ENDED_CHECKS_KEPT`).
  private readonly endedChecks = new Set<string>()

  /// One process's stream, unless `openLog` makes another log.
  constructor(openLog: (deliver: Deliver) => EventLog = (deliver) => new MemoryLog(deliver)) {
    // Every open editor window or event-stream client is one listener.
    this.emitter.setMaxListeners(0)
    this.log = openLog({
      change: (event) => {
        this.heardEnd(event)
        this.emitter.emit('change', event)
      },
      numbered: (event, id, seq) => this.emitter.emit('numbered', event, id, seq),
    })
  }

  /// The stream of a team server: events stored in `table`, heard from every replica. Resolves once listening.
  static async shared(table: EventTable, clock: Clock): Promise<ReportEvents> {
    const events = new ReportEvents((deliver) => new TableLog(table, clock, deliver))
    await events.log.start?.()
    return events
  }

  /// Tells every subscriber of `event`: in this process at once; on a team server, the other replicas and the
  /// numbered listeners once it is stored and read back, a millisecond or two later.
  ///
  /// A check that ended never runs again, and no one is told it does: its progress read before it ended and
  /// emitted after (two of its units landing at once, one ending it) is left out. On a team server another
  /// replica's end is known once read back, a millisecond or two after it was stored.
  emit(event: ReportEvent): void {
    if (event.type === 'check' && !hasEnded(event.check) && this.endedChecks.has(event.check.id)) return
    this.log.append(event)
  }

  private heardEnd(event: ReportEvent): void {
    if (event.type !== 'check' || !hasEnded(event.check) || this.endedChecks.has(event.check.id)) return
    this.endedChecks.add(event.check.id)
    if (this.endedChecks.size > ENDED_CHECKS_KEPT)
      this.endedChecks.delete(this.endedChecks.values().next().value as string)
  }

  /// The events after the one named `lastId` (of `organizationId` only, when given), oldest first; null when that
  /// cannot be told: the id is another stream's (one process's server restarted) or not an id, or events after
  /// it are no longer kept.
  since(lastId: string, organizationId?: string): Promise<NumberedEvent[] | null> {
    return this.log.since(lastId, organizationId)
  }

  /// Calls `listener` for the events of `organizationId` after the one named `lastId` (those that came before
  /// this call first, in order), then for every change as it comes (as `numbered`), none twice and none left
  /// out; or calls `resync` first, then `listener` for the changes to come, when what came after `lastId` cannot
  /// be told (as `since`). Returns the function that stops listening.
  follow(
    lastId: string,
    organizationId: string,
    listener: (event: ReportEvent, id: string) => void,
    resync: () => void,
  ): () => void {
    // Changes heard while the missed ones are read wait for them; those read with them are not sent again.
    let held: NumberedEvent[] | null = []
    let sent = -Infinity
    let stopped = false
    const live = (event: ReportEvent, id: string, seq: number): void => {
      if (held) held.push({ id, seq, event })
      else if (seq > sent) listener(event, id)
    }
    this.emitter.on('numbered', live)
    const replay = (missed: NumberedEvent[] | null): void => {
      if (stopped) return
      const waiting = held ?? []
      held = null
      if (missed === null) resync()
      for (const { event, id, seq } of missed ?? []) {
        listener(event, id)
        sent = seq
      }
      for (const { event, id, seq } of waiting) {
        if (seq <= sent) continue
        listener(event, id)
        sent = seq
      }
    }
    this.log.since(lastId, organizationId).then(replay, (error: unknown) => {
      console.error('factdesk: the events a stream missed could not be read; it is told to read again', error)
      replay(null)
    })
    return () => {
      stopped = true
      this.emitter.off('numbered', live)
    }
  }

  /// Resolves with the check when an event shows it ended. Events of a check's units come only after an await,
  /// so reading its status right after submitting and then waiting here misses nothing.
  ended(checkId: string): Promise<Check> {
    return new Promise((resolve) => {
      const stop = this.subscribe((event) => {
        if (event.type === 'check' && event.check.id === checkId && hasEnded(event.check)) {
          stop()
          resolve(event.check)
        }
      })
    })
  }

  /// Calls `listener` for every change as soon as this process knows of it: one it emits at once, another
  /// replica's when read (so not always in the order of their ids); returns the function that stops listening.
  subscribe(listener: (event: ReportEvent) => void): () => void {
    this.emitter.on('change', listener)
    return () => this.emitter.off('change', listener)
  }

  /// Calls `listener` for every change with its id, in the order of the ids (on a team server, once stored and
  /// read back); returns the function that stops listening.
  numbered(listener: (event: ReportEvent, id: string) => void): () => void {
    this.emitter.on('numbered', listener)
    return () => this.emitter.off('numbered', listener)
  }

  /// Stores the events emitted so far (on a team server) and stops listening to other replicas.
  close(): Promise<void> {
    return this.log.close()
  }
}

/// One process's events: numbered under a name of the process's own and the latest kept in memory.
class MemoryLog implements EventLog {
  /// Ids of another process (an earlier run of the server) name other events: each stream has its own name.
  private readonly name = randomBytes(4).toString('hex')
  private count = 0
  /// The latest events, oldest first; trimmed in batches, so that each event costs O(1).
  private recent: NumberedEvent[] = []

  constructor(private readonly deliver: Deliver) {}

  append(event: ReportEvent): void {
    this.count++
    const numbered = { id: `${this.name}-${this.count}`, seq: this.count, event }
    this.recent.push(numbered)
    if (this.recent.length >= 2 * RECENT_EVENTS) this.recent = this.recent.slice(-RECENT_EVENTS)
    this.deliver.change(event)
    this.deliver.numbered(event, numbered.id, numbered.seq)
  }

  async since(lastId: string, organizationId?: string): Promise<NumberedEvent[] | null> {
    const match = /^([0-9a-f]{8})-(\d{1,15})$/.exec(lastId)
    if (!match || match[1] !== this.name) return null
    const last = Number(match[2])
    if (last > this.count) return null
    const kept = this.count - this.recent.length
    // Event number n sits at index n - kept - 1; the first one missed is number last + 1.
    if (last < kept) return null
    const missed = this.recent.slice(last - kept)
    return organizationId === undefined
      ? missed
      : missed.filter(({ event }) => event.organizationId === organizationId)
  }

  async close(): Promise<void> {}
}

/// Events read back from the table at once, and the rows a stream that reconnects is sent at once.
const PAGE = 500
/// Events appended in one statement at most.
const APPEND_BATCH = 500
/// Tries of a batch of events the database refused, a second apart, before it is given up.
const APPEND_TRIES = 5
const RETRY_MS = 1_000
/// How often a replica prunes the events table, at most.
const PRUNE_EVERY_MS = 10 * 60_000

/// A team server's events: appended to the database's table (each replica's in the order it emitted them) and
/// delivered to this replica's numbered listeners as they are read back, from the last id read, in the order of
/// their ids: this replica's and every other's alike; its other subscribers hear its own at once, and the other
/// replicas' when read. The database tells each replica when events were appended (NOTIFY, carrying only the
/// last id); a notification lost while the listening connection was down only delays the events, as the replica
/// reads on from its last id when the connection is back, and after each of its own appends.
class TableLog implements EventLog {
  /// Emitted and not yet appended, oldest first.
  private readonly queue: ReportEvent[] = []
  private appending: Promise<void> | null = null
  /// The append statement in flight, until the ids it gave are in `own`.
  private sending: Promise<void> | null = null
  /// Ids of this replica's events not yet read back: its subscribers heard them when emitted.
  private readonly own = new Set<number>()
  /// The last id delivered; null until started.
  private cursor: number | null = null
  private reading: Promise<void> | null = null
  private readAgain = false
  private retry: NodeJS.Timeout | null = null
  private listening: { close(): Promise<void> } | null = null
  private pruned = -Infinity
  private pruning: Promise<unknown> = Promise.resolve()
  private closed = false

  constructor(
    private readonly table: EventTable,
    private readonly clock: Clock,
    private readonly deliver: Deliver,
  ) {}

  /// Listens, then takes the last id as where to go on from: what was appended before is history, sent only to
  /// a stream that reconnects.
  async start(): Promise<void> {
    this.listening = await this.table.listen(() => void this.catchUp())
    this.cursor = (await this.table.bounds()).last ?? 0
    void this.catchUp()
  }

  append(event: ReportEvent): void {
    if (this.closed) {
      console.error(`factdesk: a ${event.type} event came after the events were closed; it is not sent`)
      return
    }
    this.queue.push(event)
    this.appending ??= this.appendQueued().finally(() => (this.appending = null))
    this.deliver.change(event)
  }

  /// Appends what is queued, a batch at a time, in order; each batch is read back at once.
  private async appendQueued(): Promise<void> {
    let tries = 0
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, APPEND_BATCH)
      const rows = batch.map((event) => ({
        organizationId: event.organizationId,
        body: JSON.stringify(toUpdate(event)),
      }))
      const sending = this.table.append(rows, this.clock.now().toISOString()).then((ids) => {
        for (const id of ids) this.own.add(id)
      })
      this.sending = sending
      try {
        await sending
      } catch (error) {
        if (++tries < APPEND_TRIES && !this.closed) {
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS))
          continue
        }
        console.error(`factdesk: ${batch.length} events could not be stored, and are not sent`, error)
      } finally {
        if (this.sending === sending) this.sending = null
      }
      tries = 0
      this.queue.splice(0, batch.length)
      void this.catchUp()
      this.prune()
    }
  }

  /// Reads the events after the last one delivered and delivers them, in order; asked again while it reads, it
  /// reads again after.
  private catchUp(): Promise<void> {
    if (this.cursor === null || this.closed) return Promise.resolve()
    if (this.reading) {
      this.readAgain = true
      return this.reading
    }
    this.reading = this.readOn().finally(() => (this.reading = null))
    return this.reading
  }

  private async readOn(): Promise<void> {
    try {
      do {
        this.readAgain = false
        for (;;) {
          const rows = await this.table.after(this.cursor ?? 0, PAGE)
          // A row of this replica's may be read before its append's answer is: the ids it gave are waited for.
          await this.sending?.catch(() => undefined)
          for (const row of rows) {
            this.cursor = row.id
            this.pass(row)
          }
          if (rows.length < PAGE || this.closed) break
        }
      } while (this.readAgain && !this.closed)
    } catch (error) {
      if (this.closed) return
      console.error('factdesk: the events could not be read; reading them again shortly', error)
      this.retry ??= setTimeout(() => {
        this.retry = null
        void this.catchUp()
      }, RETRY_MS)
    }
  }

  /// Hands a row read back to the numbered listeners, and to the subscribers unless it is this replica's own.
  private pass(row: { id: number; organizationId: string; body: string }): void {
    try {
      const event = this.parse(row)
      this.deliver.numbered(event, String(row.id), row.id)
      if (!this.own.delete(row.id)) this.deliver.change(event)
    } catch (error) {
      console.error('factdesk: a subscriber to the events failed', error)
    }
  }

  private parse(row: { id: number; organizationId: string; body: string }): ReportEvent {
    return { ...(JSON.parse(row.body) as EngineUpdate), organizationId: row.organizationId }
  }

  async since(lastId: string, organizationId?: string): Promise<NumberedEvent[] | null> {
    if (!/^\d{1,15}$/.test(lastId)) return null
    const from = Number(lastId)
    const missed: NumberedEvent[] = []
    for (let after = from; ;) {
      const rows = await this.table.after(after, PAGE, organizationId)
      for (const row of rows) missed.push({ id: String(row.id), seq: row.id, event: this.parse(row) })
      if (missed.length > REPLAY_LIMIT) return null
      if (rows.length < PAGE) break
      after = rows[rows.length - 1]?.id ?? after
    }
    // Read after the events: pruning removes the oldest first, so when the first id kept still follows on from
    // `from`, none of the events read was pruned before it could be read.
    const { first, last } = await this.table.bounds()
    if (first === null || last === null || from > last || from < first - 1) return null
    return missed
  }

  /// Prunes the table once in a while, from this replica as from every other (one deletes, the others find
  /// nothing left to).
  private prune(): void {
    if (performance.now() - this.pruned < PRUNE_EVERY_MS) return
    this.pruned = performance.now()
    const before = new Date(this.clock.now().getTime() - SHARED_EVENTS_KEPT.ms).toISOString()
    this.pruning = this.table.prune(before, SHARED_EVENTS_KEPT.count).catch((error: unknown) => {
      console.error('factdesk: old events could not be pruned; trying again later', error)
    })
  }

  /// Appends what is queued (a batch the database refuses now is given up), then stops.
  async close(): Promise<void> {
    this.closed = true
    await this.appending
    if (this.retry) clearTimeout(this.retry)
    await this.listening?.close()
    await this.reading
    await this.pruning
  }
}

import { randomBytes } from 'node:crypto'
import { EventEmitter } from 'node:events'
import type { EngineUpdate, ReportUpdate } from '../../../shared/api'
import type { Check } from '../../../shared/schemas'
import { hasEnded } from '../../../shared/vocabulary'

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

/// An event with its id: the stream's name and the event's number in it (`"3f9a02c1-1207"`). A client that
/// reconnects names the last id it heard (SSE's `Last-Event-ID`) to be sent what it missed (`since`).
export interface NumberedEvent {
  id: string
  event: ReportEvent
}

/// Where report changes can be heard, without ids: the engine's `ReportEvents`, or a remote service's updates.
export interface ReportSource {
  subscribe(listener: (event: ReportEvent) => void): () => void
}

/// How many of the latest events, at least, are kept for streams that reconnect (at most twice as many are held,
/// as the list is trimmed in batches).
export const RECENT_EVENTS = 2000

/// The engine's typed event stream of report changes and research progress.
export class ReportEvents {
  private readonly emitter = new EventEmitter()
  /// Ids of another process (an earlier run of the server) name other events: each stream has its own name.
  private readonly name = randomBytes(4).toString('hex')
  private count = 0
  /// The latest events, oldest first; trimmed in batches, so that each event costs O(1).
  private recent: NumberedEvent[] = []

  constructor() {
    // Every open editor window or event-stream client is one listener.
    this.emitter.setMaxListeners(0)
  }

  emit(event: ReportEvent): void {
    this.count++
    const numbered = { id: `${this.name}-${this.count}`, event }
    this.recent.push(numbered)
    if (this.recent.length >= 2 * RECENT_EVENTS) this.recent = this.recent.slice(-RECENT_EVENTS)
    this.emitter.emit('report', event, numbered.id)
  }

  /// The events after the one named `lastId`, oldest first; null when that cannot be told: the id is another
  /// stream's (the server restarted) or not an id, or events after it are no longer kept.
  since(lastId: string): NumberedEvent[] | null {
    const match = /^([0-9a-f]{8})-(\d{1,15})$/.exec(lastId)
    if (!match || match[1] !== this.name) return null
    const last = Number(match[2])
    if (last > this.count) return null
    const kept = this.count - this.recent.length
    // Event number n sits at index n - kept - 1; the first one missed is number last + 1.
    return last < kept ? null : this.recent.slice(last - kept)
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

  /// Calls `listener` for every change, with the change's id; returns the function that stops listening.
  subscribe(listener: (event: ReportEvent, id: string) => void): () => void {
    this.emitter.on('report', listener)
    return () => this.emitter.off('report', listener)
  }
}

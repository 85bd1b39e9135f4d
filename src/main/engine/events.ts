import { EventEmitter } from 'node:events'
import type { ReportUpdate } from '../../shared/api'
import type { Check } from '../../shared/schemas'

/// A change to a report or to a deep research run, as it happens, with the organization it belongs to: the IPC
/// layer and the server's event stream subscribe to these and pass on the `ReportUpdate` to that organization's
/// pages only.
export type ReportEvent = ReportUpdate & { organizationId: string }

const TERMINAL: ReadonlySet<Check['status']> = new Set(['completed', 'failed', 'cancelled'])

/// True once a check can change no more.
export const hasEnded = (check: Check): boolean => TERMINAL.has(check.status)

/// The engine's typed event stream of report changes and research progress.
export class ReportEvents {
  private readonly emitter = new EventEmitter()

  constructor() {
    // Every open editor window or event-stream client is one listener.
    this.emitter.setMaxListeners(0)
  }

  emit(event: ReportEvent): void {
    this.emitter.emit('report', event)
  }

  /// Resolves with the check when an event shows it ended. Events of a check's units come only after an await,
  /// so reading its status right after submitting and then waiting here misses nothing.
  ended(checkId: string): Promise<Check> {
    return new Promise((resolve) => {
      const stop = this.subscribe((event) => {
        if (event.type === 'check' && event.check.id === checkId && TERMINAL.has(event.check.status)) {
          stop()
          resolve(event.check)
        }
      })
    })
  }

  /// Calls `listener` for every change; returns the function that stops listening.
  subscribe(listener: (event: ReportEvent) => void): () => void {
    this.emitter.on('report', listener)
    return () => this.emitter.off('report', listener)
  }
}

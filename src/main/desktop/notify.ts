import type { ReportEvents } from '../engine/events'

/// The window whose focus decides whether the system announces a started check.
export interface FocusedWindow {
  isFocused(): boolean
  isDestroyed(): boolean
}

/// Announces through the system (Electron's `Notification`, which `show` wraps) each check of `organizationId`
/// that started from the "check when online" queue while the window is in the background; the page shows its
/// own notice. Returns the stop.
export function announceStartedChecks(
  events: Pick<ReportEvents, 'subscribe'>,
  organizationId: string,
  window: FocusedWindow,
  show: (title: string, body: string) => void,
): () => void {
  return events.subscribe((event) => {
    if (event.organizationId !== organizationId || event.type !== 'pending') return
    if (event.pending.status !== 'submitted' || window.isDestroyed() || window.isFocused()) return
    show('Factdesk', `Your check of “${event.pending.label}” started.`)
  })
}

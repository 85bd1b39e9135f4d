import { endedAnnouncement, startedMessage } from '../../shared/notices'
import { hasEnded } from '../../shared/vocabulary'
import { type ReportSource } from '../engine/base/events'

/// The window whose focus decides whether the system announces a check.
export interface FocusedWindow {
  isFocused(): boolean
  isDestroyed(): boolean
}

/// Announces through the system (Electron's `Notification`, which `show` wraps), while the window is in the
/// background: each check of `organizationId` that started from the "check when online" queue, and each long
/// check that ended; the page shows its own notices. Returns the stop.
export function announceInBackground(
  events: ReportSource,
  organizationId: string,
  window: FocusedWindow,
  show: (title: string, body: string) => void,
): () => void {
  return events.subscribe((event) => {
    if (event.organizationId !== organizationId || window.isDestroyed() || window.isFocused()) return
    if (event.type === 'pending' && event.pending.status === 'submitted') {
      show('Factdesk', startedMessage(event.pending.label))
    }
    if (event.type === 'check' && hasEnded(event.check)) {
      const announcement = endedAnnouncement(event.check)
      if (announcement) show('Factdesk', announcement)
    }
  })
}

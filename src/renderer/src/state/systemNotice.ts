// Browser mode announces through the system (the Notification API, once the writer allowed it) what happens
// while the page is in the background; the desktop app's main process announces for itself (desktop/notify.ts).
import { endedAnnouncement } from '../../../shared/notices'
import type { Check } from '../../../shared/schemas'

const inBrowser = (): boolean => typeof window !== 'undefined' && !('factdesk' in window)

/// Asks once, when the writer first starts work that may end in the background, whether the page may announce.
export function askToNotify(): void {
  if (!inBrowser() || typeof Notification === 'undefined' || Notification.permission !== 'default') return
  void Notification.requestPermission().catch(() => undefined)
}

/// Shows `text` as a system notification while the page is in the background.
export function announce(text: string): void {
  if (!inBrowser() || typeof document === 'undefined' || document.hasFocus()) return
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return
  new Notification('Factdesk', { body: text })
}

/// Announces a check that ended, when it took long enough that the writer may have gone elsewhere.
export function announceEnded(check: Check): void {
  const announcement = endedAnnouncement(check)
  if (announcement) announce(announcement)
}

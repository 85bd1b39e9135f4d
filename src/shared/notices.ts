// What the system's notifications say, the same in the desktop app (Electron's) and in browser mode (the page's).
import type { Check } from './schemas'

/// The announcement of a check that ended, e.g. `Check “Tower piece” completed: 12 claims.`
export function endedMessage(check: Pick<Check, 'name' | 'status' | 'claimCount'>): string {
  const name = check.name ? ` “${check.name}”` : ''
  const claims = `${check.claimCount} ${check.claimCount === 1 ? 'claim' : 'claims'}`
  return `Check${name} ${check.status}: ${claims}.`
}

/// A check that ends sooner than this after it was made needs no announcement: the writer is still there.
const LONG_CHECK_MS = 10_000

/// What to announce of a check that ended: its `endedMessage` when it took long enough that the writer may
/// have gone elsewhere, else nothing.
export function endedAnnouncement(
  check: Pick<Check, 'name' | 'status' | 'claimCount' | 'createdAt' | 'updatedAt' | 'completedAt'>,
): string | null {
  const took = Date.parse(check.completedAt ?? check.updatedAt) - Date.parse(check.createdAt)
  return took >= LONG_CHECK_MS ? endedMessage(check) : null
}

/// The announcement of a check from the "check when online" queue that started.
export const startedMessage = (label: string): string => `Your check of “${label}” started.`

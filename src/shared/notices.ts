// What the system's notifications say, the same in the desktop app (Electron's) and in browser mode (the page's).
import type { Check } from './schemas'

/// The announcement of a check that ended, e.g. `Check “Tower piece” completed: 12 claims.`
export function endedMessage(check: Pick<Check, 'name' | 'status' | 'claimCount'>): string {
  const name = check.name ? ` “${check.name}”` : ''
  const claims = `${check.claimCount} ${check.claimCount === 1 ? 'claim' : 'claims'}`
  return `Check${name} ${check.status}: ${claims}.`
}

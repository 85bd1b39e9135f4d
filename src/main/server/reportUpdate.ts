import type { ReportUpdate } from '../../shared/api'
import type { ReportEvent } from '../engine/events'

/// The page's copy of an engine event: the organization stays with the server or the main process.
export function toUpdate(event: ReportEvent): ReportUpdate {
  if (event.type === 'check') return { type: 'check', check: event.check }
  const { organizationId: _organization, ...update } = event
  return update
}

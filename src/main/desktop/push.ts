import type { WebContents } from 'electron'
import { REPORT_CHANNEL } from '../../shared/api'
import type { ReportSource } from '../engine/events'
import { toUpdate } from '../server/reportUpdate'
import { isAppUrl } from './appPage'

/// Forwards the engine's report events of `organizationId` to a window's page while it shows the app's own page
/// (never to a page it was navigated to); stops when the window's contents are destroyed. Returns the stop.
export function forwardReports(
  events: ReportSource,
  organizationId: string,
  contents: Pick<WebContents, 'send' | 'getURL' | 'isDestroyed' | 'once'>,
  page: URL,
): () => void {
  const stop = events.subscribe((event) => {
    if (event.organizationId !== organizationId) return
    if (contents.isDestroyed() || !isAppUrl(contents.getURL(), page)) return
    contents.send(REPORT_CHANNEL, toUpdate(event))
  })
  contents.once('destroyed', stop)
  return stop
}

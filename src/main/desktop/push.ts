import type { WebContents } from 'electron'
import { OPENED_FILE_CHANNEL, REPORT_CHANNEL, type IpcResult } from '../../shared/api'
import type { ReportSource } from '../engine/base/events'
import { toUpdate } from '../engine/base/events'
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

/// Names the draft of a file the system asked to open to the window's page, once the page (and so the preload
/// that listens) has loaded; never to a page the window was navigated to.
export function sendOpenedFile(
  contents: Pick<WebContents, 'send' | 'getURL' | 'isDestroyed' | 'isLoading' | 'once'>,
  page: URL,
  opened: IpcResult<string>,
): void {
  if (contents.isDestroyed()) return
  if (contents.isLoading()) {
    contents.once('did-finish-load', () => sendOpenedFile(contents, page, opened))
    return
  }
  if (isAppUrl(contents.getURL(), page)) contents.send(OPENED_FILE_CHANNEL, opened)
}

import type { Session } from 'electron'
import { mayGrant } from './pageRules'

/// Puts the page's Content-Security-Policy on every response of the dev server (documents and workers alike;
/// app:// sets its own), and grants no permission but copying, to the app's own page.
export function secureSession(session: Session, policy: string, page: URL): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] } })
  })
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(mayGrant(permission, details.requestingUrl, undefined, page)),
  )
  // Electron leaves out the URL of a frame of another origin: the window's page and the asking origin decide.
  session.setPermissionCheckHandler((contents, permission, origin, details) =>
    mayGrant(permission, details.requestingUrl ?? contents?.getURL(), origin, page),
  )
}

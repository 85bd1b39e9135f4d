import type { Session } from 'electron'

/// Puts the page's Content-Security-Policy on every response (documents and workers alike) and refuses every
/// permission: the editor needs no camera, location, notifications or device access.
export function secureSession(session: Session, policy: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] } })
  })
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
}

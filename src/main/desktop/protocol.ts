import { protocol, type Session } from 'electron'
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, appResponse } from './appScheme'

/// Makes app:// a privileged scheme; Electron takes this only before the app is ready.
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }])
}

/// Serves the built page's folder on app:// in `session`, with the page's policy on every file.
export function serveApp(session: Session, folder: string, policy: string): void {
  session.protocol.handle(APP_SCHEME, (request) => appResponse(request.url, folder, policy))
}

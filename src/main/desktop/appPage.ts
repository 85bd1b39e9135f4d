import { APP_PAGE } from './appScheme'

/// Where the app's own page lives: the dev server in development, the built page on app:// otherwise.
export function appPage(devServerUrl: string | undefined): URL {
  return new URL(devServerUrl ?? APP_PAGE)
}

/// Whether `url` is the app's own page (any route or anchor of it): the only place the window may show and the
/// only sender the IPC layer answers.
export function isAppUrl(url: string, page: URL): boolean {
  const target = URL.parse(url)
  if (!target) return false
  // A URL of a scheme Node does not know has the origin "null": the built page is matched by its file instead,
  // and so is not any other file app:// serves.
  if (page.protocol !== 'http:' && page.protocol !== 'https:') {
    return target.protocol === page.protocol && target.host === page.host && target.pathname === page.pathname
  }
  return target.origin === page.origin
}

/// Whether `url` may be handed to the user's browser: web links only, never file:, javascript: or custom schemes.
export function isWebLink(url: string): boolean {
  const protocol = URL.parse(url)?.protocol
  return protocol === 'http:' || protocol === 'https:'
}

import { isAppUrl, isWebLink } from './appPage'

// What every webContents of the app may do, decided here without Electron (guards.ts and session.ts apply it).

/// Whether a frame may go to `url` (a navigation, a redirect): the main frame only within the app's own page,
/// a sub-frame never (the page has none of its own).
export function mayNavigate(url: string, page: URL, isMainFrame: boolean): boolean {
  return isMainFrame && isAppUrl(url, page)
}

/// The link the user's browser opens in place of a refused navigation or window, where a page has no preload and
/// no way to the engine: web links only, never the app's own page, file:, javascript: or other schemes.
export function linkForBrowser(url: string, page: URL): string | null {
  return isWebLink(url) && !isAppUrl(url, page) ? url : null
}

/// The one permission the app's page is granted: writing to the clipboard (the Copy buttons).
const COPY_PERMISSION = 'clipboard-sanitized-write'

/// Whether a frame gets `permission`: copying, when its document (`url`) is the app's own page and it asks from
/// the page's origin (`origin`, where Electron gives one: a frame of another origin inside it is refused); nothing
/// else, for no one (no camera, location, notifications or devices).
export function mayGrant(
  permission: string,
  url: string | undefined,
  origin: string | undefined,
  page: URL,
): boolean {
  if (permission !== COPY_PERMISSION || url === undefined || !isAppUrl(url, page)) return false
  if (origin === undefined) return true
  const asking = URL.parse(origin)
  return asking !== null && asking.protocol === page.protocol && asking.host === page.host
}

import { pathToFileURL } from 'node:url'

/// Where the app's own page lives: the dev server in development, the built index.html otherwise.
export function appPage(devServerUrl: string | undefined, indexHtml: string): URL {
  return devServerUrl ? new URL(devServerUrl) : pathToFileURL(indexHtml)
}

/// Whether `url` is the app's own page (any route or anchor of it): the only place the window may show and the
/// only sender the IPC layer answers.
export function isAppUrl(url: string, page: URL): boolean {
  const target = URL.parse(url)
  if (!target) return false
  // Every file:// URL has the opaque origin "null", so a file page is matched by its path instead.
  if (page.protocol === 'file:') {
    return target.protocol === 'file:' && target.host === page.host && target.pathname === page.pathname
  }
  return target.origin === page.origin
}

/// Whether `url` may be handed to the user's browser: web links only, never file:, javascript: or custom schemes.
export function isWebLink(url: string): boolean {
  const protocol = URL.parse(url)?.protocol
  return protocol === 'http:' || protocol === 'https:'
}

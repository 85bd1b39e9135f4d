import { shell, type WebContents } from 'electron'
import { isAppUrl, isWebLink } from './appPage'

/// Keeps the window on the app's page: navigating elsewhere and opening new windows are refused, and web links
/// open in the user's browser instead, where a page has no preload and no way to the engine.
export function guardNavigation(contents: WebContents, page: URL): void {
  contents.on('will-navigate', (event) => {
    if (isAppUrl(event.url, page)) return
    event.preventDefault()
    openInBrowser(event.url)
  })
  contents.setWindowOpenHandler(({ url }) => {
    openInBrowser(url)
    return { action: 'deny' }
  })
}

function openInBrowser(url: string): void {
  if (!isWebLink(url)) return
  shell.openExternal(url).catch((error: unknown) => console.error('factdesk: cannot open a link', error))
}

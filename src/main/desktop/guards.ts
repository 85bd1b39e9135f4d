import { app, shell, type WebContents } from 'electron'
import { linkForBrowser, mayNavigate } from './pageRules'

/// One guard on every webContents the app makes, the editor's window and the PDF export's alike: navigating off
/// the app's page, redirects, sub-frames, new windows and `<webview>`s are refused; web links open in the user's
/// browser instead.
export function guardEveryWebContents(page: URL): void {
  app.on('web-contents-created', (_event, contents) => guardContents(contents, page))
}

function guardContents(contents: WebContents, page: URL): void {
  contents.on('will-navigate', (event) => {
    if (mayNavigate(event.url, page, true)) return
    event.preventDefault()
    openInBrowser(linkForBrowser(event.url, page))
  })
  // Every frame's navigations, the main frame's again: refused alike, handed to the browser by will-navigate.
  contents.on('will-frame-navigate', (event) => {
    if (!mayNavigate(event.url, page, event.isMainFrame)) event.preventDefault()
  })
  contents.on('will-redirect', (event) => {
    if (!mayNavigate(event.url, page, event.isMainFrame)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    openInBrowser(linkForBrowser(url, page))
    return { action: 'deny' }
  })
}

function openInBrowser(link: string | null): void {
  if (link === null) return
  shell.openExternal(link).catch((error: unknown) => console.error('factdesk: cannot open a link', error))
}

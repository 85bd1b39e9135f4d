import { BrowserWindow, dialog } from 'electron'
import type { WindowBounds } from './bounds'
import { CLOSE_PROMPT, saidYes } from './prompts'
import { webPreferences } from './webPreferences'

const FIRST_SIZE = { width: 1280, height: 860 }

/// Opens the editor's window on the app's page with the locked-down preferences, where it was last closed.
export function createMainWindow(page: URL, preload: string, bounds: WindowBounds): BrowserWindow {
  const window = new BrowserWindow({
    ...(bounds.restore() ?? FIRST_SIZE),
    minWidth: 720,
    minHeight: 480,
    title: 'Factdesk',
    // Shown once painted, so the user never sees an empty white frame.
    show: false,
    webPreferences: webPreferences(preload),
  })
  bounds.track(window)
  window.once('ready-to-show', () => window.show())
  // The page holds the window open (its beforeunload) while a file has changes not saved to it: ask first.
  window.webContents.on('will-prevent-unload', (event) => {
    // Preventing the prevention lets the window close.
    if (saidYes(dialog.showMessageBoxSync(window, CLOSE_PROMPT))) event.preventDefault()
  })
  // The dev server's page, or the built one on app://.
  window.loadURL(page.href).catch((error: unknown) => {
    console.error('factdesk: the page did not load', error)
    // It may never be painted now; a visible window beats an app running with none.
    window.show()
  })
  return window
}

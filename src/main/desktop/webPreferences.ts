import type { WebPreferences } from 'electron'

/// The window's locked-down preferences: the page runs sandboxed in its own world with no Node, and reaches the
/// engine only through the preload's narrow API.
export function webPreferences(preload: string): WebPreferences {
  return {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webSecurity: true,
    webviewTag: false,
    // Prose checking is Harper's job; Chromium's own spellchecker would underline the same words twice.
    spellcheck: false,
    preload,
  }
}

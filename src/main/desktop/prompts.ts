import { basename, join } from 'node:path'
import type { MessageBoxOptions, OpenDialogOptions, SaveDialogOptions } from 'electron'
import { OPENABLE, SAVABLE } from '../engine/files/formats'

// What the shell's dialogs say and what their answers mean, without Electron (the shell only shows them).

const bare = (extensions: readonly string[]): string[] => extensions.map((extension) => extension.slice(1))

/// The Open dialog: one Markdown, text or Word file.
export const OPEN_DIALOG: OpenDialogOptions = {
  title: 'Open',
  properties: ['openFile'],
  filters: [
    { name: 'Markdown, text and Word', extensions: bare(OPENABLE) },
    { name: 'All files', extensions: ['*'] },
  ],
}

/// The path chosen in an open or save dialog, or null when the writer cancelled.
export function chosenPath(answer: {
  canceled: boolean
  filePaths?: string[]
  filePath?: string
}): string | null {
  if (answer.canceled) return null
  return answer.filePath || answer.filePaths?.[0] || null
}

/// The Save as dialog for the draft `title`: at its file if it has one, else in Documents under its title.
export function saveAsDialog(documents: string, title: string, filePath: string | null): SaveDialogOptions {
  return {
    title: 'Save as',
    defaultPath: filePath ?? join(documents, basename(title)),
    filters: [
      { name: 'Markdown', extensions: bare(SAVABLE.filter((extension) => extension !== '.txt')) },
      { name: 'Plain text', extensions: ['txt'] },
    ],
    properties: ['createDirectory', 'showOverwriteConfirmation'],
  }
}

/// Where an export the page downloads is saved: the native save dialog, in Documents under the export's own name
/// (never a path the name could carry).
export function saveDialogOptions(
  documents: string,
  fileName: string,
): { title: string; defaultPath: string } {
  return { title: 'Save the report', defaultPath: join(documents, basename(fileName)) }
}

/// Whether to replace the file at `path`: it `exists`, or it `changed` on disk. The first button replaces.
export function replacePrompt(path: string, why: 'exists' | 'changed'): MessageBoxOptions {
  return {
    type: 'warning',
    title: 'Replace file',
    message:
      why === 'exists'
        ? `"${basename(path)}" already exists. Replace it?`
        : `"${basename(path)}" changed on disk since Factdesk opened or saved it. Replace it with this text?`,
    detail:
      why === 'exists'
        ? `Saving replaces what it holds now (${path}).`
        : 'Another program wrote to it. Replacing it loses what that program wrote; Save as… keeps both.',
    buttons: ['Replace', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
  }
}

/// Whether to open the file at `path` with the writer's unsaved edits (the first button) or as it is on disk.
/// Neither answer loses a text; closing the box opens the draft as the writer left it.
export function unsavedEditsPrompt(path: string, editsTitle: string): MessageBoxOptions {
  return {
    type: 'question',
    title: 'File changed on disk',
    message: `"${basename(path)}" changed on disk since Factdesk opened or saved it, and you have edits not saved to it. Which do you want to open?`,
    detail:
      'Keep my unsaved edits: the draft opens as you left it, and Save will ask before replacing the file. ' +
      `Load the version on disk: the draft shows the file as it is now, and your unsaved edits stay in Recent as the draft "${editsTitle}".`,
    buttons: ['Keep my unsaved edits', 'Load the version on disk'],
    defaultId: 0,
    cancelId: 0,
  }
}

/// Asked when the page holds the window open (its beforeunload) while a file has changes not saved to it.
export const CLOSE_PROMPT: MessageBoxOptions = {
  type: 'question',
  buttons: ['Close', 'Cancel'],
  defaultId: 1,
  cancelId: 1,
  message: 'Close without saving the file?',
  detail: 'Your changes are kept as a draft in Factdesk and come back when you open it again.',
}

/// Whether the button pressed in a prompt above is its first: Replace, Keep my unsaved edits, Close.
export const saidYes = (pressed: number): boolean => pressed === 0

/// The start-up error box: the reason in the engine's words (a locked or unusable data folder, a bad --config).
export function startupError(error: unknown): { title: string; content: string } {
  return { title: 'Factdesk cannot start', content: error instanceof Error ? error.message : String(error) }
}

import { basename, join } from 'node:path'
import { app, dialog, type BrowserWindow } from 'electron'
import { OPENABLE, SAVABLE } from '../files/formats'
import type { FileDialogs } from './files'

const bare = (extensions: readonly string[]): string[] => extensions.map((extension) => extension.slice(1))

/// The system's open and save dialogs, over the editor's window.
export function nativeFileDialogs(window: () => BrowserWindow | undefined): FileDialogs {
  // The number of the button pressed.
  const ask = async (options: Electron.MessageBoxOptions): Promise<number> => {
    const parent = window()
    const answer = parent
      ? await dialog.showMessageBox(parent, options)
      : await dialog.showMessageBox(options)
    return answer.response
  }
  return {
    async open() {
      const options: Electron.OpenDialogOptions = {
        title: 'Open',
        properties: ['openFile'],
        filters: [
          { name: 'Markdown, text and Word', extensions: bare(OPENABLE) },
          { name: 'All files', extensions: ['*'] },
        ],
      }
      const parent = window()
      const answer = parent
        ? await dialog.showOpenDialog(parent, options)
        : await dialog.showOpenDialog(options)
      return answer.canceled ? null : (answer.filePaths[0] ?? null)
    },
    async saveAs(title, filePath) {
      const options: Electron.SaveDialogOptions = {
        title: 'Save as',
        defaultPath: filePath ?? join(app.getPath('documents'), basename(title)),
        filters: [
          { name: 'Markdown', extensions: bare(SAVABLE.filter((extension) => extension !== '.txt')) },
          { name: 'Plain text', extensions: ['txt'] },
        ],
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      }
      const parent = window()
      const answer = parent
        ? await dialog.showSaveDialog(parent, options)
        : await dialog.showSaveDialog(options)
      return answer.canceled || !answer.filePath ? null : answer.filePath
    },
    async confirmReplace(path, why) {
      const pressed = await ask({
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
      })
      return pressed === 0
    },
    async keepUnsavedEdits(path, editsTitle) {
      // Neither answer loses a text; closing the box opens the draft as the writer left it.
      const pressed = await ask({
        type: 'question',
        title: 'File changed on disk',
        message: `"${basename(path)}" changed on disk since Factdesk opened or saved it, and you have edits not saved to it. Which do you want to open?`,
        detail:
          'Keep my unsaved edits: the draft opens as you left it, and Save will ask before replacing the file. ' +
          `Load the version on disk: the draft shows the file as it is now, and your unsaved edits stay in Recent as the draft "${editsTitle}".`,
        buttons: ['Keep my unsaved edits', 'Load the version on disk'],
        defaultId: 0,
        cancelId: 0,
      })
      return pressed === 0
    },
  }
}

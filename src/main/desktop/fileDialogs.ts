import { app, dialog, type BrowserWindow } from 'electron'
import type { FileDialogs } from './files'
import { chosenPath, OPEN_DIALOG, replacePrompt, saidYes, saveAsDialog, unsavedEditsPrompt } from './prompts'

/// The system's open and save dialogs, over the editor's window (prompts.ts says what they ask).
export function nativeFileDialogs(window: () => BrowserWindow | undefined): FileDialogs {
  const ask = async (options: Electron.MessageBoxOptions): Promise<boolean> => {
    const parent = window()
    const answer = parent
      ? await dialog.showMessageBox(parent, options)
      : await dialog.showMessageBox(options)
    return saidYes(answer.response)
  }
  return {
    async open() {
      const parent = window()
      return chosenPath(
        parent ? await dialog.showOpenDialog(parent, OPEN_DIALOG) : await dialog.showOpenDialog(OPEN_DIALOG),
      )
    },
    async saveAs(title, filePath) {
      const options = saveAsDialog(app.getPath('documents'), title, filePath)
      const parent = window()
      return chosenPath(
        parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options),
      )
    },
    confirmReplace: (path, why) => ask(replacePrompt(path, why)),
    keepUnsavedEdits: (path, editsTitle) => ask(unsavedEditsPrompt(path, editsTitle)),
  }
}

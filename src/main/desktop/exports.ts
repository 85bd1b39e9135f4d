import { app, BrowserWindow, session, type Session } from 'electron'
import { oneAtATime, PRINT_OPTIONS, type PdfPrinter } from '../engine/exports/pdf'
import { saveDialogOptions } from './prompts'
import { printFromFile } from './printFile'

/// Prints the HTML export with Electron, from a file written in `folder` for the time of the print: an
/// offscreen window of its own session, JavaScript off, every request but that file refused. One at a time: the
/// session's one request filter lets a single file through.
export const electronPdf = (folder: string): PdfPrinter =>
  oneAtATime((html) =>
    printFromFile(html, folder, async (url) => {
      const printing = session.fromPartition('factdesk-export')
      printing.webRequest.onBeforeRequest((details, callback) => callback({ cancel: details.url !== url }))
      const window = new BrowserWindow({
        show: false,
        webPreferences: { session: printing, javascript: false, sandbox: true, offscreen: true },
      })
      try {
        await window.loadURL(url)
        return new Uint8Array(await window.webContents.printToPDF(PRINT_OPTIONS))
      } finally {
        window.destroy()
      }
    }),
  )

/// Exports the page downloads are saved where the writer says, through the native save dialog (opening in
/// Documents with the export's name).
export function askWhereToSave(pageSession: Session): void {
  pageSession.on('will-download', (_event, item) => {
    item.setSaveDialogOptions(saveDialogOptions(app.getPath('documents'), item.getFilename()))
  })
}

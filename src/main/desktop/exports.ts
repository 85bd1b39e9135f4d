import { join } from 'node:path'
import { app, BrowserWindow, session, type Session } from 'electron'
import { PRINT_OPTIONS, type PdfPrinter } from '../engine/exports/pdf'

/// Prints the HTML export with Electron: an offscreen window of its own session, JavaScript off, every
/// request but the page itself refused.
export const electronPdf: PdfPrinter = async (html) => {
  const printing = session.fromPartition('factdesk-export')
  printing.webRequest.onBeforeRequest((details, callback) =>
    callback({ cancel: !details.url.startsWith('data:') }),
  )
  const window = new BrowserWindow({
    show: false,
    webPreferences: { session: printing, javascript: false, sandbox: true, offscreen: true },
  })
  try {
    await window.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`)
    const pdf = await window.webContents.printToPDF(PRINT_OPTIONS)
    return new Uint8Array(pdf)
  } finally {
    window.destroy()
  }
}

/// Exports the page downloads are saved where the writer says, through the native save dialog (opening in
/// Documents with the export's name).
export function askWhereToSave(pageSession: Session): void {
  pageSession.on('will-download', (_event, item) => {
    item.setSaveDialogOptions({
      title: 'Save the report',
      defaultPath: join(app.getPath('documents'), item.getFilename()),
    })
  })
}

import { ApiError } from '../../../shared/errors'

/// Prints an HTML page (the HTML export) to PDF bytes: headless Chromium here, Electron in the desktop app.
export type PdfPrinter = (html: string) => Promise<Uint8Array<ArrayBuffer>>

/// The Chromium the CLI and the servers print with: `FACTDESK_CHROMIUM`, else Debian's.
const chromiumPath = (): string => process.env.FACTDESK_CHROMIUM ?? '/usr/bin/chromium'

/// How Factdesk starts Chromium (Debian's, no sandbox of its own, nothing fetched in the background); the
/// end-to-end tests start it the same way.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/// How every PDF export is printed, by Chromium here and by Electron in the desktop app: backgrounds (the
/// verdicts' colours) and the page's own margins, and "3 / 12" at the foot of each page.
export const PRINT_OPTIONS = {
  printBackground: true,
  preferCSSPageSize: true,
  displayHeaderFooter: true,
  headerTemplate: '<span></span>',
  footerTemplate:
    '<div style="width: 100%; text-align: center; font: 8px system-ui, sans-serif; color: #666">' +
    '<span class="pageNumber"></span> / <span class="totalPages"></span></div>',
}

/// A printer that prints one page at a time: requests that come together wait their turn (each print starts
/// a browser of its own, so eight at once would start eight).
export function oneAtATime(printer: PdfPrinter): PdfPrinter {
  let previous: Promise<unknown> = Promise.resolve()
  return (html) => {
    const turn = previous.then(() => printer(html))
    previous = turn.catch(() => undefined)
    return turn
  }
}

/// Prints with a headless Chromium started for this page alone, one page at a time: JavaScript off and every
/// request refused, so the page can neither run nor fetch anything, whatever it holds.
export const chromiumPdf: PdfPrinter = oneAtATime(async (html) => {
  const executablePath = chromiumPath()
  // Loaded on the first PDF only: the desktop app prints with Electron and never needs it.
  const { chromium } = await import('playwright-core')
  const browser = await chromium
    .launch({ executablePath, args: CHROMIUM_ARGS, headless: true })
    .catch((error) => {
      // Said to the writer (the export's error in the app, the CLI's message); the details go to the log.
      console.error('factdesk: Chromium did not start', error)
      throw new ApiError(
        'internal_error',
        `A PDF export needs Chromium, which did not start from ${executablePath}: install it, or set ` +
          'FACTDESK_CHROMIUM to its path. The other formats work without it.',
      )
    })
  try {
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true })
    await context.route('**/*', (route) => route.abort('blockedbyclient'))
    const page = await context.newPage()
    await page.setContent(html, { waitUntil: 'load' })
    await page.emulateMedia({ media: 'print' })
    return new Uint8Array(await page.pdf({ format: 'A4', ...PRINT_OPTIONS }))
  } finally {
    await browser.close()
  }
})

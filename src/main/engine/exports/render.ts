// Rendering a report as a file, on a thread of the export pool (worker.ts): kept apart from index.ts so that
// the renderers (the docx library's megabytes of heap among them) load only in that thread.
import type { Report } from '../../../shared/schemas'
import { toDocx } from './docx'
import { toHtml } from './html'
import type { RenderedFormat } from '.'
import { toMarkdown } from './markdown'

/// The file's bytes, here (a thread of the export pool calls this).
export async function renderFile(report: Report, format: RenderedFormat): Promise<Uint8Array<ArrayBuffer>> {
  switch (format) {
    case 'html':
      return new TextEncoder().encode(toHtml(report))
    case 'md':
      return new TextEncoder().encode(toMarkdown(report))
    case 'docx':
      return toDocx(report)
  }
}

// Rendering a report as a file, on a thread of the export pool (worker.ts): kept apart from index.ts so that
// the renderers (the docx library's megabytes of heap among them) load only in that thread.
import type { ExportComments, ExportFormat, Report } from '../../../shared/schemas'
import { toDocx } from './docx'
import { toHtml } from './html'
import { toMarkdown } from './markdown'

/// Each format rendered from the report alone (and which claims it notes one by one), and how.
export const RENDERERS = {
  html: (report: Report, comments?: ExportComments) =>
    Promise.resolve(new TextEncoder().encode(toHtml(report, comments))),
  md: (report: Report, comments?: ExportComments) =>
    Promise.resolve(new TextEncoder().encode(toMarkdown(report, comments))),
  docx: toDocx,
} satisfies Partial<
  Record<ExportFormat, (report: Report, comments?: ExportComments) => Promise<Uint8Array<ArrayBuffer>>>
>

/// The formats rendered from the report alone, on the export pool's threads (pool.ts).
export type RenderedFormat = keyof typeof RENDERERS

/// The file's bytes, here (a thread of the export pool calls this); `comments` as `annotate` takes them.
export const renderFile = (
  report: Report,
  format: RenderedFormat,
  comments?: ExportComments,
): Promise<Uint8Array<ArrayBuffer>> => RENDERERS[format](report, comments)

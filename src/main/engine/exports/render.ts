// Rendering a report as a file, on a thread of the export pool (worker.ts): kept apart from index.ts so that
// the renderers (the docx library's megabytes of heap among them) load only in that thread.
import type { ExportFormat, Report } from '../../../shared/schemas'
import { toDocx } from './docx'
import { toHtml } from './html'
import { toMarkdown } from './markdown'

/// Each format rendered from the report alone, and how.
export const RENDERERS = {
  html: (report: Report) => Promise.resolve(new TextEncoder().encode(toHtml(report))),
  md: (report: Report) => Promise.resolve(new TextEncoder().encode(toMarkdown(report))),
  docx: toDocx,
} satisfies Partial<Record<ExportFormat, (report: Report) => Promise<Uint8Array<ArrayBuffer>>>>

/// The formats rendered from the report alone, on the export pool's threads (pool.ts).
export type RenderedFormat = keyof typeof RENDERERS

/// The file's bytes, here (a thread of the export pool calls this).
export const renderFile = (report: Report, format: RenderedFormat): Promise<Uint8Array<ArrayBuffer>> =>
  RENDERERS[format](report)

import type { ExportedFile } from '../../../shared/api'
import type { ExportFormat, Report } from '../../../shared/schemas'
import { attentionOf } from '../../../shared/verdicts'
import type { Principal } from '../checks/access'
import type { Service } from '../checks/service'
import type { PdfPrinter } from './pdf'

/// Each format's file name extension and media type.
export const EXPORT_TYPES: Record<ExportFormat, { extension: string; contentType: string }> = {
  html: { extension: 'html', contentType: 'text/html; charset=utf-8' },
  md: { extension: 'md', contentType: 'text/markdown; charset=utf-8' },
  docx: {
    extension: 'docx',
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  },
  pdf: { extension: 'pdf', contentType: 'application/pdf' },
  json: { extension: 'json', contentType: 'application/json; charset=utf-8' },
}

/// The name an export is saved under: the check's name (without the extension of a document file it may
/// carry: "Report v1.2" keeps its ".2") or its id, then `-factcheck` and the format's extension, e.g.
/// `article-factcheck.html`. At most 80 characters of the name, never half of one.
export function exportFileName(report: Report, format: ExportFormat): string {
  const name = (report.check.name ?? '')
    .replace(/\.(?:md|markdown|txt|docx?|html?|pdf|json)$/i, '')
    .replace(/[^\p{L}\p{M}\p{N}._-]+/gu, '-')
    .replace(/^[-.]+/, '')
  const base = Array.from(name).slice(0, 80).join('').replace(/-+$/, '')
  return `${base || report.check.id}-factcheck.${EXPORT_TYPES[format].extension}`
}

/// The formats rendered from the report alone, on the export pool's threads (pool.ts, render.ts).
export type RenderedFormat = 'html' | 'md' | 'docx'

/// Renders a report as a file of a format that needs nothing but the report.
export type Render = (report: Report, format: RenderedFormat) => Promise<Uint8Array<ArrayBuffer>>

/// A report as a file of the format, rendered by `render` (the engine's export pool). Offline: only the PDF
/// needs `printPdf` (a local browser engine).
export async function exportReport(
  report: Report,
  format: ExportFormat,
  printPdf: PdfPrinter,
  render: Render,
): Promise<ExportedFile> {
  const data = await (async (): Promise<Uint8Array<ArrayBuffer>> => {
    switch (format) {
      case 'pdf':
        return printPdf(new TextDecoder().decode(await render(report, 'html')))
      case 'json':
        // The report exactly as `GET /checks/{id}/report` answers it, the document's text included, and the
        // claims that need attention.
        return new TextEncoder().encode(
          `${JSON.stringify({ ...report, attention: attention(report) }, null, 2)}\n`,
        )
      default:
        return render(report, format)
    }
  })()
  return { fileName: exportFileName(report, format), contentType: EXPORT_TYPES[format].contentType, data }
}

/// The claims that need the editor's attention, in text order, as the JSON export lists them.
function attention(report: Report): { claimId: string; why: string; correction: string | null }[] {
  return [...report.claims]
    .sort((a, b) => a.charStart - b.charStart)
    .flatMap((claim) => {
      const found = attentionOf(claim, report.check)
      return found ? [{ claimId: claim.claimId, why: found.why, correction: found.correction }] : []
    })
}

/// The annotated report of a check the principal may read (any scope; another organization's is not found).
export const exportCheck = (
  service: Pick<Service, 'report'>,
  principal: Principal,
  checkId: string,
  format: ExportFormat,
  printPdf: PdfPrinter,
  render: Render,
): Promise<ExportedFile> => exportReport(service.report(principal, checkId), format, printPdf, render)

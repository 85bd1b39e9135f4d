import type { ExportedFile } from '../../../shared/api'
import { EXPORT_FORMATS } from '../../../shared/exportFormats'
import type { ReportExport } from '../../../shared/reportExport'
import type { ExportComments, ExportFormat, Report } from '../../../shared/schemas'
import { EXPORT_VERDICTS } from '../../../shared/vocabulary'
import type { Principal } from '../checks/access'
import type { Service } from '../checks/service'
import { annotate, attentionLine, NAMED_FILE, needingAttention } from './annotate'
import { toClaimReviews, type Publisher } from './claimreview'
import type { PdfPrinter } from './pdf'
import type { RenderedFormat } from './render'

/// The name an export is saved under: the check's name (without the extension of a document file it may
/// carry: "Report v1.2" keeps its ".2") or its id, then `-factcheck` and the format's extension, e.g.
/// `article-factcheck.html`. At most 80 characters of the name, never half of one.
export function exportFileName(report: Report, format: ExportFormat): string {
  const name = (report.check.name ?? '')
    .replace(NAMED_FILE, '')
    .replace(/[^\p{L}\p{M}\p{N}._-]+/gu, '-')
    .replace(/^[-.]+/, '')
  const base = Array.from(name).slice(0, 80).join('').replace(/-+$/, '')
  return `${base || report.check.id}-factcheck.${EXPORT_FORMATS[format].extension}`
}

/// Renders a report as a file of a format that needs nothing but the report (and which claims it notes).
export type Render = (
  report: Report,
  format: RenderedFormat,
  comments?: ExportComments,
) => Promise<Uint8Array<ArrayBuffer>>

/// What an export is made with besides the report: the export pool's renderer, the PDF printer (a local browser
/// engine) and the configuration's publisher (the ClaimReview's author).
export interface ExportTools {
  render: Render
  printPdf: PdfPrinter
  publisher: Publisher
}

/// JSON as the JSON exports write it: indented, with a final newline.
const jsonFile = (value: unknown): Uint8Array<ArrayBuffer> =>
  new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`)

/// How each format is made from a report: rendered by the export pool, printed from the HTML (the PDF), or
/// written here.
const EXPORTERS: Record<
  ExportFormat,
  (report: Report, tools: ExportTools, comments?: ExportComments) => Promise<Uint8Array<ArrayBuffer>>
> = {
  html: (report, { render }, comments) => render(report, 'html', comments),
  pdf: async (report, { render, printPdf }, comments) =>
    printPdf(new TextDecoder().decode(await render(report, 'html', comments))),
  docx: (report, { render }, comments) => render(report, 'docx', comments),
  md: (report, { render }, comments) => render(report, 'md', comments),
  json: (report) => Promise.resolve(jsonFile(reportExport(report))),
  claimreview: (report, { publisher }) => Promise.resolve(jsonFile(toClaimReviews(report, publisher))),
}

/// A report as a file of the format. Offline: only the PDF needs a local browser engine. `comments` says which
/// claims the HTML, PDF, Word and Markdown files note one by one (see `annotate`; the JSON ones have every claim).
export async function exportReport(
  report: Report,
  format: ExportFormat,
  tools: ExportTools,
  comments?: ExportComments,
): Promise<ExportedFile> {
  const data = await EXPORTERS[format](report, tools, comments)
  return { fileName: exportFileName(report, format), contentType: EXPORT_FORMATS[format].mediaType, data }
}

/// The JSON export: the report exactly as `GET /checks/{id}/report` answers it, the document's text included,
/// with each claim counted by the verdict the other formats show, and their "Needs attention" list in data.
function reportExport(report: Report): ReportExport {
  const { claims, counts, fixes } = annotate(report)
  const attention = needingAttention(claims)
  return {
    ...report,
    summary: {
      ...report.summary,
      headlineVerdicts: {
        ...Object.fromEntries(EXPORT_VERDICTS.map((verdict) => [verdict, 0])),
        ...Object.fromEntries(counts.map(({ verdict, count }) => [verdict, count])),
      } as ReportExport['summary']['headlineVerdicts'],
      needAttention: attention.length,
      spellingFixes: fixes.length,
    },
    attention: attention.map((claim) => ({
      claimId: claim.claim.claimId,
      why: attentionLine(claim),
      correction: claim.correction,
    })),
  }
}

/// The annotated report of a check the principal may read (any scope; another organization's is not found).
export const exportCheck = async (
  service: Pick<Service, 'report'>,
  principal: Principal,
  checkId: string,
  format: ExportFormat,
  tools: ExportTools,
  comments?: ExportComments,
): Promise<ExportedFile> => exportReport(await service.report(principal, checkId), format, tools, comments)

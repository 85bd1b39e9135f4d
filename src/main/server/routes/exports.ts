import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import { ExportFormat } from '../../../shared/schemas'
import { EXPORT_TYPES, exportCheck, type Render } from '../../engine/exports'
import type { PdfPrinter } from '../../engine/exports/pdf'
import type { Service } from '../../engine/service'
import type { ApiEnv } from '../auth'
import { errorResponses } from './responses'

const text = z.string()
const binary = z.string().meta({ format: 'binary' })

const exportReport = createRoute({
  method: 'get',
  path: '/checks/{id}/export',
  summary: 'The annotated report as a file (extension)',
  description:
    'The check’s text as submitted with its latest results, as a download: `html` (one self-contained page: ' +
    'claims highlighted by verdict, a note per claim with reasoning, votes and citations, a summary table), ' +
    '`md` (Markdown with a footnote per claim), `docx` (Word, a comment on each claim), `pdf` (the HTML page ' +
    'printed) or `json` (the report exactly as `GET /checks/{id}/report` answers it, with the text).',
  request: {
    params: z.object({ id: z.string().meta({ description: 'A check id, `chk_…`' }) }),
    query: z.object({ format: ExportFormat }),
  },
  responses: {
    200: {
      description: 'The file, with `Content-Disposition: attachment` and its name',
      content: {
        [EXPORT_TYPES.html.contentType]: { schema: text },
        [EXPORT_TYPES.md.contentType]: { schema: text },
        [EXPORT_TYPES.docx.contentType]: { schema: binary },
        [EXPORT_TYPES.pdf.contentType]: { schema: binary },
        [EXPORT_TYPES.json.contentType]: { schema: text },
      },
    },
    ...errorResponses('read'),
  },
})

/// `Content-Disposition` for a download: an ASCII name for old clients and the exact one in `filename*`.
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

/// The export route; `render` renders the files (the engine's export pool), `printPdf` prints the HTML export
/// for `format=pdf`.
export function exportRoutes(service: Service, render: Render, printPdf: PdfPrinter): OpenAPIHono<ApiEnv> {
  return new OpenAPIHono<ApiEnv>().openapi(exportReport, async (c) => {
    const { id } = c.req.valid('param')
    const file = await exportCheck(
      service,
      c.var.principal,
      id,
      c.req.valid('query').format,
      printPdf,
      render,
    )
    return c.body(file.data, 200, {
      'Content-Type': file.contentType,
      'Content-Disposition': attachment(file.fileName),
      'Cache-Control': 'no-store',
      // Opened rather than saved, the page still may not run or load anything.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      'X-Content-Type-Options': 'nosniff',
    }) as never
  })
}

import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import { OPERATION_TABLE, type OperationArgs } from '../../../shared/operations'
import { ReportExport } from '../../../shared/reportExport'
import { ClaimReview, type ExportFormat } from '../../../shared/schemas'
import { EXPORT_FORMATS } from '../../../shared/exportFormats'
import { exportCheck, type ExportTools } from '../../engine/exports'
import type { Service } from '../../engine/checks/service'
import type { ApiEnv } from '../auth'
import { restArguments } from './operations'
import { errorResponses } from './responses'

/// The schemas of the formats whose files are JSON.
const JSON_BODIES: Partial<Record<ExportFormat, z.ZodType>> = {
  json: ReportExport,
  claimreview: z.array(ClaimReview),
}

/// The schema of a format's file: its JSON's, else a string of text or of bytes.
const bodyOf = (format: ExportFormat, text: boolean): z.ZodType =>
  JSON_BODIES[format] ?? (text ? z.string() : z.string().meta({ format: 'binary' }))

const { summary, access, rest: route } = OPERATION_TABLE.export
const { params, query } = restArguments('export', route)

const exportReport = createRoute({
  method: route.method,
  path: route.path,
  operationId: 'export',
  summary,
  description: route.description,
  request: { params: params as NonNullable<typeof params>, query: query as NonNullable<typeof query> },
  responses: {
    200: {
      description: route.answer,
      headers: {
        'Content-Disposition': {
          description: '`attachment`, with the file’s name',
          schema: { type: 'string' },
        },
      },
      content: Object.fromEntries(
        (Object.entries(EXPORT_FORMATS) as [ExportFormat, (typeof EXPORT_FORMATS)[ExportFormat]][]).map(
          ([format, { mediaType, text }]) => [mediaType, { schema: bodyOf(format, text) }],
        ),
      ),
    },
    ...errorResponses(access),
  },
})

/// `Content-Disposition` for a download: an ASCII name for old clients and the exact one in `filename*`.
function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

/// The export route; `tools` make the files (see ExportTools).
export function exportRoutes(service: Service, tools: ExportTools): OpenAPIHono<ApiEnv> {
  return new OpenAPIHono<ApiEnv>().openapi(exportReport, async (c) => {
    // Checked against the operation's arguments, `[id, { format, comments }]`.
    const { id } = c.req.valid('param') as { id: OperationArgs<'export'>[0] }
    const { format, comments } = c.req.valid('query') as OperationArgs<'export'>[1]
    const file = await exportCheck(service, c.var.principal, id, format, tools, comments)
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

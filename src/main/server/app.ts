import { OpenAPIHono } from '@hono/zod-openapi'
import { Hono, type MiddlewareHandler } from 'hono'
import { ApiError } from '../../shared/errors'
import { OPERATION_TABLE } from '../../shared/operations'
import { API_BASE, OPENAPI_PATH } from '../../shared/rest'
import { MAX_DRAFT_CHARS } from '../../shared/schemas'
import type { Engine } from '../engine/engine'
import { chromiumPdf, type PdfPrinter } from '../engine/exports/pdf'
import { AtOnceLimit } from '../engine/base/rateLimit'
import { authenticate, type ApiEnv } from './auth'
import { jsonText } from './body'
import { cachedReport } from './cachedReport'
import { errorResponse, limitBody, notJson, validationError } from './errors'
import { describeApi, openApiDocument } from './openapi'
import { eventRoutes } from './routes/events'
import { exportRoutes } from './routes/exports'
import { operationAccess, operationRoutes } from './routes/operations'

/// The largest request body: room for the longest text a request may carry (a check's `limits.maxTextChars`, a
/// draft's MAX_DRAFT_CHARS), each character escaped in JSON in at most 6 bytes (`\u001f`), and for the rest of
/// the request. Longer texts are then refused in words, by their length.
const bodyBytes = (maxTextChars: number): number => 6 * Math.max(maxTextChars, MAX_DRAFT_CHARS) + 64 * 1024
/// `POST /drafts/import` carries a whole file of at most `importBytes`, in base64.
const fileBodyBytes = (importBytes: number): number => 4 * Math.ceil(importBytes / 3) + 64 * 1024

export interface AppOptions {
  /// Browser mode: also accept the session cookie of the page that `mountWeb` serves.
  acceptSessionCookie?: boolean
  /// Prints the PDF export; headless Chromium unless the desktop app hands in its own.
  printPdf?: PdfPrinter
  /// Aborted when the server stops (`listen`): the event streams, which never end by themselves, end then.
  stopping?: AbortSignal
}

/// The REST API of the specification, declared once with zod: the same declarations validate requests,
/// type the handlers and generate the OpenAPI document.
function createApi(engine: Engine, options: AppOptions = {}): OpenAPIHono<ApiEnv> {
  const api = new OpenAPIHono<ApiEnv>({
    defaultHook: (result) => {
      if (!result.success)
        throw validationError(result.error, result.target === 'json' ? 'request body' : result.target)
    },
  })
  api.use('*', authenticate(engine.service, options.acceptSessionCookie ?? false))
  api.use('*', operationAccess())
  const { limits } = engine.config
  // A file is held in memory while it is read and converted: so many at once per organization, before reading.
  const imports = new AtOnceLimit(limits.importsAtOnce, 'importsAtOnce')
  const importPath = OPERATION_TABLE.importFile.rest.path
  api.use(importPath, (c, next) => imports.run(c.var.principal.organizationId, 'imports', next))
  const textBody = limitBody(bodyBytes(limits.maxTextChars))
  const fileBody = limitBody(
    fileBodyBytes(limits.importBytes),
    `a file to import can be at most ${(limits.importBytes / 1024 / 1024).toFixed(1)} MB (limits.importBytes)`,
  )
  api.use(
    '*',
    (c, next) => (c.req.path === API_BASE + importPath ? fileBody : textBody)(c, next),
    requireJsonBody,
  )
  const printPdf = options.printPdf ?? chromiumPdf
  const { service, research, settings, pending, drafts, exports, config } = engine
  // Reports are served from the engine's serialized, kept-up-to-date copies (conditional and compressed).
  const middleware = { report: [cachedReport(engine.reports)] }
  api.route(
    '/',
    operationRoutes({ service, research, settings, pending, drafts, exports, config, printPdf }, middleware),
  )
  api.route('/', exportRoutes(service, { render: exports.render, printPdf, publisher: config.publisher }))
  api.route(
    '/',
    eventRoutes(engine.events, (tokenId) => service.isCurrent(tokenId), options.stopping),
  )
  describeApi(api, options.acceptSessionCookie ?? false)
  return api
}

/// The whole HTTP application: the API under `/api/v1`, its OpenAPI document (no authentication), and the
/// error envelope for everything else, unknown routes included.
export function createApp(engine: Engine, options: AppOptions = {}): Hono {
  const app = new Hono()
  const api = createApi(engine, options)
  app.get(API_BASE + OPENAPI_PATH, (c) => c.json(openApiDocument(api, options.acceptSessionCookie ?? false)))
  app.route(API_BASE, api)
  app.notFound(() => {
    throw new ApiError('not_found', 'There is no such route.')
  })
  app.onError(errorResponse)
  return app
}

/// A body, wherever one is sent, must be JSON (`jsonText`): checked once here, and its text kept for the route's
/// validator. A GET's or HEAD's body means nothing (no route reads one) and is left alone.
const requireJsonBody: MiddlewareHandler = async (c, next) => {
  const length = c.req.header('Content-Length')
  const read = c.req.method !== 'GET' && c.req.method !== 'HEAD'
  if (read && ((length !== undefined && length !== '0') || c.req.header('Transfer-Encoding'))) {
    if (!/^application\/([\w.-]+\+)?json\b/i.test(c.req.header('Content-Type') ?? '')) {
      throw notJson()
    }
    const text = jsonText(new Uint8Array(await c.req.arrayBuffer()))
    // What Hono's validator reads the body from (a promise of each kind, whatever its type says); the bytes need
    // not be kept beside it.
    c.req.bodyCache = { text: Promise.resolve(text) } as unknown as typeof c.req.bodyCache
  }
  await next()
}

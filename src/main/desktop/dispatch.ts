import type { z } from 'zod'
import {
  OPERATIONS,
  type FactdeskApi,
  type FactdeskOperations,
  type FileOperation,
  type IpcResult,
  type Operation,
} from '../../shared/api'
import { ApiError } from '../../shared/errors'
import { OPERATION_ARGS } from '../../shared/operations'
import type { FieldError } from '../../shared/schemas'
import type { Engine } from '../engine/engine'
import { exportReport } from '../engine/exports'
import { chromiumPdf, type PdfPrinter } from '../engine/exports/pdf'
import type { Principal } from '../engine/service'
import { isRemoteOperation, ServiceSwitch } from '../remote/switch'
import { isAppUrl } from './appPage'

/// Answers one call from the page: the operation, its arguments as sent, and the URL of the frame that sent it.
export type Dispatch = (
  operation: Operation,
  args: unknown[],
  senderUrl: string | undefined,
) => Promise<IpcResult<unknown>>

/// The parts of the engine the page's operations reach.
type EngineParts = Pick<
  Engine,
  'service' | 'research' | 'settings' | 'pending' | 'drafts' | 'exports' | 'localPrincipal'
>
/// Those parts, the switch to a remote service, and the PDF printer of exports.
type Parts = EngineParts & { services: ServiceSwitch; printPdf: PdfPrinter }

type Handlers = {
  [Op in Operation]: (
    engine: Parts,
    principal: Principal,
    ...args: Parameters<FactdeskApi[Op]>
  ) => Awaited<ReturnType<FactdeskApi[Op]>> | ReturnType<FactdeskApi[Op]>
}

/// Each operation of the page's API as a call on the engine, made as the desktop's own principal.
const HANDLERS: Handlers = {
  me: ({ service }, principal) => service.me(principal),
  credits: ({ service }, principal) => service.credits(principal),
  estimate: ({ service }, principal, request) => service.estimate(principal, request),
  submit: async ({ service }, principal, request) => (await service.submit(principal, request)).check,
  getCheck: ({ service }, principal, id) => service.getCheck(principal, id),
  report: ({ service }, principal, id) => service.report(principal, id),
  // Exported here from the report of whichever service holds the check, the remote one included.
  export: async ({ service, services, printPdf, exports }, principal, id, format) => {
    const remote = services.current()
    const report = remote ? await remote.report(id) : service.report(principal, id)
    return exportReport(report, format, printPdf, exports.render)
  },
  listChecks: ({ service }, principal, page) =>
    service.listChecks(principal, page.limit, page.cursor ?? null),
  cancel: ({ service }, principal, id) => service.cancel(principal, id),
  patch: ({ service }, principal, id, edits) => service.patch(principal, id, edits),
  research: ({ research }, principal, request) => research.create(principal, request),
  getResearch: ({ research }, principal, id) => research.get(principal, id),
  queueCheck: ({ pending }, principal, request) => pending.queue(principal, request).pending,
  listPendingChecks: ({ pending }, principal, waiting) => pending.list(principal, waiting),
  cancelPendingCheck: ({ pending }, principal, id) => pending.cancel(principal, id),
  listDrafts: ({ drafts }, principal) => drafts.list(principal),
  createDraft: ({ drafts }, principal, request) => drafts.create(principal, request),
  openDraft: ({ drafts }, principal, id) => drafts.open(principal, id),
  saveDraft: ({ drafts }, principal, id, request) => drafts.save(principal, id, request),
  importFile: ({ drafts }, principal, request) => drafts.importFile(principal, request),
  settings: ({ settings }, principal) => settings.view(principal),
  updateSettings: async ({ settings, services }, principal, patch) => {
    const saved = await settings.update(principal, patch)
    if (patch.service) services.refresh()
    return saved
  },
  testModel: ({ settings }, principal, model) => settings.testModel(principal, model),
  detectOllama: ({ settings }, principal) => settings.detectOllama(principal),
  testService: ({ services }, principal, request) => services.test(principal, request),
  testSearch: ({ settings }, principal, request) => settings.testSearch(principal, request),
  listTokens: ({ settings }, principal) => settings.listTokens(principal),
  createToken: ({ settings }, principal, request) => settings.createToken(principal, request),
  revokeToken: ({ settings }, principal, id) => settings.revokeToken(principal, id),
  webhookSecret: ({ service }, principal) => service.webhookSecret(principal),
  rotateWebhookSecret: ({ service }, principal) => service.rotateWebhookSecret(principal),
  grantCredits: ({ settings }, principal, amount) => settings.grantCredits(principal, amount),
}

/// The page's operations on the embedded engine, made as the desktop's own principal: what the window reaches
/// unless a remote service is chosen, and always for what belongs to this computer (settings, keys, tokens).
export function engineOperations(
  engine: EngineParts,
  services: ServiceSwitch,
  printPdf: PdfPrinter = chromiumPdf,
): FactdeskOperations {
  const parts: Parts = {
    service: engine.service,
    research: engine.research,
    settings: engine.settings,
    pending: engine.pending,
    drafts: engine.drafts,
    exports: engine.exports,
    localPrincipal: () => engine.localPrincipal(),
    services,
    printPdf,
  }
  const operation = (name: Operation) => {
    // The table is typed per operation; indexing it with a union loses the pairing of handler and arguments.
    const handler = HANDLERS[name] as (engine: Parts, principal: Principal, ...args: unknown[]) => unknown
    return async (...args: unknown[]) => handler(parts, parts.localPrincipal(), ...args)
  }
  return Object.fromEntries(
    OPERATIONS.map((name) => [name, operation(name)]),
  ) as unknown as FactdeskOperations
}

/// The IPC layer's one entry: only the app's own page is answered, arguments are checked against the shared
/// contract before the engine (or the remote service chosen in the settings) sees them, and every failure
/// comes back as the REST API's error envelope.
export function createDispatch(
  engine: EngineParts,
  page: URL,
  services = new ServiceSwitch(engine.settings),
  printPdf: PdfPrinter = chromiumPdf,
): Dispatch {
  const local = engineOperations(engine, services, printPdf)
  return async (operation, args, senderUrl) => {
    try {
      if (senderUrl === undefined || !isAppUrl(senderUrl, page)) {
        throw new ApiError('forbidden', 'Only the Factdesk window may call the engine.')
      }
      const parsed = OPERATION_ARGS[operation].safeParse(args)
      if (!parsed.success) {
        throw new ApiError(
          'bad_request',
          `The arguments of ${operation} are not valid.`,
          fieldErrors(parsed.error),
        )
      }
      const remote = services.current()
      // Indexing with a union of operations loses the pairing of operation and arguments.
      const run = (remote && isRemoteOperation(operation) ? remote[operation] : local[operation]) as (
        ...args: unknown[]
      ) => Promise<unknown>
      return { ok: true, data: await run(...parsed.data) }
    } catch (error) {
      return { ok: false, ...asApiError(error, operation).toEnvelope() }
    }
  }
}

/// A zod failure as the error envelope's field errors.
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ field: ['args', ...issue.path].join('.'), message: issue.message }))
}

// An unexpected failure is logged here in full and reaches the page only as a generic message: its text may
// hold a stack, SQL or a path.
export function asApiError(error: unknown, operation: Operation | FileOperation): ApiError {
  if (error instanceof ApiError) return error
  console.error(`factdesk: ${operation} failed`, error)
  return new ApiError('internal_error', 'Something went wrong in the engine. Try again.')
}

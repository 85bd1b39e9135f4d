import { remoteServiceRefused } from '../../shared/errors'
import {
  OPERATION_TABLE,
  OPERATIONS,
  type FactdeskOperations,
  type Operation,
  type OperationArgs,
  type OperationResult,
} from '../../shared/operations'
import type { Report, ServiceTest, ServiceTestRequest } from '../../shared/schemas'
import type { Engine } from './engine'
import { exportReport } from './exports'
import type { PdfPrinter } from './exports/pdf'
import { requireAccess, type Principal } from './checks/access'

/// The desktop app's choice of service (the shell's `ServiceSwitch`), as the operations of this computer see it.
export interface ServiceChoice {
  /// The remote service in use, or null for the embedded engine.
  current(): { report(id: string): Promise<Report> } | null
  /// Reads the saved choice again.
  refresh(): void
  /// Asks a remote service as entered in the form who its token is.
  test(principal: Principal, request: ServiceTestRequest): Promise<ServiceTest>
}

/// What the operations reach: the engine's parts and configuration, the PDF printer of exports and, in the
/// desktop app, its choice of service (a server is the service itself).
export type OperationParts = Pick<
  Engine,
  'service' | 'research' | 'settings' | 'pending' | 'drafts' | 'exports' | 'config'
> & {
  printPdf: PdfPrinter
  services?: ServiceChoice
}

/// Who calls, and how.
export interface Caller {
  principal: Principal
  /// Told when the answer repeats the first one made with the same key and body.
  replayed?(): void
}

type Handlers = {
  [Op in Operation]: (
    parts: OperationParts,
    caller: Caller,
    ...args: OperationArgs<Op>
  ) => OperationResult<Op> | Promise<OperationResult<Op>>
}

/// Each operation as a call on the engine, its arguments already checked.
const HANDLERS: Handlers = {
  me: async ({ service }, { principal }) => await service.me(principal),
  credits: async ({ service }, { principal }) => await service.credits(principal),
  estimate: ({ service }, { principal }, request) => service.estimate(principal, request),
  submit: async ({ service }, caller, request, idempotencyKey) => {
    const { check, replayed } = await service.submit(caller.principal, request, idempotencyKey)
    if (replayed) caller.replayed?.()
    return check
  },
  getCheck: async ({ service }, { principal }, id) => await service.getCheck(principal, id),
  report: async ({ service }, { principal }, id) => await service.report(principal, id),
  // Exported here from the report of whichever service holds the check, the remote one included.
  export: async (
    { service, services, printPdf, exports, config },
    { principal },
    id,
    { format, comments },
  ) => {
    const remote = services?.current()
    const report = remote ? await remote.report(id) : await service.report(principal, id)
    return exportReport(
      report,
      format,
      { render: exports.render, printPdf, publisher: config.publisher },
      comments,
    )
  },
  listChecks: async ({ service }, { principal }, page) =>
    await service.listChecks(principal, page.limit, page.cursor ?? null),
  cancel: async ({ service }, { principal }, id) => await service.cancel(principal, id),
  patch: async ({ service }, { principal }, id, edits) => await service.patch(principal, id, edits),
  webhookSecret: async ({ service }, { principal }) => await service.webhookSecret(principal),
  rotateWebhookSecret: async ({ service }, { principal }) => await service.rotateWebhookSecret(principal),
  research: ({ research }, { principal }, request) => research.create(principal, request),
  listResearch: async ({ research }, { principal }) => await research.list(principal),
  getResearch: async ({ research }, { principal }, id) => await research.get(principal, id),
  queueCheck: async ({ pending }, caller, request, idempotencyKey) => {
    const queued = await pending.queue(caller.principal, request, idempotencyKey)
    if (queued.replayed) caller.replayed?.()
    return queued.pending
  },
  listPendingChecks: async ({ pending }, { principal }, query) =>
    await pending.list(principal, query.status === 'waiting'),
  getPendingCheck: async ({ pending }, { principal }, id) => await pending.get(principal, id),
  cancelPendingCheck: async ({ pending }, { principal }, id) => await pending.cancel(principal, id),
  settings: ({ settings }, { principal }) => settings.view(principal),
  updateSettings: async ({ settings, services }, { principal }, patch) => {
    const saved = await settings.update(principal, patch)
    if (patch.service) services?.refresh()
    return saved
  },
  testModel: ({ settings }, { principal }, model) => settings.probes.testModel(principal, model),
  detectOllama: ({ settings }) => settings.probes.detectOllama(),
  testService: ({ services }, { principal }, request) => {
    if (!services) throw remoteServiceRefused()
    return services.test(principal, request)
  },
  testSearch: ({ settings }, { principal }, request) => settings.probes.testSearch(principal, request),
  listTokens: async ({ settings }, { principal }) => await settings.listTokens(principal),
  createToken: async ({ settings }, { principal }, request) => await settings.createToken(principal, request),
  revokeToken: async ({ settings }, { principal }, id) => await settings.revokeToken(principal, id),
  grantCredits: async ({ settings }, { principal }, request) =>
    await settings.grantCredits(principal, request.amount),
  listDrafts: async ({ drafts }, { principal }) => await drafts.list(principal),
  createDraft: async ({ drafts }, { principal }, request) => await drafts.create(principal, request),
  openDraft: async ({ drafts }, { principal }, id) => await drafts.open(principal, id),
  saveDraft: async ({ drafts }, { principal }, id, request) => await drafts.save(principal, id, request),
  importFile: ({ drafts }, { principal }, request) => drafts.importFile(principal, request),
}

/// Runs one operation for `caller` with arguments already checked against its declaration, once the caller may:
/// the operation's declared `access` is the one check of who may do what, on every path that reaches the engine.
export async function runOperation<Op extends Operation>(
  parts: OperationParts,
  operation: Op,
  caller: Caller,
  args: OperationArgs<Op>,
): Promise<OperationResult<Op>> {
  requireAccess(caller.principal, OPERATION_TABLE[operation].access)
  // The table is typed per operation; indexing it with a type parameter loses the pairing with the arguments.
  const handler = HANDLERS[operation] as (
    parts: OperationParts,
    caller: Caller,
    ...args: unknown[]
  ) => OperationResult<Op> | Promise<OperationResult<Op>>
  return handler(parts, caller, ...(args as unknown[]))
}

/// Every operation on the engine, each made as the principal `principal()` names when it is called.
export function engineOperations(
  parts: OperationParts,
  principal: () => Principal | Promise<Principal>,
): FactdeskOperations {
  const operation =
    (name: Operation) =>
    async (...args: unknown[]) =>
      runOperation(parts, name, { principal: await principal() }, args as OperationArgs<Operation>)
  return Object.fromEntries(OPERATIONS.map((name) => [name, operation(name)])) as FactdeskOperations
}

import type {
  Check,
  CheckList,
  Consensus,
  CreateCheckRequest,
  Credits,
  ErrorEnvelope,
  Estimate,
  EstimateRequest,
  Evaluation,
  Me,
  PatchCheckRequest,
  Report,
  TextIssue,
  Tier,
} from './schemas'

/// A change to one of the organization's reports, pushed to the page as it happens (the engine's `ReportEvent`
/// without the organization, which the main process and the server filter on).
export type ReportUpdate =
  | { type: 'check'; check: Check }
  | {
      type: 'claim'
      checkId: string
      claimId: string
      tier: Tier
      /// The vote that landed; null when a judge wrote the consensus.
      evaluation: Evaluation | null
      consensus: Consensus | null
      issues: TextIssue[]
    }

/// A page of the organization's checks: at most `limit`, after `cursor` (the previous page's `nextCursor`).
export interface CheckPage {
  limit?: number
  cursor?: string
}

/// The request-and-answer operations of the engine, one IPC channel and one REST route each.
export interface FactdeskOperations {
  /// The organization and token the editor acts as.
  me(): Promise<Me>
  /// The balance and the price list.
  credits(): Promise<Credits>
  /// The claims of a text and their price; charges nothing.
  estimate(request: EstimateRequest): Promise<Estimate>
  /// Charges and queues a check of a text or of an estimated document.
  submit(request: CreateCheckRequest): Promise<Check>
  getCheck(id: string): Promise<Check>
  /// The report as far as it is filled in.
  report(id: string): Promise<Report>
  /// The organization's checks, newest first.
  listChecks(page: CheckPage): Promise<CheckList>
  /// Stops a check and refunds what it did not do.
  cancel(id: string): Promise<Check>
  /// Edits a check's name, author or source URL.
  patch(id: string, edits: PatchCheckRequest): Promise<Check>
}

/// What the renderer can ask of the engine, and the updates it hears. Two implementations: IPC in the desktop
/// app (through the preload's `window.factdesk`) and HTTP with Server-Sent Events in browser mode. Both reject
/// with an `ApiError`.
export interface FactdeskApi extends FactdeskOperations {
  /// Calls `listener` with every change to the organization's reports; returns the function that stops it.
  subscribe(listener: (update: ReportUpdate) => void): () => void
}

/// The operations as IPC channel names, one per request-and-answer method of `FactdeskApi`.
export type Operation = keyof FactdeskOperations

// Written out rather than taken from `OPERATION_ARGS` (operations.ts) so that this module needs no zod: the
// sandboxed preload bundles it and may require only 'electron'. `satisfies` keeps the list complete.
const EVERY_OPERATION = {
  me: true,
  credits: true,
  estimate: true,
  submit: true,
  getCheck: true,
  report: true,
  listChecks: true,
  cancel: true,
  patch: true,
} satisfies Record<Operation, true>
/// Every operation, one IPC channel each.
export const OPERATIONS = Object.keys(EVERY_OPERATION) as Operation[]
export const channelOf = (operation: Operation): string => `factdesk:${operation}`
/// The one channel the main process pushes `ReportUpdate`s on; the page only listens to it.
export const REPORT_CHANNEL = 'factdesk:report-update'

/// How a result crosses the IPC boundary: Electron flattens thrown errors into strings, so failures
/// travel as the same error envelope the REST API uses.
export type IpcResult<T> = { ok: true; data: T } | ({ ok: false } & ErrorEnvelope)

/// What the desktop app's preload exposes as `window.factdesk`: each operation of `FactdeskApi`, resolving to
/// an `IpcResult` rather than rejecting, because Electron's context bridge keeps only the message of an error.
/// `onReport` listens to the pushed updates and returns the function that stops listening.
export type FactdeskIpc = {
  [Op in Operation]: (
    ...args: Parameters<FactdeskApi[Op]>
  ) => Promise<IpcResult<Awaited<ReturnType<FactdeskApi[Op]>>>>
} & { onReport(listener: (update: ReportUpdate) => void): () => void }

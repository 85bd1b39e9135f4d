import type { ApiError } from './errors'
import type {
  ApiToken,
  Check,
  CheckList,
  Consensus,
  CreateCheckRequest,
  CreateDraftRequest,
  CreatedToken,
  CreateTokenRequest,
  Credits,
  Draft,
  DraftList,
  DraftSummary,
  ErrorEnvelope,
  Estimate,
  EstimateRequest,
  Evaluation,
  ImportFileRequest,
  ExportFormat,
  Me,
  ModelTest,
  ModelTestRequest,
  OllamaDetection,
  PatchCheckRequest,
  PendingCheck,
  PendingCheckList,
  Report,
  Research,
  ResearchRequest,
  ResearchStep,
  SaveDraftRequest,
  SearchTest,
  SearchTestRequest,
  ServiceTest,
  ServiceTestRequest,
  Settings,
  SettingsPatch,
  TextIssue,
  Tier,
  TokenList,
  WebhookSecret,
  WebhookSecretRotation,
} from './schemas'

/// What the page hears of the organization's reports as it happens: the engine's changes, and in browser mode
/// `resync` when the event stream came back after a break without being able to send what it missed (the server
/// restarted, or too much happened meanwhile): what the page shows must then be read again.
export type ReportUpdate = EngineUpdate | { type: 'resync' }

/// A change to one of the organization's reports (the engine's `ReportEvent` without the organization, which
/// the main process and the server filter on).
export type EngineUpdate =
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
  /// A deep research run moved on: `step` is the one that just ended (null when the run ended or was
  /// accepted), `sourcesRead` the pages read so far.
  | { type: 'research'; research: Research; step: ResearchStep | null; sourcesRead: number }
  /// A check queued to run when online changed: it was queued, tried (and still waits), cancelled, failed, or
  /// started as `check` (then non-null).
  | { type: 'pending'; pending: PendingCheck; check: Check | null }

/// An exported report: the name to save it under, its media type and its bytes.
export interface ExportedFile {
  fileName: string
  contentType: string
  data: Uint8Array<ArrayBuffer>
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
  /// Charges and queues a check of a text or of an estimated document. A repeat with the same `idempotencyKey`
  /// and request answers the first check and charges nothing.
  submit(request: CreateCheckRequest, idempotencyKey?: string): Promise<Check>
  getCheck(id: string): Promise<Check>
  /// The report as far as it is filled in.
  report(id: string): Promise<Report>
  /// The check's annotated report as a file: HTML, Markdown, Word, PDF or JSON.
  export(id: string, format: ExportFormat): Promise<ExportedFile>
  /// The organization's checks, newest first.
  listChecks(page: CheckPage): Promise<CheckList>
  /// Stops a check and refunds what it did not do.
  cancel(id: string): Promise<Check>
  /// Edits a check's name, author or source URL.
  patch(id: string, edits: PatchCheckRequest): Promise<Check>
  // The person at this computer only (the desktop app, the `factdesk web` session): settings, keys, credits.
  /// The app's settings; saved keys appear only as `hasKey` and their last four characters.
  settings(): Promise<Settings>
  /// Saves the parts of the settings in `patch`; new work uses them at once.
  updateSettings(patch: SettingsPatch): Promise<Settings>
  /// One small structured request to a model as entered in the form (its saved key when none is given).
  testModel(model: ModelTestRequest): Promise<ModelTest>
  /// A local Ollama and the models it has pulled.
  detectOllama(): Promise<OllamaDetection>
  /// Asks a remote service as entered in the form who its token is (`GET /me`); the desktop app only.
  testService(request: ServiceTestRequest): Promise<ServiceTest>
  /// One search through the provider as entered in the form (its saved key when none is given).
  testSearch(request: SearchTestRequest): Promise<SearchTest>
  /// The organization's API tokens, revoked ones included; never their values.
  listTokens(): Promise<TokenList>
  /// A new API token; its value is in this answer only.
  createToken(request: CreateTokenRequest): Promise<CreatedToken>
  revokeToken(id: string): Promise<ApiToken>
  /// The webhook signing secret.
  webhookSecret(): Promise<WebhookSecret>
  /// A new webhook signing secret; the old one keeps signing for 24 hours.
  rotateWebhookSecret(): Promise<WebhookSecretRotation>
  /// Adds credits to the organization; answers the new balance.
  grantCredits(amount: number): Promise<Credits>
  /// Starts deep research on a claim of a check or on a text; charged the flat research price on acceptance.
  research(request: ResearchRequest): Promise<Research>
  /// A deep research run and, once completed, its argument map and finding.
  getResearch(id: string): Promise<Research>
  /// Queues a check to be submitted once its providers can be reached ("Check when online").
  queueCheck(request: CreateCheckRequest): Promise<PendingCheck>
  /// The organization's queued checks, newest first; only those waiting when `waiting` is true.
  listPendingChecks(waiting: boolean): Promise<PendingCheckList>
  /// Cancels a queued check that has not started.
  cancelPendingCheck(id: string): Promise<PendingCheck>
  /// The writer's drafts, the most recently opened first (without their text).
  listDrafts(): Promise<DraftList>
  /// A new draft.
  createDraft(request: CreateDraftRequest): Promise<Draft>
  /// A draft with its text and its last check's claim anchors; it moves to the top of the recent list.
  openDraft(id: string): Promise<Draft>
  /// The autosave of a draft's text (and title, last check, or "saved to a file"); cheap and idempotent.
  saveDraft(id: string, request: SaveDraftRequest): Promise<DraftSummary>
  /// A new draft of a file the page read: Markdown and text as they are, a Word document as Markdown.
  importFile(request: ImportFileRequest): Promise<Draft>
}

/// What the renderer can ask of the engine, and the updates it hears. Two implementations: IPC in the desktop
/// app (through the preload's `window.factdesk`) and HTTP with Server-Sent Events in browser mode. Both reject
/// with an `ApiError`.
export interface FactdeskApi extends FactdeskOperations {
  /// Calls `listener` with every change to the organization's reports; returns the function that stops it.
  subscribe(listener: (update: ReportUpdate) => void): () => void
  /// Files on disk through native dialogs: the desktop app only (null in a browser, which uploads and downloads).
  readonly files: DraftFiles | null
  /// Calls `listener` with the id of each draft the desktop app opened from a file the system asked it to open
  /// ("Open with"); returns the stop. Null in a browser.
  readonly onOpenedFile:
    ((listener: (draftId: string) => void, failed: (error: ApiError) => void) => () => void) | null
}

/// The desktop app's files, through its native dialogs: the page never names a path.
export interface DraftFiles {
  /// Asks for a Markdown, text or Word file and opens it as a draft; null when the dialog was cancelled.
  openFile(): Promise<Draft | null>
  /// Saves `text` as the draft's and to its file, asking where when it has none; null when cancelled.
  saveFile(id: string, text: string): Promise<DraftSummary | null>
  /// Asks where, then saves `text` as the draft's and to that file; null when cancelled.
  saveFileAs(id: string, text: string): Promise<DraftSummary | null>
}

/// The file operations, one IPC channel each (`channelOf`).
export type FileOperation = keyof DraftFiles
export const FILE_OPERATIONS: readonly FileOperation[] = ['openFile', 'saveFile', 'saveFileAs']

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
  export: true,
  listChecks: true,
  cancel: true,
  patch: true,
  settings: true,
  updateSettings: true,
  testModel: true,
  detectOllama: true,
  testService: true,
  testSearch: true,
  listTokens: true,
  createToken: true,
  revokeToken: true,
  webhookSecret: true,
  rotateWebhookSecret: true,
  grantCredits: true,
  research: true,
  getResearch: true,
  listDrafts: true,
  createDraft: true,
  openDraft: true,
  saveDraft: true,
  importFile: true,
  queueCheck: true,
  listPendingChecks: true,
  cancelPendingCheck: true,
} satisfies Record<Operation, true>
/// Every operation, one IPC channel each.
export const OPERATIONS = Object.keys(EVERY_OPERATION) as Operation[]
export const channelOf = (operation: Operation | FileOperation): string => `factdesk:${operation}`
/// The one channel the main process pushes `ReportUpdate`s on; the page only listens to it.
export const REPORT_CHANNEL = 'factdesk:report-update'
/// The channel the main process names a draft on that it opened from a file the system asked it to open ("Open
/// with", the command line), for the page to show: an `IpcResult` of the draft's id.
export const OPENED_FILE_CHANNEL = 'factdesk:opened-file'

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
} & {
  onReport(listener: (update: ReportUpdate) => void): () => void
  /// Listens to the drafts of files the system asked the app to open; those asked before it listened come first.
  onOpenedFile(listener: (opened: IpcResult<string>) => void): () => void
  files: {
    [Op in FileOperation]: (
      ...args: Parameters<DraftFiles[Op]>
    ) => Promise<IpcResult<Awaited<ReturnType<DraftFiles[Op]>>>>
  }
}

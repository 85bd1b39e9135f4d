import type {
  ApiToken,
  Check,
  CheckList,
  Consensus,
  CreateCheckRequest,
  CreatedToken,
  CreateTokenRequest,
  Credits,
  ErrorEnvelope,
  Estimate,
  EstimateRequest,
  Evaluation,
  Me,
  ModelTest,
  ModelTestRequest,
  OllamaDetection,
  PatchCheckRequest,
  Report,
  Research,
  ResearchRequest,
  ResearchStep,
  Settings,
  SettingsPatch,
  TextIssue,
  Tier,
  TokenList,
  WebhookSecret,
  WebhookSecretRotation,
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
  /// A deep research run moved on: `step` is the one that just ended (null when the run ended or was
  /// accepted), `sourcesRead` the pages read so far.
  | { type: 'research'; research: Research; step: ResearchStep | null; sourcesRead: number }

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
  // The person at this computer only (the desktop app, the `factdesk web` session): settings, keys, credits.
  /// The app's settings; saved keys appear only as `hasKey` and their last four characters.
  settings(): Promise<Settings>
  /// Saves the parts of the settings in `patch`; new work uses them at once.
  updateSettings(patch: SettingsPatch): Promise<Settings>
  /// One small structured request to a model as entered in the form (its saved key when none is given).
  testModel(model: ModelTestRequest): Promise<ModelTest>
  /// A local Ollama and the models it has pulled.
  detectOllama(): Promise<OllamaDetection>
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
  settings: true,
  updateSettings: true,
  testModel: true,
  detectOllama: true,
  listTokens: true,
  createToken: true,
  revokeToken: true,
  webhookSecret: true,
  rotateWebhookSecret: true,
  grantCredits: true,
  research: true,
  getResearch: true,
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

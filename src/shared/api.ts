import type { ApiError } from './errors'
import type { FactdeskOperations, Operation } from './operations'
import type {
  Check,
  Consensus,
  Draft,
  DraftSummary,
  ErrorEnvelope,
  Evaluation,
  PendingCheck,
  Research,
  ResearchStep,
  TextIssue,
  Tier,
} from './schemas'

export type { ExportedFile, FactdeskOperations, Operation } from './operations'

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

/// The channel the preload asks the operations' names on (in one synchronous call as it starts): it bundles
/// this module but not the table of operations (operations.ts), which needs zod, and may require only 'electron'.
export const OPERATIONS_CHANNEL = 'factdesk:operations'
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

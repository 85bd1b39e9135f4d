import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import {
  channelOf,
  FILE_OPERATIONS,
  OPENED_FILE_CHANNEL,
  OPERATIONS_CHANNEL,
  REPORT_CHANNEL,
  type FactdeskIpc,
  type FileOperation,
  type IpcResult,
  type Operation,
  type ReportUpdate,
} from '../shared/api'

// What the page sees as `window.factdesk` (see FactdeskIpc: results, not thrown errors, cross the bridge).

// One function per operation and one subscription, nothing else: no ipcRenderer, no way to name a channel.
const invoker = (operation: Operation | FileOperation) => [
  operation,
  (...args: unknown[]): Promise<unknown> => ipcRenderer.invoke(channelOf(operation), ...args),
]
/// The engine's operations, as the main process names them.
const operations = Object.fromEntries((ipcRenderer.sendSync(OPERATIONS_CHANNEL) as Operation[]).map(invoker))
/// Files on disk, through the main process's dialogs: the page never names a path.
const files = Object.fromEntries(FILE_OPERATIONS.map(invoker))

/// Pushed report updates; the page's listener gets the update alone, never the IPC event and its sender.
function onReport(listener: (update: ReportUpdate) => void): () => void {
  const forward = (_event: IpcRendererEvent, update: ReportUpdate): void => listener(update)
  ipcRenderer.on(REPORT_CHANNEL, forward)
  return () => {
    ipcRenderer.removeListener(REPORT_CHANNEL, forward)
  }
}

/// The drafts of files the system asked to open: heard from the start, since the main process may name one before
/// the page listens, and kept until it does.
const opened: IpcResult<string>[] = []
let openedListener: ((opened: IpcResult<string>) => void) | null = null
ipcRenderer.on(OPENED_FILE_CHANNEL, (_event: IpcRendererEvent, result: IpcResult<string>) => {
  if (openedListener) openedListener(result)
  else opened.push(result)
})
function onOpenedFile(listener: (opened: IpcResult<string>) => void): () => void {
  openedListener = listener
  for (const result of opened.splice(0)) listener(result)
  return () => {
    if (openedListener === listener) openedListener = null
  }
}

const factdesk = { ...operations, files, onReport, onOpenedFile } as unknown as FactdeskIpc

contextBridge.exposeInMainWorld('factdesk', factdesk)

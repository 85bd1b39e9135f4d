import { contextBridge, ipcRenderer } from 'electron'
import { channelOf, OPERATIONS, type FactdeskApi, type IpcResult, type Operation } from '../shared/api'

/// What the page sees as `window.factdesk`: every operation of `FactdeskApi`, resolving to its `IpcResult`
/// instead of throwing. contextBridge copies only the message of a thrown Error, so an `ApiError`'s code and
/// details would be lost on the way; the page's IPC bridge turns a failed result into an `ApiError` itself.
type FactdeskIpc = {
  [Op in Operation]: (
    ...args: Parameters<FactdeskApi[Op]>
  ) => Promise<IpcResult<Awaited<ReturnType<FactdeskApi[Op]>>>>
}

// One function per operation and nothing else: no ipcRenderer, no way to name a channel.
const factdesk = Object.fromEntries(
  OPERATIONS.map((operation) => [
    operation,
    (...args: unknown[]): Promise<unknown> => ipcRenderer.invoke(channelOf(operation), ...args),
  ]),
) as FactdeskIpc

contextBridge.exposeInMainWorld('factdesk', factdesk)

import { contextBridge, ipcRenderer } from 'electron'
import { channelOf, OPERATIONS, type FactdeskIpc } from '../shared/api'

// What the page sees as `window.factdesk` (see FactdeskIpc: results, not thrown errors, cross the bridge).

// One function per operation and nothing else: no ipcRenderer, no way to name a channel.
const factdesk = Object.fromEntries(
  OPERATIONS.map((operation) => [
    operation,
    (...args: unknown[]): Promise<unknown> => ipcRenderer.invoke(channelOf(operation), ...args),
  ]),
) as FactdeskIpc

contextBridge.exposeInMainWorld('factdesk', factdesk)

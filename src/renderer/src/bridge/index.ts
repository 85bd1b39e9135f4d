import type { FactdeskApi } from '../../../shared/api'
import { httpApi } from './http'
import { ipcApi } from './ipc'

/// The page's one way to the engine: through the preload in the desktop app, over HTTP in a browser.
export function connectBridge(): FactdeskApi {
  return window.factdesk ? ipcApi(window.factdesk) : httpApi()
}

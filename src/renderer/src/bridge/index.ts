import type { FactdeskApi } from '../../../shared/api'
import { httpApi } from './http'
import { ipcApi } from './ipc'
import { withManuscripts } from './manuscripts'

/// The page's one way to the engine: through the preload in the desktop app, over HTTP in a browser; a text
/// longer than one check may be is checked in parts.
export function connectBridge(): FactdeskApi {
  return withManuscripts(window.factdesk ? ipcApi(window.factdesk) : httpApi())
}

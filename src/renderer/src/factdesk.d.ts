import type { FactdeskIpc } from '../../shared/api'

declare global {
  interface Window {
    /// The desktop app's way to the engine, set by the preload; absent in browser mode.
    factdesk?: FactdeskIpc
  }
}

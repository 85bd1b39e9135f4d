import type { FactdeskApi, FactdeskIpc, FactdeskOperations, IpcResult } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'
import { OPERATIONS } from '../../../shared/operations'

/// The desktop bridge: each operation through the preload, a failure rejected as the `ApiError` it was; pushed
/// report updates through the preload's one subscription.
export function ipcApi(factdesk: FactdeskIpc): FactdeskApi {
  const operations = OPERATIONS.map((name) => {
    // Indexing with a union of operations loses the pairing of operation and arguments.
    const invoke = factdesk[name] as (...args: unknown[]) => Promise<IpcResult<unknown>>
    return [name, (...args: unknown[]) => unwrap(invoke(...args))]
  })
  return {
    ...(Object.fromEntries(operations) as FactdeskOperations),
    subscribe: (listener) => factdesk.onReport(listener),
    onOpenedFile: (listener, failed) =>
      factdesk.onOpenedFile((opened) =>
        opened.ok ? listener(opened.data) : failed(ApiError.fromEnvelope(opened)),
      ),
    files: {
      openFile: () => unwrap(factdesk.files.openFile()),
      saveFile: (id, text) => unwrap(factdesk.files.saveFile(id, text)),
      saveFileAs: (id, text) => unwrap(factdesk.files.saveFileAs(id, text)),
    },
  }
}

async function unwrap<T>(pending: Promise<IpcResult<T>>): Promise<T> {
  const result = await pending
  if (!result.ok) throw ApiError.fromEnvelope(result)
  return result.data
}

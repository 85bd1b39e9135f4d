import type { FactdeskApi, FactdeskIpc, IpcResult } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'

/// The desktop bridge: each operation through the preload, a failure rejected as the `ApiError` it was.
export function ipcApi(factdesk: FactdeskIpc): FactdeskApi {
  return {
    me: () => unwrap(factdesk.me()),
    credits: () => unwrap(factdesk.credits()),
  }
}

async function unwrap<T>(pending: Promise<IpcResult<T>>): Promise<T> {
  const result = await pending
  if (!result.ok) throw ApiError.fromEnvelope(result)
  return result.data
}

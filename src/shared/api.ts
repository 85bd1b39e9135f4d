import type { Credits, ErrorEnvelope, Me } from './schemas'

/// What the renderer can ask of the engine. Two implementations: IPC in the desktop app (through the
/// preload's `window.factdesk`) and HTTP in browser mode. Both reject with an `ApiError`.
export interface FactdeskApi {
  /// The organization and token the editor acts as.
  me(): Promise<Me>
  /// The balance and the price list.
  credits(): Promise<Credits>
}

/// The operations as IPC channel names, one per method of `FactdeskApi`.
export type Operation = keyof FactdeskApi

// Written out rather than taken from `OPERATION_ARGS` (operations.ts) so that this module needs no zod: the
// sandboxed preload bundles it and may require only 'electron'. `satisfies` keeps the list complete.
const EVERY_OPERATION = { me: true, credits: true } satisfies Record<Operation, true>
/// Every operation, one IPC channel each.
export const OPERATIONS = Object.keys(EVERY_OPERATION) as Operation[]
export const channelOf = (operation: Operation): string => `factdesk:${operation}`

/// How a result crosses the IPC boundary: Electron flattens thrown errors into strings, so failures
/// travel as the same error envelope the REST API uses.
export type IpcResult<T> = { ok: true; data: T } | ({ ok: false } & ErrorEnvelope)

/// What the desktop app's preload exposes as `window.factdesk`: each operation of `FactdeskApi`, resolving to
/// an `IpcResult` rather than rejecting, because Electron's context bridge keeps only the message of an error.
export type FactdeskIpc = {
  [Op in Operation]: (
    ...args: Parameters<FactdeskApi[Op]>
  ) => Promise<IpcResult<Awaited<ReturnType<FactdeskApi[Op]>>>>
}

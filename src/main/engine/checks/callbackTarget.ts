import { ApiError } from '../../../shared/errors'
import { resolveTarget, TargetRefused, type HostResolver } from '../base/addresses'

/// At submission: the `callbackUrl`'s host must resolve, and only to public addresses (or loopback when
/// allowed); 422 otherwise. The syntax was checked before (`requireCallbackUrl`).
export async function requireCallbackTarget(
  callbackUrl: string,
  allowLocal: boolean,
  resolve: HostResolver,
): Promise<void> {
  try {
    await resolveTarget(new URL(callbackUrl), allowLocal, resolve)
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error
    throw new ApiError('unprocessable', `callbackUrl must be a public address: its ${error.message}.`, [
      { field: 'callbackUrl', message: error.message },
    ])
  }
}

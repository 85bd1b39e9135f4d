import { ApiError } from '../../../shared/errors'
import type { Access } from '../../../shared/operations'
import type { Scope } from '../../../shared/schemas'

/// Who is asking: the organization a token acts for, and what it may do. `owner` is the person at this
/// computer: the desktop app, or the browser session that `factdesk web` opened. Only the owner may change the
/// app's settings and keys, manage tokens and add credits; API tokens never can.
export interface Principal {
  organizationId: string
  tokenId: string
  scope: Scope
  owner: boolean
}

/// Whether `principal` may call an operation declared with `access` (`shared/operations.ts`).
export function mayCall(principal: Principal, access: Access): boolean {
  if (access === 'read') return true
  if (principal.scope !== 'write') return false
  return access === 'write' || principal.owner
}

/// Refuses `principal` an operation declared with `access`: the one check of who may do what, made by
/// `runOperation` for every operation on every path (REST, IPC, the CLI), from the table.
export function requireAccess(principal: Principal, access: Access): void {
  if (mayCall(principal, access)) return
  throw access === 'owner'
    ? new ApiError(
        'forbidden',
        'Only the desktop app or the browser session of `factdesk web` can do this; API tokens cannot.',
      )
    : new ApiError('forbidden', 'This needs a token with write scope; this one is read-only.')
}

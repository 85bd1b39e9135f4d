import { create } from 'zustand'
import type { FactdeskApi } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'

/// The organization the editor works for and its balance, as far as the engine has answered. `signed-out` is
/// browser mode without a session: the page was opened without the link `factdesk web` printed.
export type Account =
  | { status: 'loading' }
  | { status: 'ready'; organization: string; balance: number }
  | { status: 'signed-out' }
  | { status: 'failed'; message: string }

export interface AccountStore {
  account: Account
  /// Asks the engine who the editor is and what its balance is.
  load(api: FactdeskApi): Promise<void>
}

/// The account shown in the status bar.
export const useAccount = create<AccountStore>()((set) => ({
  account: { status: 'loading' },
  load: async (api) => {
    try {
      const [me, credits] = await Promise.all([api.me(), api.credits()])
      set({ account: { status: 'ready', organization: me.organization.name, balance: credits.balance } })
    } catch (error) {
      set({ account: accountFailure(error) })
    }
  },
}))

function accountFailure(error: unknown): Account {
  if (error instanceof ApiError && error.code === 'unauthorized') return { status: 'signed-out' }
  return { status: 'failed', message: error instanceof Error ? error.message : String(error) }
}

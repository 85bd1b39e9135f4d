import { ApiError } from '../../../shared/errors'
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { FactdeskApi, ReportUpdate } from '../../../shared/api'
import type { Check, PendingCheck } from '../../../shared/schemas'
import { startedMessage } from '../../../shared/notices'
import type { ChecksStoreApi } from './checks'
import { showError, showInfo } from './notices'
import { announce, askToNotify } from './systemNotice'

/// Checks queued to run when online ("Check when online"): the ones still waiting, kept up to date by pushed
/// updates, and the writer told when one starts.
export interface PendingStore {
  waiting: PendingCheck[]
  /// Whether the list of waiting checks is open.
  open: boolean
  load(): Promise<void>
  /// Queues the check the editor could not start: the current estimate's document and tiers.
  queue(): Promise<void>
  cancel(id: string): Promise<void>
  toggle(): void
  /// Loads the waiting checks and listens to pushed updates (a check that starts from the queue shows in the
  /// editor); returns the stop.
  connect(): () => void
}

/// One window's store of queued checks.
export type PendingStoreApi = StoreApi<PendingStore>

/// What a store of queued checks works for: the window's bridge and its checks store (whose estimate is
/// queued, and which follows a queued check once it starts).
export interface PendingDesk {
  readonly api: FactdeskApi
  readonly checks: ChecksStoreApi
}

/// The store of the checks queued from one window, with its bridge and checks store.
export const createPendingStore = ({ api, checks }: PendingDesk): PendingStoreApi =>
  createStore<PendingStore>()((set, get) => {
    function onUpdate(update: ReportUpdate): void {
      if (update.type === 'resync') void get().load()
      if (update.type !== 'pending') return
      const { pending, check } = update
      const others = get().waiting.filter((each) => each.id !== pending.id)
      const waiting = pending.status === 'waiting' ? [pending, ...others] : others
      set({ waiting, open: get().open && waiting.length > 0 })
      if (pending.status === 'submitted' && check) started(pending, check)
      if (pending.status === 'failed') {
        showInfo(
          `Your check of “${pending.label}” could not start: ${pending.error?.message ?? 'it was refused.'}`,
        )
      }
    }

    function started(pending: PendingCheck, check: Check): void {
      const text = startedMessage(pending.label)
      showInfo(text)
      checks.getState().followStarted(check)
      announce(text)
    }

    return {
      waiting: [],
      open: false,

      load: async () => {
        try {
          set({ waiting: (await api.listPendingChecks({ status: 'waiting' })).data })
        } catch (error) {
          // A page without a session says so once, in its session notice.
          if (error instanceof ApiError && error.code === 'unauthorized') return
          showError(error)
        }
      },

      queue: async () => {
        const { estimate, submission } = checks.getState()
        if (!estimate) return
        askToNotify()
        try {
          const pending = await api.queueCheck(submission(estimate))
          set({ waiting: [pending, ...get().waiting.filter((each) => each.id !== pending.id)] })
          showInfo(
            `Waiting to check “${pending.label}”: it starts by itself as soon as the models can be reached, ` +
              'and is charged only then.',
          )
        } catch (error) {
          showError(error)
        }
      },

      cancel: async (id) => {
        try {
          const pending = await api.cancelPendingCheck(id)
          const waiting = get().waiting.filter((each) => each.id !== id)
          set({ waiting, open: get().open && waiting.length > 0 })
          showInfo(`The check of “${pending.label}” will not run.`)
        } catch (error) {
          showError(error)
        }
      },

      toggle: () => set({ open: !get().open }),

      connect: () => {
        void get().load()
        return api.subscribe(onUpdate)
      },
    }
  })

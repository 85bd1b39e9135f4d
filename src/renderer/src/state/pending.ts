import { ApiError } from '../../../shared/errors'
import { create } from 'zustand'
import type { FactdeskApi, ReportUpdate } from '../../../shared/api'
import type { Check, PendingCheck } from '../../../shared/schemas'
import { startedMessage } from '../../../shared/notices'
import type { Desk } from './desk'
import { showError, showInfo } from './notices'
import { announce, askToNotify } from './systemNotice'

/// Checks queued to run when online ("Check when online"): the ones still waiting, kept up to date by pushed
/// updates, and the writer told when one starts.
export interface PendingStore {
  waiting: PendingCheck[]
  /// Whether the list of waiting checks is open.
  open: boolean
  load(api: FactdeskApi): Promise<void>
  /// Queues the check the editor could not start: the current estimate's document and tiers.
  queue(desk: Desk): Promise<void>
  cancel(api: FactdeskApi, id: string): Promise<void>
  toggle(): void
  /// Loads the waiting checks and listens to the pushed updates of the window of `desk` (a check that starts
  /// from the queue shows in its editor); returns the stop.
  connect(desk: Desk): () => void
}

export const usePending = create<PendingStore>()((set, get) => {
  function onUpdate(desk: Desk, update: ReportUpdate): void {
    if (update.type === 'resync') void get().load(desk.api)
    if (update.type !== 'pending') return
    const { pending, check } = update
    const others = get().waiting.filter((each) => each.id !== pending.id)
    const waiting = pending.status === 'waiting' ? [pending, ...others] : others
    set({ waiting, open: get().open && waiting.length > 0 })
    if (pending.status === 'submitted' && check) started(desk, pending, check)
    if (pending.status === 'failed') {
      showInfo(
        `Your check of “${pending.label}” could not start: ${pending.error?.message ?? 'it was refused.'}`,
      )
    }
  }

  function started(desk: Desk, pending: PendingCheck, check: Check): void {
    const text = startedMessage(pending.label)
    showInfo(text)
    desk.checks.getState().followStarted(check)
    announce(text)
  }

  return {
    waiting: [],
    open: false,

    load: async (api) => {
      try {
        set({ waiting: (await api.listPendingChecks({ status: 'waiting' })).data })
      } catch (error) {
        // A page without a session says so once, in its session notice.
        if (error instanceof ApiError && error.code === 'unauthorized') return
        showError(error)
      }
    },

    queue: async ({ api, checks }) => {
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

    cancel: async (api, id) => {
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

    connect: (desk) => {
      void get().load(desk.api)
      return desk.api.subscribe((update) => onUpdate(desk, update))
    },
  }
})

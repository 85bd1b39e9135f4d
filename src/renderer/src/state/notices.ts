import { create } from 'zustand'
import { ApiError } from '../../../shared/errors'

/// A message shown in place: what went wrong, or what the writer should know, in words.
export interface Notice {
  kind: 'error' | 'info'
  text: string
  /// The check could not start because its providers are unreachable: offer to queue it ("Check when online").
  offline?: boolean
  /// The cause is in Settings (a tier without models): offer to open them; saving them takes the notice away.
  settings?: boolean
}

export interface NoticesStore {
  notice: Notice | null
  /// Shows `notice` in place of the one shown.
  show(notice: Notice): void
  dismiss(): void
}

/// The window's one notice, above the editor: every store and panel says there what went wrong or what to know.
export const useNotices = create<NoticesStore>()((set) => ({
  notice: null,
  show: (notice) => set({ notice }),
  dismiss: () => set({ notice: null }),
}))

/// Words for a failure: the engine's own message for an `ApiError`, never a stack or JSON.
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message
  return 'Something went wrong. Your text is safe; try again.'
}

/// Says what went wrong: `error` in words, after `lead`.
export const showError = (error: unknown, lead = ''): void =>
  useNotices.getState().show({ kind: 'error', text: `${lead}${describeError(error)}` })

/// Says what the writer should know.
export const showInfo = (text: string): void => useNotices.getState().show({ kind: 'info', text })

/// Takes the notice away (an action starts that may say something new).
export const dismissNotice = (): void => useNotices.getState().dismiss()

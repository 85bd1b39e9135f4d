import { create } from 'zustand'

/// The settings tabs, in order.
export const SETTINGS_TABS = ['models', 'search', 'writing', 'credits', 'keys', 'service'] as const
export type SettingsTab = (typeof SETTINGS_TABS)[number]

export interface SettingsDialogStore {
  /// The open tab, or null when the dialog is closed.
  tab: SettingsTab | null
  open(tab?: SettingsTab): void
  close(): void
}

/// Whether the Settings dialog is open and on which tab (the toolbar, the status bar and Ctrl+, open it).
export const useSettingsDialog = create<SettingsDialogStore>()((set) => ({
  tab: null,
  open: (tab = 'models') => set({ tab }),
  close: () => set({ tab: null }),
}))

import { createContext, useContext } from 'react'
import { useStore } from 'zustand'
import type { ChecksStore } from '../state/checks'
import type { Desk } from '../state/desk'
import type { DraftsStore } from '../state/drafts'
import type { PendingStore } from '../state/pending'
import type { ResearchStore } from '../state/research'

/// The window's desk (its bridge to the engine, its editor and its stores), given to every component by App.
export const DeskContext = createContext<Desk | null>(null)

/// The desk of the window this component is in.
export function useDesk(): Desk {
  const desk = useContext(DeskContext)
  if (!desk) throw new Error('A component of the window was drawn outside App, which gives it its desk.')
  return desk
}

/// What `select` reads of the window's checks store, drawn again when it changes.
export const useChecks = <T>(select: (store: ChecksStore) => T): T => useStore(useDesk().checks, select)

/// What `select` reads of the window's drafts store, drawn again when it changes.
export const useDrafts = <T>(select: (store: DraftsStore) => T): T => useStore(useDesk().drafts, select)

/// What `select` reads of the window's research store, drawn again when it changes.
export const useResearch = <T>(select: (store: ResearchStore) => T): T => useStore(useDesk().research, select)

/// What `select` reads of the window's store of queued checks, drawn again when it changes.
export const usePending = <T>(select: (store: PendingStore) => T): T => useStore(useDesk().pending, select)

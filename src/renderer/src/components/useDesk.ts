import { createContext, useContext } from 'react'
import type { Desk } from '../state/desk'

/// The window's desk (its bridge to the engine and its editor), given to every component by App.
export const DeskContext = createContext<Desk | null>(null)

/// The desk of the window this component is in.
export function useDesk(): Desk {
  const desk = useContext(DeskContext)
  if (!desk) throw new Error('A component of the window was drawn outside App, which gives it its desk.')
  return desk
}

import { useEffect, useRef, type JSX } from 'react'
import type { MenuRequest } from '../editor/contextMenu'
import { lineKeys } from './roving'
import { useDesk } from './useDesk'

const MENU_KEYS = lineKeys('ArrowDown', 'ArrowUp')

/// The text's own menu, where it was asked for: "Check selection" with text selected, "Check this section", and
/// "Open detail" on a checked claim. Its first item takes the focus; arrows, Home and End move in it; Escape,
/// Tab or a press outside close it, and the focus goes back to the text.
export function EditorMenu({
  at,
  onOpenClaim,
  onClose,
}: {
  at: MenuRequest
  onOpenClaim: (claimId: string) => void
  onClose: () => void
}): JSX.Element {
  const desk = useDesk()
  const menu = useRef<HTMLDivElement>(null)
  useEffect(() => {
    menu.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus()
    const close = (event: MouseEvent): void => {
      if (!menu.current?.contains(event.target as Node)) onClose()
    }
    document.addEventListener('mousedown', close)
    return () => document.removeEventListener('mousedown', close)
  }, [onClose])

  const back = (): void => {
    onClose()
    desk.view()?.focus()
  }
  const item = (name: string, choose: () => void): JSX.Element => (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      onClick={() => {
        back()
        choose()
      }}
    >
      {name}
    </button>
  )

  return (
    <div
      ref={menu}
      className="export-list editor-menu"
      role="menu"
      aria-label="Text"
      style={{ left: at.x, top: at.y }}
      onContextMenu={(event) => event.preventDefault()}
      onKeyDown={(event) => {
        if (event.key === 'Escape' || event.key === 'Tab') {
          event.preventDefault()
          event.stopPropagation()
          back()
          return
        }
        const move = MENU_KEYS[event.key]
        const items = [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])]
        const current = items.indexOf(document.activeElement as HTMLButtonElement)
        if (!move || items.length === 0) return
        event.preventDefault()
        items[move(Math.max(current, 0), items.length)]?.focus()
      }}
    >
      {at.selection && item('Check selection', () => void desk.checks.getState().runEstimate())}
      {item('Check this section', () => void desk.checks.getState().checkSection(at.pos))}
      {at.claimId !== null && item('Open detail', () => onOpenClaim(at.claimId as string))}
    </div>
  )
}

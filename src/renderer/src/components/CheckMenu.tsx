import { useEffect, useRef, useState, type JSX } from 'react'
import type { FactdeskApi } from '../../../shared/api'
import { useChecks } from '../state/checks'

/// More ways to check, beside Check: "Check everything again" ignores the draft's last check, so that every claim
/// is estimated and checked anew instead of keeping the verdicts of those unchanged since; "Check this section"
/// estimates only the heading's section around the cursor.
export function CheckMenu({ api, disabled }: { api: FactdeskApi; disabled: boolean }): JSX.Element {
  const since = useChecks((store) => store.since)
  const [open, setOpen] = useState(false)
  const menu = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!open) return
    menu.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus()
    const close = (event: MouseEvent): void => {
      if (!menu.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', close)
    return () => document.removeEventListener('mousedown', close)
  }, [open])

  return (
    <div
      className="export-menu check-menu"
      ref={menu}
      onKeyDown={(event) => {
        if (!open || (event.key !== 'Escape' && event.key !== 'Tab')) return
        setOpen(false)
        if (event.key === 'Escape') {
          event.stopPropagation()
          menu.current?.querySelector<HTMLButtonElement>('.check-menu-button')?.focus()
        }
      }}
    >
      <button
        type="button"
        className="button check-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label="More ways to check"
        disabled={disabled}
        onClick={() => setOpen(!open)}
      >
        ▾
      </button>
      {open && (
        <div className="export-list" role="menu" aria-label="More ways to check">
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            onClick={() => {
              setOpen(false)
              void useChecks.getState().checkEverythingAgain(api)
            }}
          >
            <span className="export-name">Check everything again</span>
            <span className="export-detail">
              {since
                ? 'every claim, even those unchanged since the last check'
                : 'every claim (there is no earlier check to keep verdicts from)'}
            </span>
          </button>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            onClick={() => {
              setOpen(false)
              void useChecks.getState().checkSection(api)
            }}
          >
            <span className="export-name">Check this section</span>
            <span className="export-detail">the claims under the heading at the cursor</span>
          </button>
        </div>
      )}
    </div>
  )
}

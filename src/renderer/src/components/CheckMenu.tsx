import type { JSX } from 'react'
import { useChecks, useDesk } from './useDesk'
import { useMenu } from './useMenu'

/// More ways to check, beside Check: "Check everything again" ignores the draft's last check, so that every claim
/// is estimated and checked anew instead of keeping the verdicts of those unchanged since; "Check this section"
/// estimates only the heading's section around the cursor.
export function CheckMenu({ disabled }: { disabled: boolean }): JSX.Element {
  const { checks } = useDesk()
  const since = useChecks((store) => store.since)
  const { open, setOpen, menu } = useMenu()
  const item = (name: string, detail: string, choose: () => Promise<void>): JSX.Element => (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      onClick={() => {
        setOpen(false)
        void choose()
      }}
    >
      <span className="export-name">{name}</span>
      <span className="export-detail">{detail}</span>
    </button>
  )

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
          {item(
            'Check everything again',
            since
              ? 'every claim, even those unchanged since the last check'
              : 'every claim (there is no earlier check to keep verdicts from)',
            () => checks.getState().checkEverythingAgain(),
          )}
          {item('Check this section', 'the claims under the heading at the cursor', () =>
            checks.getState().checkSection(),
          )}
        </div>
      )}
    </div>
  )
}

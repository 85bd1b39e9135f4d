import { useEffect, useRef, useState, type JSX, type KeyboardEvent, type ReactNode } from 'react'
import { focusLost } from './focus'

const FOCUSABLE =
  'button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), [tabindex="0"]'

/// A question asked in place (open a link, rotate a secret, spend credits on research), as the WAI-ARIA
/// (alert) dialog pattern has it: it takes the focus (on the button its children mark `autoFocus`, else on its
/// first), Tab stays inside it until it is answered, Escape answers `onCancel` without closing what holds it, and
/// once it is gone the focus goes back to where it was when it opened (or to `returnFocus()` when that is gone).
export function Confirmation({
  label,
  alert = false,
  onCancel,
  returnFocus,
  children,
}: {
  label: string
  /// An alert dialog: it asks to confirm something that cannot wait or cannot be undone.
  alert?: boolean
  onCancel(): void
  returnFocus?: () => void
  children: ReactNode
}): JSX.Element {
  const box = useRef<HTMLDivElement>(null)
  // Read while rendering, before a child's autoFocus moves the focus.
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement && document.activeElement !== document.body
      ? document.activeElement
      : null,
  )

  // The fallback as it was on opening: the effect below runs once, on opening and on closing.
  const [fallback] = useState(() => returnFocus)

  useEffect(() => {
    if (!box.current?.contains(document.activeElement)) focusables(box.current)[0]?.focus()
    return () => {
      // Only when the focus went with the question: one closed by a click elsewhere leaves it there.
      if (!focusLost()) return
      if (opener?.isConnected && !opener.closest('[inert]')) opener.focus()
      else fallback?.()
    }
  }, [opener, fallback])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      onCancel()
      return
    }
    if (event.key !== 'Tab') return
    const items = focusables(box.current)
    const first = items[0]
    const last = items.at(-1)
    if (!first || !last) return
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return (
    <div
      ref={box}
      className="confirm"
      role={alert ? 'alertdialog' : 'dialog'}
      aria-modal="true"
      aria-label={label}
      onKeyDown={onKeyDown}
    >
      {children}
    </div>
  )
}

const focusables = (box: HTMLElement | null): HTMLElement[] =>
  box ? [...box.querySelectorAll<HTMLElement>(FOCUSABLE)] : []

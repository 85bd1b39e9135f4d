import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react'

/// Where a key moves the focus in a row or column of `count` controls, from the one at `at`.
export type Move = (at: number, count: number) => number

/// The keys of a row or column of controls, as WAI-ARIA's menus, tab lists and toolbars have them: `forward` and
/// `back` step along it and wrap, Home and End go to the ends.
export function lineKeys(forward: string, back: string): Record<string, Move> {
  return {
    [forward]: (at, count) => (at + 1) % count,
    [back]: (at, count) => (at - 1 + count) % count,
    Home: () => 0,
    End: (_, count) => count - 1,
  }
}

const TOOLBAR_KEYS = lineKeys('ArrowRight', 'ArrowLeft')

/// The controls of a toolbar, in order: not those of a popup it opens (a menu, or the list a disclosure button
/// shows), whose keys and tab order are the popup's own.
function toolbarControls(toolbar: HTMLElement): HTMLElement[] {
  const popups: Element[] = [...toolbar.querySelectorAll('[role="menu"]')]
  for (const opener of toolbar.querySelectorAll('[aria-expanded="true"][aria-controls]')) {
    const popup = document.getElementById(opener.getAttribute('aria-controls') ?? '')
    if (popup) popups.push(popup)
  }
  return [...toolbar.querySelectorAll<HTMLElement>('button')].filter(
    (control) => !popups.some((popup) => popup.contains(control)),
  )
}

/// Those of the controls that can take the focus: a disabled button cannot, so the arrows pass it by.
const enabled = (controls: HTMLElement[]): HTMLElement[] =>
  controls.filter((control) => !control.matches(':disabled'))

/// Gives the toolbar's tab stop to `current` if it can take the focus, else to the first control that can.
function placeTabStop(toolbar: HTMLElement, current: { current: HTMLElement | null }): void {
  const controls = toolbarControls(toolbar)
  const focusable = enabled(controls)
  if (!current.current || !focusable.includes(current.current)) current.current = focusable[0] ?? null
  for (const control of controls) control.tabIndex = control === current.current ? 0 : -1
}

/// The WAI-ARIA toolbar pattern for the element the returned `ref` is given to: the toolbar is one tab stop
/// (the control last focused in it, else its first), Left and Right move between its controls and wrap, Home and
/// End go to the first and last. Disabled controls are skipped, by the arrows and as the tab stop. The tab stop
/// is kept as controls come, go and are disabled, whichever component renders them.
export function useToolbarKeys(): {
  ref: RefObject<HTMLDivElement | null>
  onFocus: (event: { target: EventTarget }) => void
  onKeyDown: (event: KeyboardEvent) => void
} {
  const ref = useRef<HTMLDivElement>(null)
  const current = useRef<HTMLElement | null>(null)

  useEffect(() => {
    const toolbar = ref.current
    if (!toolbar) return
    const place = (): void => placeTabStop(toolbar, current)
    place()
    const observer = new MutationObserver(place)
    observer.observe(toolbar, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['disabled', 'aria-expanded'],
    })
    return () => observer.disconnect()
  }, [])

  return {
    ref,
    onFocus: (event) => {
      const toolbar = ref.current
      if (!toolbar || !toolbarControls(toolbar).includes(event.target as HTMLElement)) return
      current.current = event.target as HTMLElement
      placeTabStop(toolbar, current)
    },
    onKeyDown: (event) => {
      const toolbar = ref.current
      const move = TOOLBAR_KEYS[event.key]
      // A popup's own keys (the menu's Home and End) come first, and a key with a modifier is a shortcut.
      if (!toolbar || !move || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey)
        return
      const focusable = enabled(toolbarControls(toolbar))
      const at = focusable.indexOf(event.target as HTMLElement)
      if (at < 0) return
      event.preventDefault()
      focusable[move(at, focusable.length)]?.focus()
    },
  }
}

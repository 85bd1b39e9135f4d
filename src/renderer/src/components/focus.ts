import type { EditorView } from '@codemirror/view'

/// Gives the focus to the side panel when it is open, else to the text of `editor`: where a keyboard reader goes
/// on when what had the focus in the panel is gone.
export function focusPanel(editor: EditorView | null): void {
  const panel = document.querySelector<HTMLElement>('.side-panel')
  if (panel) panel.focus()
  else editor?.focus()
}

/// Whether the focus was lost: it went to the page's body (or nowhere) with the control that had it.
export const focusLost = (): boolean =>
  document.activeElement === null || document.activeElement === document.body

/// Gives the focus a place once the control it was on went away with its item (a word removed, a model removed, a
/// token revoked): the same control of the item that took its place, else of the item before it, else `fallback`.
export function focusInPlaceOf(
  controls: ArrayLike<HTMLElement>,
  index: number,
  fallback: HTMLElement | null,
): void {
  ;(controls[index] ?? controls[index - 1] ?? fallback)?.focus()
}

import { editorView } from '../state/editorView'

/// Gives the focus to the side panel when it is open, else to the text: where a keyboard reader goes on when
/// what had the focus in the panel is gone.
export function focusPanel(): void {
  const panel = document.querySelector<HTMLElement>('.side-panel')
  if (panel) panel.focus()
  else editorView()?.focus()
}

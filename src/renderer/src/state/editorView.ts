import type { EditorView } from '@codemirror/view'

/// The one editor of the window, for the toolbar and panels to read its text and dispatch to it.
let current: EditorView | null = null

export const editorView = (): EditorView | null => current
export const setEditorView = (view: EditorView | null): void => {
  current = view
}

import { Annotation, type Extension } from '@codemirror/state'
import { EditorView } from '@codemirror/view'

/// Marks a transaction that loads a text (a draft): not the writer's typing, so nothing to save.
export const loading = Annotation.define<boolean>()

/// The editor's part of the autosave: `onEdit` hears every change the writer makes, `onLeave` that the editor
/// lost the focus (which saves at once).
export function autosave({ onEdit, onLeave }: { onEdit: () => void; onLeave: () => void }): Extension {
  return [
    EditorView.updateListener.of((update) => {
      if (!update.docChanged || update.transactions.some((tr) => tr.annotation(loading))) return
      onEdit()
    }),
    EditorView.domEventHandlers({ blur: onLeave }),
  ]
}

import type { Extension } from '@codemirror/state'
import { drawSelection, dropCursor, EditorView, placeholder } from '@codemirror/view'
import { reportCounts, type DocumentCounts } from './counts'
import { editingKeys } from './keymaps'
import { writingLint, type WritingLintOptions } from './lint'
import { markdownProse } from './markdown'
import { writingLook } from './theme'

/// Everything the writing editor is made of. `onCounts` hears the document's word and character counts; `lint`
/// runs the live spelling and grammar check.
export function writingEditor(
  onCounts: (counts: DocumentCounts) => void,
  lint: WritingLintOptions,
): Extension {
  return [
    markdownProse(),
    editingKeys(),
    writingLook(),
    drawSelection(),
    dropCursor(),
    EditorView.lineWrapping,
    placeholder('Start writing…'),
    EditorView.contentAttributes.of({ 'aria-label': 'Document' }),
    reportCounts(onCounts),
    writingLint(lint),
  ]
}

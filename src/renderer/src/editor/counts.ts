import { StateField, type Extension, type Text, type Transaction } from '@codemirror/state'
import { ViewPlugin } from '@codemirror/view'
import { countCharacters, countWords } from './count'

/// How long the document is, in the units a writer counts.
export interface DocumentCounts {
  readonly words: number
  readonly characters: number
}

/// The document's counts, kept up to date edit by edit: only the lines an edit touched are counted again,
/// which is exact because neither a word nor a character ever spans a line break.
export const documentCounts = StateField.define<DocumentCounts>({
  create: (state) => countLines(state.doc, 1, state.doc.lines),
  update: (counts, tr) => (tr.docChanged ? recount(counts, tr) : counts),
})

/// Tells `listener` the document's counts when the editor opens and after every edit.
export function reportCounts(listener: (counts: DocumentCounts) => void): Extension {
  const reporter = ViewPlugin.define((view) => {
    listener(view.state.field(documentCounts))
    return {
      update: (update) => {
        if (update.docChanged) listener(update.state.field(documentCounts))
      },
    }
  })
  return [documentCounts, reporter]
}

// A run of whole lines an edit touched: `before` in the old document, `after` in the new one.
interface TouchedLines {
  before: { first: number; last: number }
  after: { first: number; last: number }
}

function recount(counts: DocumentCounts, tr: Transaction): DocumentCounts {
  let { words, characters } = counts
  for (const { before, after } of touchedLines(tr)) {
    const removed = countLines(tr.startState.doc, before.first, before.last)
    const added = countLines(tr.newDoc, after.first, after.last)
    words += added.words - removed.words
    characters += added.characters - removed.characters
  }
  return { words, characters }
}

// Two edits on one line share it before the edit and after it, so merging by the old lines merges the new too.
function touchedLines(tr: Transaction): TouchedLines[] {
  const runs: TouchedLines[] = []
  tr.changes.iterChangedRanges((fromA, toA, fromB, toB) => {
    const before = {
      first: tr.startState.doc.lineAt(fromA).number,
      last: tr.startState.doc.lineAt(toA).number,
    }
    const after = { first: tr.newDoc.lineAt(fromB).number, last: tr.newDoc.lineAt(toB).number }
    const previous = runs.at(-1)
    if (previous && previous.before.last >= before.first) {
      previous.before.last = before.last
      previous.after.last = after.last
    } else {
      runs.push({ before, after })
    }
  })
  return runs
}

function countLines(doc: Text, first: number, last: number): DocumentCounts {
  const text = doc.sliceString(doc.line(first).from, doc.line(last).to)
  return { words: countWords(text), characters: countCharacters(text) }
}

// The page side of bench/editor.ts, bundled by esbuild and run in Chromium: the app's writing editor and
// claims field on a long document, with functions the runner calls through `window.bench`.
import { StateField } from '@codemirror/state'
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view'
import { claims, setClaims, updateClaims, type ClaimMark } from '../src/renderer/src/editor/claims'
import { writingEditor } from '../src/renderer/src/editor/writingEditor'

const SENTENCE =
  'The old stone bridge over the river was opened in 1889 and carries nine thousand cars a day.'

/// A document of `words` words in paragraphs of five sentences, with the claims and the findings to mark.
function makeDocument(words: number, claimCount: number, issueCount: number) {
  const perSentence = SENTENCE.split(' ').length
  const sentences = Math.ceil(words / perSentence)
  let text = ''
  const starts: number[] = []
  for (let i = 0; i < sentences; i++) {
    starts.push(text.length)
    text += SENTENCE + (i % 5 === 4 ? '\n\n' : ' ')
  }
  const step = Math.max(1, Math.floor(sentences / claimCount))
  const marks: ClaimMark[] = []
  for (let i = 0; i < claimCount && i * step < sentences; i++) {
    const from = starts[i * step] ?? 0
    marks.push({
      claimId: `clm_${i}`,
      from,
      to: from + SENTENCE.length,
      stage: 'waiting',
      votes: 0,
      panel: 3,
      issues: [],
    })
  }
  const issueStep = Math.max(1, Math.floor(sentences / issueCount))
  const issues = Array.from({ length: issueCount }, (_, i) => {
    const from = (starts[(i * issueStep) % sentences] ?? 0) + 4
    return Decoration.mark({ class: 'fd-issue', attributes: { title: 'A finding' } }).range(from, from + 3)
  })
  return { text, marks, issues: Decoration.set(issues, true) }
}

declare global {
  interface Window {
    bench: {
      load(words: number, claimCount: number, issueCount: number): number
      updateAll(): Promise<number>
    }
  }
}

let view: EditorView | null = null
let marks: ClaimMark[] = []

window.bench = {
  load(words, claimCount, issueCount) {
    const made = makeDocument(words, claimCount, issueCount)
    marks = made.marks
    // Stands in for the 2,000 lint marks: a field of mark decorations mapped through edits like lint's own.
    const findings = StateField.define<DecorationSet>({
      create: () => made.issues,
      update: (set, tr) => set.map(tr.changes),
      provide: (field) => EditorView.decorations.from(field),
    })
    view?.destroy()
    view = new EditorView({
      doc: made.text,
      parent: document.body,
      extensions: [
        writingEditor(() => undefined),
        claims(() => undefined),
        findings,
        // The edit's work, from the key event to the editor's DOM updated and laid out.
        EditorView.updateListener.of((update) => {
          if (!update.docChanged || lastKey === null) return
          void update.view.contentDOM.offsetHeight
          handling.push(performance.now() - lastKey)
          lastKey = null
        }),
      ],
    })
    view.dispatch({ effects: setClaims.of(marks) })
    // The cursor in the middle of the document, inside the visible part.
    const middle = Math.floor(made.text.length / 2)
    view.dispatch({ selection: { anchor: middle }, scrollIntoView: true })
    view.focus()
    return marks.length
  },
  // Every claim reaches a verdict in one transaction; resolves with the time to the next painted frame.
  updateAll() {
    const start = performance.now()
    view?.dispatch({
      effects: updateClaims.of(marks.map((mark) => ({ claimId: mark.claimId, stage: 'supported' as const }))),
    })
    return new Promise((resolve) =>
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0)),
    )
  },
}

// Keystroke to paint: from the key event to the frame after the edit, per keystroke.
const latencies: number[] = []
const handling: number[] = []
let lastKey: number | null = null
Object.assign(window, { latencies, handling })
document.addEventListener(
  'keydown',
  (event) => {
    const start = event.timeStamp
    lastKey = start
    requestAnimationFrame(() => setTimeout(() => latencies.push(performance.now() - start), 0))
  },
  true,
)

// The page side of bench/editor.ts, bundled by esbuild and run in Chromium: the app's writing editor, claims
// field and live lint on a long document, with functions the runner calls through `window.bench`.
import { diagnosticCount } from '@codemirror/lint'
import { EditorView } from '@codemirror/view'
import { claims, setClaims, updateClaims, type ClaimMark } from '../src/renderer/src/editor/claims'
import type { LintPort, LintReply, LintRequest } from '../src/renderer/src/editor/lintChecker'
import { writingEditor } from '../src/renderer/src/editor/writingEditor'

// Every sentence has its own year, so that every paragraph is a text of its own to lint.
const sentence = (year: number): string =>
  `The old stone bridge over the river was opened in ${year} and carries nine thousand cars a day.`
const FLAGGED = 'stone'

/// A document of `words` words in paragraphs of five sentences, with the claims to mark.
function makeDocument(words: number, claimCount: number) {
  const perSentence = sentence(1000).split(' ').length
  const sentences = Math.ceil(words / perSentence)
  let text = ''
  const starts: number[] = []
  for (let i = 0; i < sentences; i++) {
    starts.push(text.length)
    text += sentence(1000 + i) + (i % 5 === 4 ? '\n\n' : ' ')
  }
  const step = Math.max(1, Math.floor(sentences / claimCount))
  const marks: ClaimMark[] = []
  for (let i = 0; i < claimCount && i * step < sentences; i++) {
    const from = starts[i * step] ?? 0
    marks.push({
      claimId: `clm_${i}`,
      from,
      to: from + sentence(1000).length,
      stage: 'waiting',
      votes: 0,
      panel: 3,
      issues: [],
    })
  }
  return { text, marks }
}

/// Stands in for the Harper worker, whose work is off the main thread: answers each paragraph at once with a
/// finding on every FLAGGED word, until `findings` are given out.
function findingsPort(findings: number): LintPort {
  let left = findings
  const port: LintPort = {
    onmessage: null,
    onerror: null,
    postMessage(request: LintRequest) {
      if (request.type !== 'lint') return
      const found: Extract<LintReply, { findings: unknown }>['findings'] = []
      for (
        let at = request.text.indexOf(FLAGGED);
        at >= 0 && left > 0;
        at = request.text.indexOf(FLAGGED, at + 1)
      ) {
        found.push({
          charStart: at,
          charEnd: at + FLAGGED.length,
          message: 'A finding',
          suggestions: ['stony'],
          rule: 'SpellCheck',
          spelling: true,
        })
        left--
      }
      setTimeout(() =>
        port.onmessage?.(new MessageEvent('message', { data: { id: request.id, findings: found } })),
      )
    },
    terminate: () => undefined,
  }
  return port
}

declare global {
  interface Window {
    bench: {
      load(words: number, claimCount: number, findings: number): Promise<{ claims: number; marks: number }>
      updateAll(): Promise<number>
      relint(): Promise<number>
      /// Verdicts land on `perFrame` claims a frame, round and round the claims (with a finding, then clean, as a
      /// t1 check's), until `stopLanding`, which answers how many landed.
      startLanding(perFrame: number): void
      stopLanding(): number
    }
  }
}

let view: EditorView | null = null
let marks: ClaimMark[] = []

// The longest timer callback since `since`, the page laid out after each: after a pause in typing, the lint
// pass (split into paragraphs, look up answers, set the marks) is the one that runs.
const timers: { at: number; took: number }[] = []
const nativeSetTimeout = window.setTimeout.bind(window)
window.setTimeout = ((handler: () => void, delay?: number) =>
  nativeSetTimeout(() => {
    const start = performance.now()
    handler()
    void document.body.offsetHeight
    timers.push({ at: start, took: performance.now() - start })
  }, delay)) as typeof window.setTimeout
const longestTimerSince = (since: number): number =>
  Math.max(0, ...timers.filter((timer) => timer.at >= since).map((timer) => timer.took))

const until = async (done: () => boolean): Promise<void> => {
  while (!done()) await new Promise((resolve) => nativeSetTimeout(resolve, 20))
}

// The claims' verdicts landing, as the checks store sends them: one transaction of deltas a frame.
let landing: { next: number; landed: number; stopped: boolean } | null = null
function land(perFrame: number): void {
  const run = landing
  if (!run || run.stopped || !view) return
  const deltas = Array.from({ length: perFrame }, (_, k) => {
    const at = run.next + k
    const mark = marks[at % marks.length] as ClaimMark
    const found = Math.floor(at / marks.length) % 2 === 0
    return {
      claimId: mark.claimId,
      stage: found ? ('issues' as const) : ('clean' as const),
      issues: found ? [{ from: 4, to: 9, message: 'A finding', spelling: true }] : [],
    }
  })
  run.next += perFrame
  run.landed += perFrame
  view.dispatch({ effects: updateClaims.of(deltas) })
  requestAnimationFrame(() => land(perFrame))
}
window.bench = {
  async load(words, claimCount, findings) {
    const made = makeDocument(words, claimCount)
    marks = made.marks
    view?.destroy()
    view = new EditorView({
      doc: made.text,
      parent: document.body,
      extensions: [
        writingEditor(() => undefined, {
          startWorker: () => findingsPort(findings),
          onAddWord: () => undefined,
        }),
        claims(() => undefined),
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
    const shown = view
    await until(() => diagnosticCount(shown.state) >= findings)
    // The cursor in the middle of the document, inside the visible part.
    const middle = Math.floor(made.text.length / 2)
    view.dispatch({ selection: { anchor: middle }, scrollIntoView: true })
    view.focus()
    return { claims: marks.length, marks: diagnosticCount(view.state) }
  },
  // Every claim reaches a verdict in one transaction; resolves with the time to the next painted frame.
  updateAll() {
    const start = performance.now()
    view?.dispatch({
      effects: updateClaims.of(marks.map((mark) => ({ claimId: mark.claimId, stage: 'supported' as const }))),
    })
    return new Promise((resolve) =>
      requestAnimationFrame(() => nativeSetTimeout(() => resolve(performance.now() - start), 0)),
    )
  },
  // One letter typed, then the pause waited out; resolves with the time the lint pass held the main thread.
  async relint() {
    const shown = view
    if (!shown) return 0
    const start = performance.now()
    const at = shown.state.selection.main.head
    shown.dispatch({
      changes: { from: at, insert: 'a' },
      selection: { anchor: at + 1 },
      userEvent: 'input.type',
    })
    await new Promise((resolve) => nativeSetTimeout(resolve, 800))
    return longestTimerSince(start)
  },
  startLanding(perFrame) {
    landing = { next: 0, landed: 0, stopped: false }
    requestAnimationFrame(() => land(perFrame))
  },
  stopLanding() {
    if (!landing) return 0
    landing.stopped = true
    return landing.landed
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
    requestAnimationFrame(() => nativeSetTimeout(() => latencies.push(performance.now() - start), 0))
  },
  true,
)

// Sentences of a prose view by Intl.Segmenter. V8's segmenter slows down quadratically on long strings,
// so it reads the text through a window that restarts at the last sentence it could not see the end of.

const WINDOW = 4096
const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' })
// Abbreviations after which ICU ends a sentence although the sentence goes on ("Dr. Jones", "William O. Douglas").
const ABBREVIATION =
  /(?:^|[\s(])(?:Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|Mt|Gen|Gov|Sen|Rep|Rev|Capt|Col|Lt|Sgt|Adm|Pres|No|Nos|Fig|vs|approx|ca|cf|e\.g|i\.e|[A-Z])\.\s*$/

/// A sentence as a range of the text: `start` inclusive, `end` exclusive.
export interface Span {
  start: number
  end: number
}

/// Sentence ranges of the view in text order, each without surrounding whitespace; blank ones are skipped.
export function sentenceSpans(view: string): Span[] {
  const spans: Span[] = []
  let position = 0
  let size = WINDOW
  while (position < view.length) {
    const windowEnd = Math.min(view.length, position + size)
    const segments = [...segmenter.segment(view.slice(position, windowEnd))]
    const last = windowEnd === view.length ? segments.length : segments.length - 1
    if (last <= 0) {
      size *= 2 // one sentence longer than the window
      continue
    }
    for (let k = 0; k < last; k++) {
      const segment = segments[k] as Intl.SegmentData
      addSpan(spans, view, position + segment.index, position + segment.index + segment.segment.length)
    }
    const next = segments[last]
    position = next ? position + next.index : windowEnd
    size = WINDOW
  }
  return spans
}

/// Adds a trimmed sentence, joined to the one before when that one only stopped at an abbreviation.
function addSpan(spans: Span[], view: string, start: number, end: number): void {
  while (start < end && /\s/.test(view[start] as string)) start++
  while (end > start && /\s/.test(view[end - 1] as string)) end--
  if (start === end) return
  const previous = spans[spans.length - 1]
  if (
    previous &&
    ABBREVIATION.test(view.slice(Math.max(previous.start, previous.end - 12), previous.end)) &&
    !view.slice(previous.end, start).includes('\n')
  ) {
    previous.end = end
    return
  }
  spans.push({ start, end })
}

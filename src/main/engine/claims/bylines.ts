// Lines of a text that state no fact whatever their words: a Markdown heading is the title of what follows, a
// byline ("By Dana Reporter", "*By Ann Lee | Staff writer*") and a date line ("20 November 2026", "Updated:
// Nov. 20, 2026, 10:15") say who wrote the text and when.

import { markdownLines, withoutInlineMarks, withoutLineMarkers } from '../../../shared/markdown'
import type { Span } from './sentences'

const BYLINE = /^by\s+\p{Lu}/iu
const MONTH_DATE = String.raw`\d{1,2}(?:st|nd|rd|th)?\s+\p{L}+\.?,?\s+\d{4}|\p{L}+\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{4}-\d{2}-\d{2}`
const DATE_LINE = new RegExp(
  String.raw`^(?:(?:last\s+)?(?:updated|published|posted)\s*:?\s*)?(?:\p{L}+day,?\s+)?(?:${MONTH_DATE})` +
    String.raw`(?:,?\s+(?:at\s+)?\d{1,2}[:.]\d{2}(?:\s*[ap]\.?m\.?)?(?:\s+\p{Lu}{2,5})?)?\.?$`,
  'iu',
)
/// A byline names people, perhaps their role: a few words (at most these), not a sentence that ends.
export const BYLINE_WORDS = 12

/// The ranges of the text's heading, byline and date lines, in text order.
export function titleLines(text: string): Span[] {
  const spans: Span[] = []
  for (const line of markdownLines(text)) {
    if (line.kind === 'heading') {
      spans.push({ start: line.from, end: line.to })
      continue
    }
    if (line.kind !== 'text') continue
    const words = withoutInlineMarks(withoutLineMarkers(text.slice(line.from, line.to)))
    if (bylineOrDate(words)) spans.push({ start: line.from, end: line.to })
  }
  return spans
}

/// Whether a line's words, without Markdown marks, are a byline or a date line.
export function bylineOrDate(line: string): boolean {
  const words = line.trim()
  const byline = BYLINE.test(words) && !/[.!?]$/.test(words) && words.split(/\s+/).length <= BYLINE_WORDS
  return byline || DATE_LINE.test(words)
}

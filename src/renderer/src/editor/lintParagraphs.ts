import type { Finding } from '../../../shared/findings'
import { proseView } from '../../../shared/markdown'

/// A stretch of the document that Harper checks on its own: a paragraph, heading, list item or table row.
export interface Paragraph {
  /// Where it starts in the document.
  from: number
  /// Its text as Harper sees it: as long as the document's text there, with Markdown syntax, code, URLs and
  /// line breaks blanked (`proseView`, the claims' reading of Markdown). Answers are kept by this text.
  prose: string
}

/// The paragraphs of a document that hold prose. Front matter, code (fenced, indented and inline), URLs, link
/// targets and HTML are blanked, so they are never linted, and a stretch left with no words is skipped.
export function paragraphsOf(text: string): Paragraph[] {
  const { view } = proseView(text)
  const paragraphs: Paragraph[] = []
  for (let start = 0; start < view.length;) {
    const lineEnd = view.indexOf('\n', start)
    const end = lineEnd < 0 ? view.length : lineEnd
    // Blanked list markers and indentation are left out, so moving a paragraph keeps its answer.
    let from = start
    let to = end
    while (from < to && view.charCodeAt(from) === SPACE) from++
    while (to > from && view.charCodeAt(to - 1) === SPACE) to--
    if (to > from) paragraphs.push({ from, prose: view.slice(from, to) })
    start = end + 1
  }
  return paragraphs
}

const SPACE = 32

/// The paragraphs' texts to lint, nearest to `visible` (the part of the document on screen) first, each once,
/// leaving out those `known` already.
export function toLint(
  paragraphs: readonly Paragraph[],
  known: (prose: string) => boolean,
  visible: { from: number; to: number },
): string[] {
  const distance = (paragraph: Paragraph): number => {
    const to = paragraph.from + paragraph.prose.length
    return to < visible.from ? visible.from - to : Math.max(0, paragraph.from - visible.to)
  }
  const texts = new Set<string>()
  const waiting = paragraphs.filter((paragraph) => !known(paragraph.prose))
  for (const paragraph of waiting.sort((a, b) => distance(a) - distance(b))) texts.add(paragraph.prose)
  return [...texts]
}

/// The paragraphs that edits touched: those meeting one of `changed`, the edited ranges of the document after
/// the edits, in document order (a paragraph's marks elsewhere moved with the text and still hold).
export function touchedBy(
  paragraphs: readonly Paragraph[],
  changed: readonly { from: number; to: number }[],
): Paragraph[] {
  const touched: Paragraph[] = []
  let next = 0
  for (const paragraph of paragraphs) {
    const end = paragraph.from + paragraph.prose.length
    while (next < changed.length && (changed[next] as { to: number }).to < paragraph.from) next++
    const range = changed[next]
    if (range && range.from <= end) touched.push(paragraph)
  }
  return touched
}

/// A finding placed in the document: `from` and `to` are document positions.
export interface PlacedFinding {
  finding: Finding
  from: number
  to: number
}

/// A paragraph's findings as document positions, keeping only those about the writer's words: a finding
/// that covers blanked markup or a joined line break (where Harper sees extra spaces that the writer did not
/// type) is dropped. `sliceDoc` reads the document's own text.
export function placeFindings(
  paragraph: Paragraph,
  findings: readonly Finding[],
  sliceDoc: (from: number, to: number) => string,
): PlacedFinding[] {
  const placed: PlacedFinding[] = []
  for (const finding of findings) {
    if (finding.charEnd > paragraph.prose.length || finding.charStart > finding.charEnd) continue
    const from = paragraph.from + finding.charStart
    const to = paragraph.from + finding.charEnd
    if (sliceDoc(from, to) !== paragraph.prose.slice(finding.charStart, finding.charEnd)) continue
    placed.push({ finding, from, to })
  }
  return placed
}

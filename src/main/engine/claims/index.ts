// Claims of a text: its prose (Markdown syntax and code left out), cut into sentences by Intl.Segmenter,
// long compound sentences into their clauses, and kept when check-worthy; headings, bylines and date lines
// are no claims. Offline, deterministic, linear.

import { HARD_SYNTAX, proseView, type ProseView } from '../../../shared/markdown'
import type { FindClaims } from '../../../shared/schemas'
import { titleLines } from './bylines'
import { clauseSpans } from './clauses'
import { sentenceSpans, type Span } from './sentences'
import { documentRegister, type Register } from './statements'
import { checkWorthiness, FIND_CLAIMS } from './worthiness'

export { CHECKWORTHY_THRESHOLD, checkWorthiness, FIND_CLAIMS } from './worthiness'
export { documentRegister, type Register } from './statements'

/// A check-worthy statement of a text; `text.slice(charStart, charEnd) === claim.text` (UTF-16 offsets).
export interface ExtractedClaim {
  text: string
  charStart: number
  charEnd: number
  /// Check-worthiness from 0 to 1; claims have at least their "Find claims" setting's threshold.
  score: number
}

// Fewer words than this make no claim to check ("Yes.", "See below.").
const MIN_WORDS = 3
const EDGE_PUNCTUATION = /[\s,;:]/
const WORD = /[\p{L}\p{N}]+/gu

/// Claims of a text in text order, non-overlapping, with UTF-16 offsets into `text`.
/// How many it finds is the writer's "Find claims" setting: fewer (more precise), balanced, or more (fewer missed).
export function extractClaims(text: string, findClaims: FindClaims = 'balanced'): ExtractedClaim[] {
  const { threshold } = FIND_CLAIMS[findClaims]
  const prose = proseView(text)
  const titles = titleLines(text)
  let title = 0
  // Both in text order: one pass.
  const sentences = sentenceSpans(prose.view).filter((sentence) => {
    while ((titles[title]?.end ?? Infinity) <= sentence.start) title++
    return !((titles[title]?.start ?? Infinity) <= sentence.start)
  })
  const register = documentRegister(
    sentences.map((sentence) => prose.view.slice(sentence.start, sentence.end)),
  )
  const claims: ExtractedClaim[] = []
  for (const sentence of sentences) {
    const statement = longestRun(prose, sentence)
    if (!statement) continue
    const clauses = clauseSpans(prose.view, statement).map((clause) =>
      scored(prose.view, trim(prose.view, clause), register, findClaims),
    )
    const worthy = clauses.filter((clause) => clause.score >= threshold)
    // A compound sentence becomes several claims only when several of its clauses are claims; otherwise
    // the sentence is judged whole (with any code or URL in it blanked out), whose score is its one clause's
    // when that clause is the whole sentence (most are: scoring is most of extraction's time).
    const kept =
      worthy.length > 1 ? worthy : keptWhole(prose.view, sentence, statement, clauses, register, findClaims)
    for (const claim of kept) {
      if (wordCount(prose.view, claim) < MIN_WORDS) continue
      claims.push({
        text: text.slice(claim.start, claim.end),
        charStart: claim.start,
        charEnd: claim.end,
        score: claim.score,
      })
    }
  }
  return claims
}

interface ScoredSpan extends Span {
  score: number
}

/// The statement as one claim scored as its whole sentence, or nothing when that is not check-worthy.
function keptWhole(
  view: string,
  sentence: Span,
  statement: Span,
  clauses: readonly ScoredSpan[],
  register: Register,
  findClaims: FindClaims,
): ScoredSpan[] {
  const [only] = clauses
  const same = clauses.length === 1 && only?.start === sentence.start && only.end === sentence.end
  const score = same ? only.score : scored(view, sentence, register, findClaims).score
  return score >= FIND_CLAIMS[findClaims].threshold ? [{ ...statement, score }] : []
}

function scored(view: string, span: Span, register: Register, findClaims: FindClaims): ScoredSpan {
  return {
    ...span,
    score:
      span.end > span.start ? checkWorthiness(view.slice(span.start, span.end), register, findClaims) : 0,
  }
}

/// The part of a sentence that a claim may take: the sentence itself, or when code, a URL or other markup
/// that no claim may hold cuts it, its longest part between them ("5 million died" of "[WHO](url): 5 million died").
function longestRun(prose: ProseView, sentence: Span): Span | undefined {
  let longest: Span | undefined
  let longestWords = 0
  let start = sentence.start
  for (let i = sentence.start; i <= sentence.end; i++) {
    if (i < sentence.end && prose.kind[i] !== HARD_SYNTAX) continue
    const run = trim(prose.view, { start, end: i })
    const words = wordCount(prose.view, run)
    if (words > longestWords) {
      longest = run
      longestWords = words
    }
    start = i + 1
  }
  return longest
}

/// Without whitespace, blanked markup and dangling commas, colons or semicolons at either end.
function trim(view: string, span: Span): Span {
  let { start, end } = span
  while (start < end && EDGE_PUNCTUATION.test(view[start] as string)) start++
  while (end > start && EDGE_PUNCTUATION.test(view[end - 1] as string)) end--
  return { start, end }
}

function wordCount(view: string, span: Span): number {
  return view.slice(span.start, span.end).match(WORD)?.length ?? 0
}

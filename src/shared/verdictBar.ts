// A picture of a check: its claims' verdicts side by side on one bar, each part as wide as its share of the claims
// and coloured from the vocabulary. The exports draw it as SVG in their summary, the editor in its toolbar.
import { VOCABULARY, type TermName } from './vocabulary'

/// How many claims have a verdict (or a stage).
export interface TermCount {
  term: TermName
  count: number
}

/// One part of the bar: a verdict, its claims, and where it sits, in percent of the bar's width.
export interface BarPart extends TermCount {
  x: number
  width: number
}

/// The narrowest part, in percent of the bar: one refuted claim among two hundred is still seen.
const NARROWEST = 2

const hundredths = (value: number): number => Math.round(value * 100) / 100

/// The bar's parts, in the order given, those without claims left out: each as wide as its share of the claims,
/// none narrower than NARROWEST (the others give way in proportion), together exactly 100.
export function verdictBar(counts: readonly TermCount[]): BarPart[] {
  const parts = counts.filter(({ count }) => count > 0)
  const total = parts.reduce((sum, { count }) => sum + count, 0)
  const narrow = parts.filter(({ count }) => (count / total) * 100 < NARROWEST)
  const wide = total - narrow.reduce((sum, { count }) => sum + count, 0)
  const left = 100 - narrow.length * NARROWEST
  let x = 0
  return parts.map((part, index) => {
    const width =
      index === parts.length - 1
        ? hundredths(100 - x)
        : hundredths(narrow.includes(part) ? NARROWEST : (part.count / wide) * left)
    const placed = { ...part, x, width }
    x = hundredths(x + width)
    return placed
  })
}

/// The bar in words, for its title and for screen readers: "Supported 40, Refuted 3, Unverifiable 24".
export const barWords = (parts: readonly TermCount[]): string =>
  parts.map(({ term, count }) => `${VOCABULARY[term].label} ${count}`).join(', ')

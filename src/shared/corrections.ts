// A judge's suggested correction as a report carries it. t2's come from no source, so they start with
// UNVERIFIED; the words that would replace the claim are the rest.

/// Marks a judge's suggested correction as text no source has confirmed.
export const UNVERIFIED = '(unverified) '

/// The words a correction would put in place of the claim, and whether no source has confirmed them.
export function correctionWords(correction: string): { words: string; unverified: boolean } {
  const unverified = correction.startsWith(UNVERIFIED)
  return { words: unverified ? correction.slice(UNVERIFIED.length) : correction, unverified }
}

/// A stretch of a claim beside its correction: words kept as they are, or words the correction changes
/// (`removed` replaced by `added`, either of which may be empty).
export type CorrectionPart = { same: string } | { removed: string; added: string }

/// Words, runs of spaces and single marks: what a correction is compared by.
const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*|\s+|[^\s\p{L}\p{N}]/gu

/// Markdown's inline marks: emphasis, strikethrough, code.
const MARKS = '*_~`'
/// A changed stretch: the marks it starts with, what they enclose, the marks it ends with.
const EDGE_MARKS = new RegExp(`^([${MARKS}]*)([^]*?)([${MARKS}]*)$`)

/// The claim's text and its correction compared word by word (the longest run of words they share stays),
/// so the writer sees what would change and Apply touches only that. A judge writes its correction in plain
/// words: the claim's Markdown marks at the ends of a changed stretch (the `**` a correction leaves out, or
/// `**330**` against `300`) stay as the writer wrote them when all of them can: where the correction drops words
/// a mark belongs to, keeping the others would leave one of a pair, so it stands as the judge wrote it.
export function correctionParts(text: string, correction: string): CorrectionPart[] {
  const parts = wordParts(text, correction)
  const kept: CorrectionPart[] = []
  for (const part of parts) for (const piece of keepMarks(part)) append(kept, piece)
  const after = kept.map((part) => ('same' in part ? part.same : part.added)).join('')
  return [...MARKS].every((mark) => count(after, mark) >= count(text, mark)) ? kept : parts
}

const count = (text: string, mark: string): number => text.split(mark).length - 1

/// A changed stretch with the marks at its ends kept: all of a stretch of marks only that the correction drops,
/// or those around words it replaces; marks the correction replaces with other words are its own change.
function keepMarks(part: CorrectionPart): CorrectionPart[] {
  if ('same' in part) return [part]
  const [, lead = '', middle = '', trail = ''] = EDGE_MARKS.exec(part.removed) ?? []
  if (middle === '' ? part.added !== '' : part.added === '') return [part]
  return [{ same: lead }, { removed: middle, added: part.added }, { same: trail }]
}

/// Adds `part` to `parts`, joined to the last one when both are kept or both changed; empty parts are dropped.
function append(parts: CorrectionPart[], part: CorrectionPart): void {
  if ('same' in part ? part.same === '' : part.removed === '' && part.added === '') return
  const last = parts.at(-1)
  if (last && 'same' in last && 'same' in part) last.same += part.same
  else if (last && 'removed' in last && 'removed' in part) {
    last.removed += part.removed
    last.added += part.added
  } else parts.push({ ...part })
}

/// The plain word-by-word comparison.
function wordParts(text: string, correction: string): CorrectionPart[] {
  const a = text.match(TOKEN) ?? []
  const b = correction.match(TOKEN) ?? []
  // shared[i][j]: how many tokens a[i..] and b[j..] share at most, in order.
  const shared = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1))
  const rest = (x: number, y: number): number => (shared[x] as Uint32Array)[y] as number
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      (shared[i] as Uint32Array)[j] =
        a[i] === b[j] ? rest(i + 1, j + 1) + 1 : Math.max(rest(i + 1, j), rest(i, j + 1))
  const parts: CorrectionPart[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      append(parts, { same: a[i] as string })
      i++
      j++
    } else if (j === b.length || (i < a.length && rest(i + 1, j) >= rest(i, j + 1))) {
      append(parts, { removed: a[i] as string, added: '' })
      i++
    } else {
      append(parts, { removed: '', added: b[j] as string })
      j++
    }
  }
  return parts
}

/// The edits that turn the text at `from` into its correction, changed stretches only: what Apply dispatches.
/// Words added at either end replace the word next to them with both, so that they land inside the claim's
/// range (a range does not grow over text inserted at its edge).
export function correctionEdits(
  parts: readonly CorrectionPart[],
  from: number,
): { from: number; to: number; insert: string }[] {
  const edits: { from: number; to: number; insert: string }[] = []
  const edited = (): number => edits.at(-1)?.to ?? from
  let at = from
  parts.forEach((part, index) => {
    if ('same' in part) {
      at += part.same.length
      return
    }
    const next = parts[index + 1]
    const previous = parts[index - 1]
    const after = next && 'same' in next ? (next.same.match(TOKEN)?.[0] ?? '') : ''
    const before = previous && 'same' in previous ? (previous.same.match(TOKEN)?.at(-1) ?? '') : ''
    if (part.removed === '' && index === 0 && after) {
      edits.push({ from: at, to: at + after.length, insert: part.added + after })
    } else if (
      part.removed === '' &&
      index === parts.length - 1 &&
      before &&
      at - before.length >= edited()
    ) {
      edits.push({ from: at - before.length, to: at, insert: before + part.added })
    } else edits.push({ from: at, to: at + part.removed.length, insert: part.added })
    at += part.removed.length
  })
  return edits
}

/// Whether a correction is a rewrite of its claim, the only kind a report offers: it keeps some of the claim's
/// words and does not speak of the claim ("The claim is not accurate according to the sources" is a verdict,
/// not a correction).
export function isRewrite(claim: string, correction: string): boolean {
  const { words } = correctionWords(correction)
  if (/\bthe (?:claim|statement|sentence)\b/i.test(words)) return false
  const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  const kept = new Set(wordsOf(words))
  const claimWords = wordsOf(claim)
  return claimWords.length > 0 && claimWords.filter((word) => kept.has(word)).length * 3 >= claimWords.length
}

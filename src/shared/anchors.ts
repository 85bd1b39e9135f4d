/// Where a claim of a check sits in a text that may have changed since: a text-quote selector (the claim's exact
/// text with a little of the text either side) plus the offsets it had. Pure, so that the engine stores anchors
/// and the page places them with the same code.

/// A claim's place in the text it was checked in. Offsets are UTF-16 indices, end exclusive.
export interface TextAnchor {
  exact: string
  /// Up to `ANCHOR_CONTEXT` characters just before `exact`.
  prefix: string
  /// Up to `ANCHOR_CONTEXT` characters just after `exact`.
  suffix: string
  start: number
  end: number
}

/// Where an anchor was found again, and how: its offsets still held, its exact text was found elsewhere, or a
/// close enough text was (`similarity` 1 for the first two).
export interface Placement {
  start: number
  end: number
  how: 'offsets' | 'exact' | 'fuzzy'
  similarity: number
}

/// Characters of context kept on each side of a quote.
const ANCHOR_CONTEXT = 32
/// The least similarity (1 − edit distance / quote length) a fuzzy match needs to count as the claim.
export const FUZZY_THRESHOLD = 0.75

/// The anchor of `text[start, end)`.
export function anchorOf(text: string, start: number, end: number): TextAnchor {
  return {
    exact: text.slice(start, end),
    prefix: text.slice(Math.max(0, start - ANCHOR_CONTEXT), start),
    suffix: text.slice(end, end + ANCHOR_CONTEXT),
    start,
    end,
  }
}

/// Finds an anchor in `text`: at its old offsets if they still hold its exact text; else the exact text where
/// the context agrees best (nearest the old place among equals); else the closest text within the fuzzy
/// threshold (fewest edits, then nearest). Null when the claim is gone: it is then detached.
///
/// `shift` is a guess of how far the text moved (the claim before it moved that far): when the old offsets
/// moved by it hold the exact text with all its context, that place is taken without searching the whole
/// text, which placing thousands of claims after an edit near the top would otherwise do for each.
export function reanchor(text: string, anchor: TextAnchor, shift = 0): Placement | null {
  const { exact, start } = anchor
  if (exact.length === 0) return null
  if (text.slice(start, anchor.end) === exact)
    return { start, end: anchor.end, how: 'offsets', similarity: 1 }
  const moved = start + shift
  if (
    shift !== 0 &&
    text.slice(moved, moved + exact.length) === exact &&
    contextScore(text, moved, moved + exact.length, anchor) === anchor.prefix.length + anchor.suffix.length
  )
    return { start: moved, end: moved + exact.length, how: 'exact', similarity: 1 }
  let best: { at: number; context: number } | null = null
  for (let at = text.indexOf(exact); at !== -1; at = text.indexOf(exact, at + 1)) {
    const context = contextScore(text, at, at + exact.length, anchor)
    if (
      !best ||
      context > best.context ||
      (context === best.context && Math.abs(at - start) < Math.abs(best.at - start))
    ) {
      best = { at, context }
    }
  }
  if (best) return { start: best.at, end: best.at + exact.length, how: 'exact', similarity: 1 }
  const fuzzy = fuzzyMatch(text, anchor, Math.floor(exact.length * (1 - FUZZY_THRESHOLD)))
  if (!fuzzy) return null
  return { start: fuzzy.start, end: fuzzy.end, how: 'fuzzy', similarity: 1 - fuzzy.distance / exact.length }
}

// The closest text to the anchor's quote: looked for first near its old place and next to its context (where
// an edited claim nearly always is, and cheap), then in the whole text.
function fuzzyMatch(text: string, anchor: TextAnchor, maxEdits: number): ReturnType<typeof closestMatch> {
  const reach = 4 * anchor.exact.length + 1024
  const { prefix, suffix, exact } = anchor
  const afterPrefix = prefix ? text.indexOf(prefix) : -1
  const beforeSuffix = suffix ? text.indexOf(suffix) : -1
  const places = [
    anchor.start,
    afterPrefix < 0 ? -1 : afterPrefix + prefix.length,
    beforeSuffix < 0 ? -1 : beforeSuffix - exact.length,
  ]
  for (const place of places.filter((at) => at >= 0)) {
    const from = Math.max(0, place - reach)
    const found = closestMatch(text.slice(from, place + reach), exact, maxEdits, anchor.start - from)
    if (found) return { start: found.start + from, end: found.end + from, distance: found.distance }
  }
  return closestMatch(text, exact, maxEdits, anchor.start)
}

// How many characters next to a match agree with the anchor's prefix (read backwards) and suffix.
function contextScore(text: string, start: number, end: number, anchor: TextAnchor): number {
  let score = 0
  for (
    let i = 1;
    i <= anchor.prefix.length && text[start - i] === anchor.prefix[anchor.prefix.length - i];
    i++
  )
    score++
  for (let i = 0; i < anchor.suffix.length && text[end + i] === anchor.suffix[i]; i++) score++
  return score
}

/// The substring of `text` with the fewest edits (insertions, deletions, substitutions) from `pattern`, at most
/// `maxEdits`; among equals the one starting nearest `near`. Sellers' dynamic programme column by column, with
/// Ukkonen's cut-off: only the rows that can still end within `maxEdits` are computed.
export function closestMatch(
  text: string,
  pattern: string,
  maxEdits: number,
  near: number,
): { start: number; end: number; distance: number } | null {
  const m = pattern.length
  const limit = maxEdits + 1
  // Column j: cost[i] = fewest edits turning pattern[0, i) into some text[s, j); from[i] = that s.
  let cost = new Int32Array(m + 1)
  let from = new Int32Array(m + 1)
  let nextCost = new Int32Array(m + 1)
  let nextFrom = new Int32Array(m + 1)
  for (let i = 0; i <= m; i++) cost[i] = Math.min(i, limit)
  let top = Math.min(maxEdits, m)
  // The empty substring at the start, when deleting the whole pattern is within reach.
  let best: { start: number; end: number; distance: number } | null =
    m <= maxEdits ? { start: 0, end: 0, distance: m } : null
  for (let j = 1; j <= text.length; j++) {
    const char = text[j - 1]
    const last = Math.min(top + 1, m)
    // Row i reads the row above in this column (up) and rows i − 1 (diagonal) and i (left) of the last one.
    let upCost = 0
    let upFrom = j
    let diagCost = 0
    let diagFrom = j - 1
    for (let i = 1; i <= last; i++) {
      const leftCost = cost[i] ?? limit
      const leftFrom = from[i] ?? 0
      let value = diagCost + (pattern[i - 1] === char ? 0 : 1)
      let start = diagFrom
      if (upCost + 1 < value) {
        value = upCost + 1
        start = upFrom
      }
      if (leftCost + 1 < value) {
        value = leftCost + 1
        start = leftFrom
      }
      upCost = Math.min(value, limit)
      upFrom = start
      nextCost[i] = upCost
      nextFrom[i] = upFrom
      diagCost = leftCost
      diagFrom = leftFrom
    }
    if (last < m) nextCost[last + 1] = limit
    top = last
    while (top > 0 && (nextCost[top] ?? limit) >= limit) top--
    if (last === m && upCost <= maxEdits) {
      const candidate = { start: upFrom, end: j, distance: upCost }
      if (
        !best ||
        candidate.distance < best.distance ||
        (candidate.distance === best.distance &&
          Math.abs(candidate.start - near) < Math.abs(best.start - near))
      ) {
        best = candidate
      }
    }
    ;[cost, nextCost] = [nextCost, cost]
    ;[from, nextFrom] = [nextFrom, from]
  }
  return best
}

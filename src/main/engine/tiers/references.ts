// How a model's reference to something it was shown is read. Models are shown passages as P1…, search results as
// R1… and quotes as Q1…, and small ones write them back as they like: "p1", "[P1]", "Passage 1", "P1.", "source
// 2", "Result 1", or the passage's or quote's own words instead of its id. Each is read here, in one place, so
// that no step drops a reference it could have read and then says nothing bears on the claim.
import { folded } from '../web/typography'

/// Words a model may put before an item's number ("Passage 2", "source #2", "Q 3").
const KIND =
  /^(?:passages?|sources?|results?|quotes?|quotations?|documents?|docs?|items?|snippets?|evidence|references?|refs?|citations?|ids?|p|r|q|s|d)(?![a-z])\.?\s*(?:no\.?|number|n[°º]|#)?\s*[-_:#]?\s*(\d+)\b(.*)$/
/// A bare number, as in "2" or "#2)".
const NUMBER = /^#?\s*(\d+)$/
/// What may wrap or end a reference: brackets, quotes, markup and punctuation.
const WRAPPING = /^[\s[({<"'*_`]+|[\s\])}>"'*_`.,;:!?]+$/g
/// The fewest words of an item a reference by its words must give (fewer could name several).
const MIN_WORDS = 3

/// The index of the item among `items` (in the order shown, item i shown as `${prefix}${i + 1}`) that `written`
/// refers to, or null when it names none of them: by its id or number in any case and wrapping, or by the item's
/// own words (a stretch of at least three words of one item only, or an item's whole text).
export function referredIndex(written: string, items: readonly string[]): number | null {
  const plain = folded(written).replace(WRAPPING, '')
  const byKind = KIND.exec(plain)
  // "P1: the bridge opened…" or "source 2 (Wikipedia)": the number after a kind word is the reference.
  const number = byKind?.[1] ?? NUMBER.exec(plain)?.[1]
  if (number !== undefined) {
    const index = Number(number) - 1
    if (index >= 0 && index < items.length) return index
    if (byKind && byKind[2]?.trim() === '') return null
  }
  return byWords(plain, items)
}

/// The indices of the items `written` refers to, in its order and each once; references to nothing are left
/// out (the caller says whether that leaves anything).
export function referredIndices(written: readonly string[], items: readonly string[]): number[] {
  const order: number[] = []
  for (const reference of written) {
    const index = referredIndex(reference, items)
    if (index !== null && !order.includes(index)) order.push(index)
  }
  return order
}

/// The one item whose text holds `words` (or whose whole text `words` holds), or null when none or several do.
function byWords(words: string, items: readonly string[]): number | null {
  if (words.split(' ').length < MIN_WORDS) return null
  const holding = items.flatMap((item, index) => {
    const text = folded(item).replace(WRAPPING, '')
    return text !== '' && (text.includes(words) || words.includes(text)) ? [index] : []
  })
  return holding.length === 1 ? (holding[0] as number) : null
}

/// What a check says of an answer whose references name nothing valid while there were items to name: the
/// model is told how to write them.
export const unreadReferences = (what: string, prefix: string, count: number): string =>
  `none of the ${what} you named is one of those shown: name them by their ids, ${prefix}1 to ${prefix}${count}`

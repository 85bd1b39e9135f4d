// Better first suggestions for a misspelt word, for the engine's t1 and the editor alike. Harper offers at
// most three words, in an order of its own and sometimes only a split ("acount" → "a count"); here the words
// of a frequency list one edit away (two when none is one away) join them, and all are ordered as a
// noisy-channel corrector orders them: by how likely the writer meant the word (how common it is) and wrote the
// misspelling for it (what its slips cost: spellingErrors.ts). The checker itself decides which of the new words
// it accepts in the writer's English (see harper.ts), so a British writer is not offered American spellings.
import frequencies from '../../resources/word-frequencies.json' with { type: 'json' }
import { SHIPPED_COSTS, SLIPS, slipsBetween, type SlipCosts } from './spellingErrors'

/// How many suggestions a finding keeps, as many as Harper gives.
export const MAX_SUGGESTIONS = 3
/// Longer words are not looked up two edits away: the candidates grow with the square of the length.
const MAX_TWO_EDIT_LENGTH = 12
const LETTERS = 'abcdefghijklmnopqrstuvwxyz'

/// English contractions, which the frequency list splits at the apostrophe: each is offered for itself without
/// it ("dont", "im", "arent"), the commonest slip there is.
const CONTRACTIONS = new Map(
  (
    "I'm I've I'll I'd you're you've you'll you'd he's he'll he'd she's she'll she'd it's it'll we're we've " +
    "we'll we'd they're they've they'll they'd that's there's here's what's who's where's how's let's isn't " +
    "aren't wasn't weren't don't doesn't didn't haven't hasn't hadn't can't couldn't won't wouldn't shouldn't " +
    "mustn't needn't ain't would've could've should've might've must've"
  )
    .split(' ')
    .map((contraction) => [contraction.replace("'", '').toLowerCase(), contraction]),
)

/// Contractions without their apostrophe that are words of their own too ("well", "its", "were"): never taken
/// for the contraction.
const ALSO_WORDS = new Set('ill id hell shell shed its were well wed lets'.split(' '))

/// The contraction `word` is without its apostrophe ("ive" → "I've", "Wont" → "Won't"), unless it is a word of
/// its own too; null for any other word.
export function contractionOf(word: string): string | null {
  const lower = word.toLowerCase()
  const contraction = ALSO_WORDS.has(lower) ? undefined : CONTRACTIONS.get(lower)
  return contraction === undefined ? null : casedLike(word, contraction)
}

let ranks: Map<string, number> | undefined

/// Each listed word's place in the frequency list (0 = the most common).
function wordRanks(): Map<string, number> {
  ranks ??= new Map(frequencies.words.split(' ').map((word, rank) => [word, rank]))
  return ranks
}

/// The regular ways British, Canadian and Australian spellings differ from American ones, each as the
/// other English has it: "metre" is "meter", "colour" "color", "organise" "organize", "analyse" "analyze",
/// "catalogue" "catalog", "defence" "defense", "travelled" "traveled", "paediatric" "pediatric", "sceptic"
/// "skeptic", "sulphate" "sulfate", "programme" "program".
const OTHER_ENGLISH: readonly [RegExp, string][] = [
  [/([^aeiou])re(s|d)?$/, '$1er$2'],
  [/our(s|ed|ing|ite|ites|able|er|ers)?$/, 'or$1'],
  [/is(e|es|ed|ing|ation|ations)$/, 'iz$1'],
  [/ys(e|es|ed|ing)$/, 'yz$1'],
  [/ogue(s)?$/, 'og$1'],
  [/ence(s)?$/, 'ense$1'],
  [/ll(ed|ing|er|ers|ery)$/, 'l$1'],
  [/(ae|oe)/, 'e'],
  [/^sc/, 'sk'],
  [/ulph/, 'ulf'],
  [/mme(s)?$/, 'm$1'],
]

/// Whether `word` is a common word of some English: in the frequency list (whose film subtitles hold British
/// spellings too: "colour", "grey", "metres"), or the British, Canadian or Australian spelling of a word in it
/// of five letters or more ("metre", "litre"). A spelling finding on such a word would change it into another
/// word ("metre" → "mere", "that" → "than"), which an edit distance alone is not evidence enough for.
export function englishWord(word: string): boolean {
  const lower = word.toLowerCase()
  // The list holds contractions without their apostrophe ("youre", "dont"): slips, not words.
  if (!/^[a-z]+$/.test(lower) || contractionOf(lower) !== null) return false
  const known = wordRanks()
  return (
    known.has(lower) ||
    OTHER_ENGLISH.some(([pattern, american]) => {
      const other = lower.replace(pattern, american)
      // Short words are too near each other: "yaer" is no British "yer".
      return other !== lower && other.length >= 5 && known.has(other)
    })
  )
}

/// Whether `a` and `b` are one word as two Englishes spell it ("colour" and "color", "meter" and "metre"), in
/// either order and any case.
export function sameWordElsewhere(a: string, b: string): boolean {
  const [first, second] = [a.toLowerCase(), b.toLowerCase()]
  return (
    first !== second &&
    OTHER_ENGLISH.some(
      ([pattern, american]) =>
        first.replace(pattern, american) === second || second.replace(pattern, american) === first,
    )
  )
}

/// The words of the frequency list one edit (deletion, transposition, substitution, insertion) from `word`,
/// else two, lower-case; and the contraction it is without its apostrophe. None for a word with anything but
/// letters.
export function spellingCandidates(word: string): readonly string[] {
  const lower = word.toLowerCase()
  if (!/^[a-z]+$/.test(lower)) return []
  let candidates = remembered.get(lower)
  if (!candidates) {
    // Names are the usual unknown words, and the two-edit search for one takes tens of milliseconds: the
    // editor re-lints a paragraph at each pause in typing, so each word's candidates are worked out once.
    if (remembered.size >= REMEMBERED_WORDS) remembered.clear()
    candidates = candidatesOf(lower)
    remembered.set(lower, candidates)
  }
  return candidates
}

/// How many words' candidates are kept.
const REMEMBERED_WORDS = 5_000
const remembered = new Map<string, readonly string[]>()

function candidatesOf(lower: string): string[] {
  const known = wordRanks()
  const near = new Set([...edits(lower)].filter((candidate) => known.has(candidate)))
  near.delete(lower)
  const contraction = contractionOf(lower)
  if (contraction) near.add(contraction)
  if (near.size > 0 || lower.length > MAX_TWO_EDIT_LENGTH) return [...near]
  const far = new Set<string>()
  for (const once of edits(lower)) for (const twice of edits(once)) if (known.has(twice)) far.add(twice)
  far.delete(lower)
  return [...far]
}

/// Harper's suggestions and the accepted candidates for `word`, best first (at most MAX_SUGGESTIONS): the most
/// likely meant first, as the chance the writer meant the word (its frequency) times the chance they wrote `word`
/// for it (the slips between the two, at `costs`); Harper's order among equals. A candidate takes the capitals of
/// the word it corrects ("Recieve" → "Receive").
export function rankSpellings(
  word: string,
  suggestions: string[],
  accepted: readonly string[],
  costs: SlipCosts = SHIPPED_COSTS,
): string[] {
  const seen = new Set([word, ...suggestions].map((suggestion) => suggestion.toLowerCase()))
  const added = accepted
    .filter((candidate) => !seen.has(candidate))
    .map((candidate) => casedLike(word, candidate))
  const lower = word.toLowerCase()
  const scored = [...suggestions, ...added].map((suggestion, order) => ({
    suggestion,
    order,
    cost: rarity(suggestion) + slipsBetween(lower, suggestion.toLowerCase(), costs).cost,
  }))
  scored.sort((a, b) => a.cost - b.cost || a.order - b.order)
  return scored.slice(0, MAX_SUGGESTIONS).map((each) => each.suggestion)
}

/// How unlikely a suggestion is to be meant, in nats (up to a constant): word frequencies fall as 1/rank, so the
/// log of its place in the frequency list, from 1, a word not in it (a possessive: "court's") as rare as one past
/// the last. The list counts a contraction's parts, not the contraction, so a contraction is as common as its
/// first word ("I'm" as "I", "don't" as "do", "can't" as "can"). A split ("a lot") is its words together, as
/// likely together as apart, so "a lot" comes before "plot" and "account" before "a count".
function rarity(suggestion: string): number {
  const known = wordRanks()
  return suggestion
    .toLowerCase()
    .split(' ')
    .reduce((sum, part) => {
      const rank = CONTRACTIONS.has(part.replace(/['’]/, ''))
        ? (known.get(part.replace(/n['’]t$/, '')) ?? known.get(part.replace(/['’].*/, '')))
        : known.get(part)
      return sum + Math.log((rank ?? known.size) + 1)
    }, 0)
}

function casedLike(word: string, candidate: string): string {
  if (word.length > 1 && word === word.toUpperCase()) return candidate.toUpperCase()
  if (word[0] !== undefined && word[0] !== word[0].toLowerCase())
    return candidate[0]?.toUpperCase() + candidate.slice(1)
  return candidate
}

function* edits(word: string): Generator<string> {
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i)
    const tail = word.slice(i)
    if (tail) yield head + tail.slice(1)
    if (tail.length > 1) yield head + tail[1] + tail[0] + tail.slice(2)
    for (const letter of LETTERS) {
      if (tail) yield head + letter + tail.slice(1)
      yield head + letter + tail
    }
  }
}

/// How many edits a misspelt word may be from the word it clearly stands for.
const CLEAR_EDITS = 2

/// Edits as clearSpelling counts them: one each, but two letters swapped (the commonest slip of all) or an
/// apostrophe left out ("dont", "youre": writers leave it out more than they mistype a letter) half of one.
const EDITS = Object.fromEntries(
  SLIPS.map((slip) => [slip, slip === 'swap' || slip === 'apostrophe' ? 0.5 : 1]),
) as SlipCosts

/// The suggestion a misspelt word clearly stands for, else null: the first, when it is at most two edits from the
/// word and every other suggestion is farther. Here two letters swapped ("recieve") count half an edit, so
/// "receive" is clearly meant where "relieve" is one letter away too; "wods" (as far from "words" as from "woods")
/// stands for none.
export function clearSpelling(word: string, suggestions: readonly string[]): string | null {
  const [first, ...others] = suggestions.map(
    (suggestion) => slipsBetween(word.toLowerCase(), suggestion.toLowerCase(), EDITS).cost,
  )
  if (first === undefined || first > CLEAR_EDITS || others.some((edits) => edits <= first)) return null
  return suggestions[0] ?? null
}

// How writers misspell, for ranking suggestions as a noisy-channel corrector does (spellings.ts): the slips that
// turn the word meant into the word written, each of a kind (two letters swapped, a double letter written single,
// one vowel for another, …), and what each kind costs: minus the log of its chance at each place it could happen,
// counted in misspellings and the words they stand for (Kernighan, Church and Gale's way) by
// scripts/build-spelling-errors.ts into resources/spelling-errors.json.
import errors from '../../resources/spelling-errors.json' with { type: 'json' }

/// The kinds of slip, as the word meant becomes the word written.
export const SLIPS = [
  // Two neighbouring letters swapped ("recieve").
  'swap',
  // A letter written twice ("untill").
  'doubled',
  // A double letter written once ("acommodate").
  'undoubled',
  // One vowel for another ("seperate").
  'vowel',
  // One letter for another that can spell the same sound ("sentense"): hard and soft c and g
  // (c k q s j g), and the voiced and voiceless pairs (p b, t d, k g, f v, s z).
  'sound',
  // One letter for its neighbour on the keyboard ("qick").
  'key',
  // One letter for another of no kind above.
  'letter',
  // A vowel added.
  'addedVowel',
  // A consonant added.
  'addedConsonant',
  // A vowel left out ("definte").
  'droppedVowel',
  // A consonant left out ("enviroment").
  'droppedConsonant',
  // An apostrophe left out or added ("dont").
  'apostrophe',
  // A space left out ("alot").
  'space',
] as const

export type Slip = (typeof SLIPS)[number]

/// How often each kind of slip was seen (`count`), and how many places in the words meant could have had it
/// (`chances`).
export type SlipCounts = Record<Slip, { count: number; chances: number }>

/// What each kind of slip costs, in nats.
export type SlipCosts = Record<Slip, number>

const VOWELS = 'aeiouy'
const APOSTROPHES = "'’"
const SOUND_ALIKE = new Set(
  'cs ck kq cq gj pb td kg fv sz'.split(' ').flatMap((pair) => [pair, `${pair[1]}${pair[0]}`]),
)
const KEY_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm']
/// Neighbouring keys on a QWERTY keyboard, both ways: the same row, and the two touching keys in the next row.
const NEIGHBOUR_KEYS = new Set(
  KEY_ROWS.flatMap((row, r) =>
    [...row].flatMap((key, i) =>
      [row[i + 1], KEY_ROWS[r + 1]?.[i - 1], KEY_ROWS[r + 1]?.[i]]
        .filter((next) => next !== undefined)
        .flatMap((next) => [key + next, next + key]),
    ),
  ),
)

/// The chance of a slip of each kind at each place it could happen: its count over its chances, half a slip and
/// one chance added to both, so a kind never seen (no apostrophe in the pairs counted) is even, not impossible.
export function slipCosts(counts: SlipCounts): SlipCosts {
  const costs = {} as SlipCosts
  for (const slip of SLIPS) costs[slip] = -Math.log((counts[slip].count + 0.5) / (counts[slip].chances + 1))
  return costs
}

/// The costs counted in resources/spelling-errors.json.
export const SHIPPED_COSTS: SlipCosts = slipCosts(errors.slips)

/// The cheapest way `written` comes from `meant` (both lower case): its cost, the sum of its slips' (`costs`), and
/// its slips. Each place is changed at most once (optimal string alignment, Damerau–Levenshtein without repeated
/// edits of one place).
export function slipsBetween(
  written: string,
  meant: string,
  costs: SlipCosts,
): { cost: number; slips: Slip[] } {
  const columns = meant.length + 1
  const size = (written.length + 1) * columns
  const cost = new Float64Array(size).fill(Infinity)
  const slipAt = new Array<Slip | null>(size).fill(null)
  const from = new Int32Array(size)
  cost[0] = 0
  const step = (to: number, at: number, slip: Slip | null): void => {
    const total = (cost[at] as number) + (slip === null ? 0 : costs[slip])
    if (total < (cost[to] as number)) {
      cost[to] = total
      slipAt[to] = slip
      from[to] = at
    }
  }
  const additions = Array.from(written, (_, at) => added(written, at, 'added'))
  const drops = Array.from(meant, (_, at) => added(meant, at, 'dropped'))
  for (let i = 0; i <= written.length; i++) {
    for (let j = 0; j <= meant.length; j++) {
      const to = i * columns + j
      // Only within the words: a string read at -1 is a slow property lookup.
      if (i > 0 && j > 0) {
        const wrote = written[i - 1] as string
        const meantHere = meant[j - 1] as string
        step(to, to - columns - 1, wrote === meantHere ? null : changed(meantHere, wrote))
        if (i > 1 && j > 1 && wrote !== meantHere && wrote === meant[j - 2] && written[i - 2] === meantHere)
          step(to, to - 2 * columns - 2, 'swap')
      }
      if (i > 0) step(to, to - columns, additions[i - 1] as Slip)
      if (j > 0) step(to, to - 1, drops[j - 1] as Slip)
    }
  }
  const slips: Slip[] = []
  for (let at = size - 1; at > 0; at = from[at] as number) {
    const slip = slipAt[at]
    if (slip) slips.push(slip)
  }
  return { cost: cost[size - 1] as number, slips: slips.reverse() }
}

/// The kind of slip that writes `wrote` for `meant`.
function changed(meant: string, wrote: string): Slip {
  if (VOWELS.includes(meant) && VOWELS.includes(wrote)) return 'vowel'
  if (SOUND_ALIKE.has(meant + wrote)) return 'sound'
  return NEIGHBOUR_KEYS.has(meant + wrote) ? 'key' : 'letter'
}

/// The kind of slip that adds the letter at `at` of `word` (the word written), or leaves it out of `word` (the
/// word meant).
function added(word: string, at: number, way: 'added' | 'dropped'): Slip {
  const letter = word[at] as string
  if (APOSTROPHES.includes(letter)) return 'apostrophe'
  if (letter === ' ') return 'space'
  if ((at > 0 && letter === word[at - 1]) || letter === word[at + 1])
    return way === 'added' ? 'doubled' : 'undoubled'
  const vowel = VOWELS.includes(letter)
  if (way === 'added') return vowel ? 'addedVowel' : 'addedConsonant'
  return vowel ? 'droppedVowel' : 'droppedConsonant'
}

/// How many places of `meant` (lower case) could have each kind of slip.
export function slipChances(meant: string): Record<Slip, number> {
  const letters = [...meant]
  const count = (test: (letter: string, at: number) => boolean): number => letters.filter(test).length
  const vowels = count((letter) => VOWELS.includes(letter))
  const doubles = count((letter, at) => letter === letters[at + 1])
  return {
    swap: Math.max(letters.length - 1, 0),
    doubled: letters.length - 2 * doubles,
    undoubled: doubles,
    vowel: vowels,
    sound: count((letter) => [...SOUND_ALIKE].some((pair) => pair[0] === letter)),
    key: letters.length,
    letter: letters.length,
    addedVowel: letters.length + 1,
    addedConsonant: letters.length + 1,
    droppedVowel: vowels,
    droppedConsonant: letters.length - vowels,
    apostrophe: count((letter) => APOSTROPHES.includes(letter)),
    space: count((letter) => letter === ' '),
  }
}

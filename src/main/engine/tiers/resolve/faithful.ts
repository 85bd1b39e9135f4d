// Whether a resolver's statement says what its claim says. A statement is checked in the claim's place, so one
// that drops a number, a name or a negation, or that says something else ("Rewrite the claim as one
// statement."), would have the panel check another claim; and one that still says "It" with nothing saying what
// it is would have the panel guess. Both are found here in code, the same way for every model.
import { folded } from '../../web/typography'

const words = new Intl.Segmenter(undefined, { granularity: 'word' })

/// Words that carry no fact of their own: a statement may rephrase around them, and a resolved reference
/// ("it", "this", "the company") replaces some of them.
const FUNCTION_WORDS = new Set(
  (
    'a an the and or but nor so yet of in on at to for from by with as into onto about than then that this ' +
    'these those there here it its it’s he him his she her hers they them their theirs we us our i me my you ' +
    'your who whom whose which what when where why how is are was were be been being am has have had having ' +
    'do does did will would shall should can could may might must also only just very more most some any all ' +
    'each every both such own same other over under between through during since until while if because ' +
    'though although up down out off again once'
  )
    .replaceAll('’', "'")
    .split(' '),
)

/// Words that make a claim say the opposite: a statement keeps as many as its claim has.
const NEGATIONS = /^(?:not|no|never|neither|nor|none|nobody|nothing|nowhere|without|cannot|.+n't)$/

/// Numbers written as words, read as the digits a statement may write them with ("five" for "5").
const NUMBER_WORDS = new Map<string, number>([
  ...'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty'
    .split(' ')
    .map((word, value) => [word, value] as const),
  ...'thirty forty fifty sixty seventy eighty ninety'
    .split(' ')
    .map((word, index) => [word, 30 + 10 * index] as const),
  ...'first second third fourth fifth sixth seventh eighth ninth tenth'
    .split(' ')
    .map((word, index) => [word, index + 1] as const),
])

const AMOUNT = String.raw`(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|few|several|many|some|\d+)`
const SPAN = String.raw`(?:second|minute|hour|day|night|week|fortnight|month|quarter|season|year|decade|century|centuries|millenni(?:um|a))s?`
const NAMED_TIME = String.raw`(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|spring|summer|autumn|fall|winter)`
/// Relative times, which the resolver replaces by what they refer to ("two years later" by "in 1885"): what
/// they say need not stay in the statement.
const RELATIVE_TIMES = [
  new RegExp(
    String.raw`\b(?:${AMOUNT}\s+)?${SPAN}\s+(?:ago|later|earlier|before|after|prior|previously|back|on|hence|from now)\b`,
    'giu',
  ),
  new RegExp(
    String.raw`\b(?:last|next|past|previous|preceding|coming|following|same|this|that)\s+(?:${AMOUNT}\s+)?(?:${SPAN}|${NAMED_TIME})\b`,
    'giu',
  ),
  /\b(?:yesterday|today|tomorrow|tonight|nowadays|currently|recently|lately|now)\b/giu,
]

/// Of a content word, what a rewrite keeps when it inflects it ("completed", "completion", "complete").
const stem = (word: string): string =>
  word
    .replace(/(?:ations?|ments?|ings?|ions?|edly|ed|es|s|ly)$/u, (suffix) =>
      word.length - suffix.length >= 3 ? '' : suffix,
    )
    .replace(/(?<=...)e$/u, '')

/// A number as it is compared: without thousands separators or an ordinal's letters ("1,889" and "1889th" are
/// 1889; "1880s" is 1880).
const numberOf = (word: string): string | null => {
  const spelled = NUMBER_WORDS.get(word)
  if (spelled !== undefined) return String(spelled)
  const digits = /^(\d[\d,.' ]*?)(?:st|nd|rd|th|s)?$/u.exec(word)?.[1]
  if (digits === undefined) return null
  return /^\d{1,3}(?:[,' ]\d{3})+(?:\.\d+)?$/u.test(digits) ? digits.replace(/[,' ]/gu, '') : digits
}

interface Word {
  /// As compared: folded, a possessive's "'s" taken off.
  word: string
  /// As written.
  written: string
  /// Whether it begins a sentence (where any word has a capital).
  first: boolean
}

/// The words of `text` in order.
function wordsOf(text: string): Word[] {
  const found: Word[] = []
  let first = true
  for (const { segment, isWordLike } of words.segment(text)) {
    if (!isWordLike) {
      if (/[.!?:]/u.test(segment)) first = true
      continue
    }
    found.push({ word: folded(segment).replace(/'s?$/u, ''), written: segment, first })
    first = false
  }
  return found
}

/// The numbers of `text`, as compared and as written, "twenty five" read as 25.
function numbersOf(found: readonly Word[]): Array<{ value: string; written: string }> {
  const numbers: Array<{ value: string; written: string }> = []
  found.forEach(({ word, written }, index) => {
    const value = numberOf(word)
    if (value === null) return
    const tens = NUMBER_WORDS.get(found[index - 1]?.word ?? '')
    const last = numbers.at(-1)
    if (last && tens !== undefined && tens >= 20 && tens % 10 === 0 && Number(value) < 10)
      numbers[numbers.length - 1] = {
        value: String(tens + Number(value)),
        written: `${last.written} ${written}`,
      }
    else numbers.push({ value, written })
  })
  return numbers
}

/// Names: words written with a capital where a sentence does not begin ("May" in "in May 1920"), but "I".
const isName = ({ written, first, word }: Word): boolean =>
  !first && /^\p{Lu}/u.test(written) && word !== 'i' && numberOf(word) === null

/// Most of a claim's content words: the share of them a statement keeps at the least.
const MIN_KEPT = 0.5

/// What `statement` drops of what `claim` says, in words a model can act on, or null when it keeps it all:
/// every number and name of the claim, its negations, and at least half its content words (other than a
/// relative time, which the resolver replaces by the time it refers to).
export function dropped(claim: string, statement: string): string | null {
  const said = wordsOf(RELATIVE_TIMES.reduce((text, time) => text.replace(time, ' '), claim))
  const kept = wordsOf(statement)
  const keptWords = new Set(kept.map(({ word }) => word))
  const keptNumbers = new Set(numbersOf(kept).map(({ value }) => value))
  const missing = [
    ...new Set([
      ...numbersOf(said)
        .filter(({ value }) => !keptNumbers.has(value))
        .map(({ written }) => written),
      ...said.filter((word) => isName(word) && !keptWords.has(word.word)).map(({ written }) => written),
    ]),
  ]
  const negations = (found: readonly Word[]) => found.filter(({ word }) => NEGATIONS.test(word)).length
  const content = [
    ...new Set(
      said
        .filter(({ word }) => !FUNCTION_WORDS.has(word) && numberOf(word) === null && !NEGATIONS.test(word))
        .map(({ word }) => stem(word)),
    ),
  ]
  const keptStems = new Set(kept.map(({ word }) => stem(word)))
  const keptContent = content.filter((word) => keptStems.has(word)).length
  const problems = [
    ...(missing.length > 0 ? [`it leaves out ${missing.map((word) => `“${word}”`).join(', ')}`] : []),
    ...(negations(kept) < negations(said) ? ['it drops the claim’s negation'] : []),
    ...(keptContent < content.length * MIN_KEPT
      ? [`it keeps ${keptContent} of the claim’s ${content.length} content words`]
      : []),
  ]
  return problems.length > 0 ? problems.join('; ') : null
}

/// Pronouns that refer back to something named before them.
const PERSONAL = new Set(['he', 'she', 'it', 'they'])
const DEMONSTRATIVE = new Set(['this', 'that', 'these', 'those'])
/// Words after which a demonstrative is the subject ("This was …"), not a determiner ("This bridge …").
const VERBS = new Set(
  (
    'is are was were has have had will would can could may might must shall should does did do remains ' +
    'remained became becomes means meant shows showed makes made leads led causes caused'
  ).split(' '),
)
/// What follows an "it" that refers to nothing ("It is true that …", "It was estimated that …", "It seems that …",
/// "It takes ten minutes to …", "It rained").
const EXPLETIVE = new RegExp(
  '^it (?:' +
    [
      String.raw`(?:is|was|has been|had been|will be|would be|seems|seemed|appears|appeared|remains|remained) (?:not )?(?:true|false|clear|unclear|likely|unlikely|possible|impossible|known|estimated|believed|said|reported|thought|expected|claimed|rumou?red|important|necessary|difficult|easy|hard|common|rare) (?:that|to|whether|if)\b`,
      String.raw`(?:seems|seemed|appears|appeared) (?:that|as if|as though)\b`,
      String.raw`(?:is|was) (?:raining|snowing)\b`,
      String.raw`(?:rains|rained|snows|snowed)\b`,
      String.raw`(?:takes|took|will take|would take|costs|cost) .*\bto\b`,
    ].join('|') +
    ')',
  'u',
)
/// Words that open an introductory phrase before the subject ("In 1889, it …").
const OPENERS = new Set(
  'in on at by after before during since until from then later afterwards today yesterday now'.split(' '),
)

/// The pronoun `statement`'s subject still is, as written, when nothing before it in the statement says what
/// it refers to ("It was completed in 1889."), or null.
export function unresolvedSubject(statement: string): string | null {
  const found = wordsOf(statement)
  const opener = found[0] && OPENERS.has(found[0].word)
  const comma = statement.indexOf(',')
  const subjectAt = opener && comma >= 0 ? wordsOf(statement.slice(0, comma)).length : 0
  const subject = found[subjectAt]
  if (!subject) return null
  const next = found[subjectAt + 1]?.word
  if (PERSONAL.has(subject.word)) {
    const rest = found
      .slice(subjectAt)
      .map(({ word }) => word)
      .join(' ')
    return EXPLETIVE.test(rest) ? null : subject.written
  }
  return DEMONSTRATIVE.has(subject.word) && next !== undefined && VERBS.has(next) ? subject.written : null
}

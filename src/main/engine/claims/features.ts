// The features of one sentence that the check-worthiness model weighs. Each is a plain word list or
// shape test, so the model stays small and its weights can be read: what a reader of a sentence would
// point at when asked "is there a fact in here to check?".

const WORD = /\p{L}+(?:['’]\p{L}+)*|\p{N}+(?:[.,:/]\p{N}+)*(?:st|nd|rd|th|s)?|[$€£¥%?!]/gu

const MONTHS = words('january february march april june july august september october november december')
const NUMBER_WORDS = words(
  'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen ' +
    'eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands ' +
    'million millions billion billions trillion trillions dozen dozens half twice double doubled triple tripled ' +
    'quarter percent percentage',
)
const ORDINALS = words('first second third fourth fifth sixth seventh eighth ninth tenth last')
const UNITS = words(
  'dollars cents euros pounds yen km kilometers kilometres miles meters metres feet foot inches cm mm kg ' +
    'kilograms grams tons tonnes pounds acres hectares degrees celsius fahrenheit years year months days hours ' +
    'minutes seconds decades centuries century decade gallons liters litres barrels watts megawatts gigawatts ' +
    'square species people jobs votes seats members',
)
const SUPERLATIVES = words(
  'most least largest biggest highest lowest smallest oldest youngest longest shortest fastest slowest ' +
    'greatest best worst only earliest latest richest poorest deepest tallest heaviest',
)
const COMPARATIVES = words(
  'more less fewer than larger bigger higher lower smaller older younger longer faster',
)
const ATTRIBUTION = words(
  'said says say told announced reported stated claimed wrote according testified admitted confirmed ' +
    'voted signed passed vetoed ruled published found discovered invented founded established elected',
)
const CAUSAL = words('because caused causes cause due result resulted results led leads therefore thus since')
const HEDGES = words(
  'may might could perhaps possibly probably likely unlikely seem seems seemed appear appears suggest ' +
    'suggests generally usually often sometimes can maybe somewhat potentially typically',
)
const FIRST_PERSON_SINGULAR = words("i me my mine myself i'm i've i'd i'll")
const FIRST_PERSON_PLURAL = words("we us our ours ourselves we're we've we'd we'll let's")
const SECOND_PERSON = words("you your yours yourself you're you've you'd you'll")
const FEELINGS = words(
  'think believe feel felt hope hoped wish want wanted love hate glad proud afraid sorry guess ' +
    'happy sad worried concerned convinced delighted honored pleased',
)
const OPINIONS = words(
  'good bad great terrible wrong right important should must need needs ought wonderful horrible awful ' +
    'beautiful amazing fair unfair ridiculous shame disgrace strong weak better worse nice terrific tremendous ' +
    'absolutely clearly obviously really very essential crucial recommend',
)
const FUTURE = words("will would shall going gonna 'll won't wouldn't")
const NEGATIONS = words(
  "not no never nothing nobody none n't don't doesn't didn't isn't aren't wasn't weren't",
)
const QUESTION_WORDS = words('what why how who whom whose which when where whether')
const AUXILIARIES = words(
  "is are was were do does did can could would will should have has shall isn't aren't",
)
const IMPERATIVES = words(
  'let please look consider imagine remember think make take give tell ask go come find check try ' +
    'select compare determine use keep note read see start',
)
const DISCOURSE_STARTS = words('and but so well now yes no oh okay ok look because or also then')
const DEICTIC_STARTS = words('that this these those it there here they he she')
const PAST_COPULAS = words('was were had been did became')
const PRESENT_COPULAS = words('is are has have')
const IRREGULAR_PAST = words(
  'went made took gave began grew rose fell won lost built wrote sold bought paid spent brought ' +
    'fought led left met ran saw sent set stood told thought came became kept held',
)
const YEAR = /^(?:1[5-9]\d\d|20\d\d)s?$/
const DIGITS = /^\p{N}/u
const ORDINAL_NUMBER = /^\p{N}+(?:st|nd|rd|th)$/u

/// What one token says whatever the sentence: the features it adds in `sentenceFeatures`'s order, split where
/// the features that depend on its neighbour go.
interface TokenFeatures {
  lower: string
  /// Its `w:` feature and its part of a word pair.
  word: string
  pairPart: string
  /// Features before the quantity test, and after it.
  before: string[]
  after: string[]
  isWord: boolean
  /// A number or a number word (counts, and makes a unit after it a quantity).
  isNumber: boolean
  isUnit: boolean
  isPast: boolean
  isCapitalised: boolean
  isAcronym: boolean
}

// Tokens recur across a document's sentences: each is read once. Cleared when large, as a process may read
// many documents.
const tokenCache = new Map<string, TokenFeatures>()
const TOKEN_CACHE_SIZE = 50_000

function tokenFeatures(token: string): TokenFeatures {
  let known = tokenCache.get(token)
  if (known) return known
  const word = token.toLowerCase()
  const digits = DIGITS.test(word)
  const before: string[] = []
  if (digits) before.push(YEAR.test(word) ? 'has:year' : 'has:number')
  if (ORDINAL_NUMBER.test(word) || ORDINALS.has(word)) before.push('has:ordinal')
  if (NUMBER_WORDS.has(word)) before.push('has:number-word')
  if (word === '%' || word === '$' || word === '€' || word === '£' || word === '¥')
    before.push('has:money-or-percent')
  if (MONTHS.has(word)) before.push('has:month')
  const after: string[] = []
  if (SUPERLATIVES.has(word) || (word.endsWith('est') && word.length > 5)) after.push('has:superlative')
  if (COMPARATIVES.has(word)) after.push('has:comparative')
  if (ATTRIBUTION.has(word)) after.push('has:attribution')
  if (CAUSAL.has(word)) after.push('has:causal')
  if (HEDGES.has(word)) after.push('has:hedge')
  if (FIRST_PERSON_SINGULAR.has(word)) after.push('has:first-person-singular')
  if (FIRST_PERSON_PLURAL.has(word)) after.push('has:first-person-plural')
  if (SECOND_PERSON.has(word)) after.push('has:second-person')
  if (FEELINGS.has(word)) after.push('has:feeling')
  if (OPINIONS.has(word)) after.push('has:opinion')
  if (FUTURE.has(word)) after.push('has:future')
  if (NEGATIONS.has(word) || word.endsWith("n't")) after.push('has:negation')
  const isPast =
    PAST_COPULAS.has(word) || IRREGULAR_PAST.has(word) || (word.endsWith('ed') && word.length > 4)
  if (isPast) after.push('has:past')
  if (PRESENT_COPULAS.has(word)) after.push('has:present-copula')
  const pairPart = bigramPart(word)
  known = {
    lower: word,
    word: `w:${pairPart}`,
    pairPart,
    before,
    after,
    isWord: /\p{L}|\p{N}/u.test(token),
    isNumber: digits || NUMBER_WORDS.has(word),
    isUnit: UNITS.has(word),
    isPast,
    isCapitalised: /^\p{Lu}/u.test(token) && word !== 'i',
    isAcronym: /^\p{Lu}{2,}$/u.test(token),
  }
  if (tokenCache.size >= TOKEN_CACHE_SIZE) tokenCache.clear()
  tokenCache.set(token, known)
  return known
}

/// The names of the features present in a sentence (each counted once), in a fixed order.
export function sentenceFeatures(sentence: string): string[] {
  const tokens = sentence.match(WORD) ?? []
  const features = new Set<string>()
  const read = tokens.map(tokenFeatures)
  const lower = read.map((token) => token.lower)
  let wordCount = 0
  let names = 0
  let acronyms = 0
  let numbers = 0
  let pasts = 0
  for (let i = 0; i < read.length; i++) {
    const token = read[i] as TokenFeatures
    const previous = read[i - 1]
    if (token.isWord) wordCount++
    features.add(token.word)
    if (previous !== undefined) features.add(`b:${previous.pairPart}_${token.pairPart}`)
    if (token.isNumber) numbers++
    for (const feature of token.before) features.add(feature)
    if (token.isUnit && previous?.isNumber) features.add('has:quantity')
    for (const feature of token.after) features.add(feature)
    if (token.isPast) pasts++
    if (i > 0 && token.isCapitalised) names++
    if (token.isAcronym) acronyms++
  }
  const first = lower[0]
  const last = lower[lower.length - 1]
  features.add(`first:${first === undefined ? '' : DIGITS.test(first) ? numberShape(first) : first}`)
  if (lower[1] !== undefined) features.add(`first:${first}_${bigramPart(lower[1])}`)
  if (numbers > 1) features.add('numbers:several')
  if (pasts > 1) features.add('past:several')
  if (/\b(?:uh|um)\b|--| - /i.test(sentence)) features.add('has:filler')
  if (/\p{L}['’](?:s|re|ve|ll|d|m)\b|n['’]t\b/iu.test(sentence)) features.add('has:contraction')
  if (/["“”]/.test(sentence)) features.add('has:quote')
  if (first !== undefined) {
    if (QUESTION_WORDS.has(first) || AUXILIARIES.has(first)) features.add('start:question-word')
    if (IMPERATIVES.has(first)) features.add('start:imperative')
    if (DISCOURSE_STARTS.has(first)) features.add('start:discourse')
    if (DEICTIC_STARTS.has(first)) features.add('start:deictic')
    if (
      /^\p{Lu}/u.test(tokens[0] as string) &&
      !DEICTIC_STARTS.has(first) &&
      !FIRST_PERSON_SINGULAR.has(first)
    )
      features.add('start:capitalised')
  }
  if (last === '?' || sentence.trimEnd().endsWith('?')) features.add('end:question')
  if (last === '!') features.add('end:exclamation')
  if (names > 0) features.add(names > 3 ? 'names:many' : names > 1 ? 'names:several' : 'names:one')
  if (acronyms > 0) features.add('has:acronym')
  features.add(`length:${lengthBucket(wordCount)}`)
  return [...features]
}

/// The character 2- to 5-grams of a sentence (each counted once), lower-cased, digits read as 0 and runs of
/// whitespace as one space, with a space at either end: they catch word forms, numbers and names that the
/// whole words miss.
export function characterGrams(sentence: string): Set<string> {
  const text = characterText(sentence)
  const grams = new Set<string>()
  for (let size = MIN_GRAM; size <= MAX_GRAM; size++)
    for (let i = 0; i + size <= text.length; i++) grams.add(`c:${text.slice(i, i + size)}`)
  return grams
}

/// The sizes of the character n-grams.
export const MIN_GRAM = 2
export const MAX_GRAM = 5

/// A sentence as its character n-grams read it (see `characterGrams`).
export function characterText(sentence: string): string {
  return ` ${sentence.toLowerCase().replace(/\p{N}/gu, '0').replace(/\s+/g, ' ')} `
}

function words(list: string): Set<string> {
  return new Set(list.split(' '))
}

/// Numbers are read by their shape, so "1,200" and "3,400" are the same word to the model.
function numberShape(word: string): string {
  if (YEAR.test(word)) return '<year>'
  if (ORDINAL_NUMBER.test(word)) return '<ordinal>'
  return '<number>'
}

function bigramPart(word: string): string {
  return DIGITS.test(word) ? numberShape(word) : word
}

function lengthBucket(words: number): string {
  if (words <= 4) return 'tiny'
  if (words <= 8) return 'short'
  if (words <= 15) return 'medium'
  if (words <= 25) return 'long'
  return 'very-long'
}

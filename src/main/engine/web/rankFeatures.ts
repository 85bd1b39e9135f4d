// What the ranking knows of a claim and each of its candidate passages: lexical features, each read against
// the other passages of the same claim (a word's weight is its BM25 idf among them, and BM25 is scaled by the
// best passage's). The learned ranking (rank.ts) weighs them; training (eval/training/evidence.ts) chooses the
// weights.

const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by for from had has have he her his i if in into is it its of on or ' +
    'she so than that the their them then there these they this those to was were what when where which who ' +
    'whom why will with would also can could did do does not no nor our out over such up we you your about after ' +
    'before between during under more most other some any each only own same very just'
  ).split(' '),
)

/// A crude stem: enough to match "born"/"borns", "elected"/"election" is left alone on purpose.
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us'))
    return word.slice(0, -1)
  return word
}

/// The words of a text that are not stopwords: stemmed and lower-cased terms, numbers kept as they are, with
/// the sentence each is in and whether it was written with a capital.
interface Words {
  terms: string[]
  sentences: number[]
  capitals: boolean[]
}

const WORD_OR_STOP = /[\p{L}\p{N}]+|[.!?]+/gu

function words(text: string): Words {
  const found: Words = { terms: [], sentences: [], capitals: [] }
  let sentence = 0
  for (const [raw] of text.normalize('NFKC').matchAll(WORD_OR_STOP)) {
    const lower = raw.toLowerCase()
    if (lower === raw && /^[.!?]/.test(raw)) sentence++
    else if (!STOPWORDS.has(lower)) {
      found.terms.push(stem(lower))
      found.sentences.push(sentence)
      found.capitals.push(lower !== raw)
    }
  }
  return found
}

/// A text as BM25 sees it: its terms and how often each occurs.
interface Doc {
  terms: string[]
  counts: Map<string, number>
}

function doc(terms: string[]): Doc {
  const counts = new Map<string, number>()
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1)
  return { terms, counts }
}

/// The BM25 inverse document frequency of each query term among `docs` (never negative).
function idfs(queryTerms: Iterable<string>, docs: readonly Doc[]): Map<string, number> {
  const idf = new Map<string, number>()
  for (const term of queryTerms) {
    let df = 0
    for (const d of docs) if (d.counts.has(term)) df++
    idf.set(term, Math.log(1 + (docs.length - df + 0.5) / (df + 0.5)))
  }
  return idf
}

function bm25(query: Doc, docs: readonly Doc[], idf: Map<string, number>, k1: number, b: number): number[] {
  const average = docs.reduce((sum, d) => sum + d.terms.length, 0) / Math.max(1, docs.length) || 1
  return docs.map((d) => {
    let score = 0
    for (const term of query.counts.keys()) {
      const tf = d.counts.get(term) ?? 0
      if (tf === 0) continue
      score += (idf.get(term) ?? 0) * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.terms.length) / average)))
    }
    return score
  })
}

/// BM25 scores of `passages` for `query`, with document frequencies from the passages themselves.
export function bm25Scores(query: string, passages: readonly string[], k1 = 1.2, b = 0.75): number[] {
  const q = doc(words(query).terms)
  const docs = passages.map((text) => doc(words(text).terms))
  return bm25(q, docs, idfs(q.counts.keys(), docs), k1, b)
}

const DEBRIS = [
  /\bretrieved\b/i,
  /\barchived from\b/i,
  /\bISBN\b/,
  /\bdoi\b/i,
  /\^/,
  /\[\s*edit\s*\]/i,
  /\bdead link\b/i,
  /\bpp?\.\s*\d/,
  /\(\d{4}\)\.\s/,
  /\bcite\b|\bcitation needed\b/i,
]

/// How much a passage looks like a reference list or page furniture rather than prose: 0 (prose) to 1.
function debris(text: string): number {
  const hits = DEBRIS.filter((pattern) => pattern.test(text)).length
  const sentences = (text.match(/[a-z][.!?](\s|$)/g) ?? []).length
  const short = text.length < 60 ? 0.5 : 0
  return Math.min(1, hits * 0.25 + short + (sentences === 0 ? 0.25 : 0))
}

/// Homework and quiz pages ("Question 1.", "a. … b. …", "Show answer", "Solved"): they repeat a claim's
/// words around a question rather than state anything.
const QUIZ = /\b(?:question|answer|solved|quiz|expert|homework|step-by-step)\b|(?:^|\s)[a-d][.)]\s/gi

/// Footnote marks: "[12]" and "^".
const FOOTNOTES = /\[\s*\d+\s*\]|\^/g

/// Each feature: its name and what it measures (of a passage, for the claim).
export const FEATURES = {
  bm25: 'BM25 (k1 1.2, b 0.5) over the best passage’s',
  coverage: 'the idf-weighted share of the claim’s words the passage has',
  words: 'the share of the claim’s distinct words the passage has',
  'rare words': 'the share of the claim’s words found in at most half of the passages that the passage has',
  'word pairs': 'the share of the claim’s adjacent word pairs the passage repeats',
  numbers: 'the share of the claim’s numbers the passage repeats (0 when it has none)',
  names: 'the share of the claim’s capitalised words (after its first) the passage has',
  subject: 'the share of the claim’s first three words the passage has',
  window: 'the idf-weighted share of the claim’s words in the passage’s densest 20-word window',
  sentence: 'the idf-weighted share of the claim’s words in the passage’s best sentence',
  'first match': 'where the first of the claim’s words occurs, from 0 (the start) to 1 (never)',
  length: 'the logarithm of the number of words',
  debris: 'how much it looks like a reference list or page furniture (0 to 1)',
  footnotes: 'footnote marks per ten words',
  quiz: 'homework and quiz wording (0 to 1)',
  characters: 'the share of the claim’s character 4-grams the passage has',
  'bm25 steep': 'BM25 (k1 0.5, b 0.3) over the best passage’s',
  'bm25 long': 'BM25 (k1 2, b 1) over the best passage’s',
  'bm25 rank': 'one over one plus the passage’s place in the order of bm25 (1 for the first)',
  'relative coverage': 'coverage over the best coverage among the passages',
  'sentence bm25': 'BM25 of the passage’s best sentence over the best of any passage’s',
  questions: 'question marks per sentence',
  digits: 'the share of the passage’s words that are numbers',
  repeated: '1 when another candidate passage has the same text',
  span: 'the claim words present over the shortest run of words holding them all',
} as const

export type Feature = keyof typeof FEATURES

/// The feature names, in the order `passageFeatures` returns their values.
export const FEATURE_NAMES = Object.keys(FEATURES) as Feature[]

const WINDOW = 20

function share(wanted: ReadonlySet<string>, has: (item: string) => boolean): number {
  if (wanted.size === 0) return 0
  let found = 0
  for (const item of wanted) if (has(item)) found++
  return found / wanted.size
}

/// A text's letters and digits, lower-cased, with every other run of characters as one space (and one at
/// each end).
function letters(text: string): string {
  return ` ${text
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')} `
}

/// A text's character 4-grams (of `letters`), each numbered, looked up by its first two characters and then
/// its last two: a passage is read without making a string per position.
interface Grams {
  count: number
  index: Map<number, Map<number, number>>
}

const pairAt = (text: string, at: number) => text.charCodeAt(at) * 65536 + text.charCodeAt(at + 1)

function characterGrams(text: string): Grams {
  const spaced = letters(text)
  const grams: Grams = { count: 0, index: new Map() }
  for (let i = 0; i + 4 <= spaced.length; i++) {
    const second = grams.index.get(pairAt(spaced, i)) ?? new Map<number, number>()
    grams.index.set(pairAt(spaced, i), second)
    if (!second.has(pairAt(spaced, i + 2))) second.set(pairAt(spaced, i + 2), grams.count++)
  }
  return grams
}

/// The share of `grams` found in the text.
function gramShare(grams: Grams, text: string): number {
  if (grams.count === 0) return 0
  const spaced = letters(text)
  const found = new Uint8Array(grams.count)
  let distinct = 0
  for (let i = 0; i + 4 <= spaced.length; i++) {
    const number = grams.index.get(pairAt(spaced, i))?.get(pairAt(spaced, i + 2))
    if (number !== undefined && found[number] === 0) {
      found[number] = 1
      distinct++
    }
  }
  return distinct / grams.count
}

/// What the measures read of the claim, among its passages: computed once per claim, the costlier parts
/// when a measure first asks.
interface ClaimView {
  unique: Set<string>
  idf: Map<string, number>
  totalIdf: number
  rare: Set<string>
  numbers: Set<string>
  names: Set<string>
  subject: Set<string>
  pairs: Set<string>
  /// BM25 of each passage over the best passage's, for k1 1.2 and b 0.5, and the steep and long settings.
  scaledBm25(): number[]
  steepBm25(): number[]
  longBm25(): number[]
  /// Each passage's place in BM25's order, from 0.
  bm25Places(): number[]
  bestCoverage(): number
  /// BM25 of each passage's best sentence over the best of any passage's.
  sentenceBm25(): number[]
  /// How many of the passages have each text.
  copies(): Map<string, number>
  /// The claim's character 4-grams.
  grams(): Grams
}

/// One passage as the measures read it.
interface PassageView {
  text: string
  found: Words
  doc: Doc
}

const has = (passage: PassageView) => (term: string) => passage.doc.counts.has(term)

/// How each feature is measured (see `FEATURES`).
const MEASURES: Record<Feature, (claim: ClaimView, passage: PassageView, index: number) => number> = {
  bm25: (claim, _, i) => claim.scaledBm25()[i] ?? 0,
  coverage: (claim, passage) => coverage(claim, passage),
  words: (claim, passage) => share(claim.unique, has(passage)),
  'rare words': (claim, passage) => share(claim.rare, has(passage)),
  'word pairs': (claim, passage) => {
    // Only pairs that start with a claim word can be one of the claim's pairs.
    const terms = passage.doc.terms
    const docPairs = new Set<string>()
    for (let j = 1; j < terms.length; j++)
      if (claim.unique.has(terms[j - 1] as string)) docPairs.add(`${terms[j - 1]} ${terms[j]}`)
    return share(claim.pairs, (pair) => docPairs.has(pair))
  },
  numbers: (claim, passage) => share(claim.numbers, has(passage)),
  names: (claim, passage) => share(claim.names, has(passage)),
  subject: (claim, passage) => share(claim.subject, has(passage)),
  window: (claim, passage) => densestWindow(passage.doc.terms, claim.idf) / claim.totalIdf,
  sentence: (claim, passage) => bestSentence(passage.found, claim.idf) / claim.totalIdf,
  'first match': (claim, passage) => firstMatch(passage.doc.terms, claim.unique),
  length: (_, passage) => Math.log1p(passage.doc.terms.length),
  debris: (_, passage) => debris(passage.text),
  footnotes: (_, passage) =>
    ((passage.text.match(FOOTNOTES) ?? []).length * 10) / Math.max(1, passage.doc.terms.length),
  quiz: (_, passage) => Math.min(1, (passage.text.match(QUIZ) ?? []).length / 3),
  characters: (claim, passage) => gramShare(claim.grams(), passage.text),
  'bm25 steep': (claim, _, i) => claim.steepBm25()[i] ?? 0,
  'bm25 long': (claim, _, i) => claim.longBm25()[i] ?? 0,
  'bm25 rank': (claim, _, i) => 1 / (1 + (claim.bm25Places()[i] ?? 0)),
  'relative coverage': (claim, passage) => coverage(claim, passage) / Math.max(1e-9, claim.bestCoverage()),
  'sentence bm25': (claim, _, i) => claim.sentenceBm25()[i] ?? 0,
  questions: (_, passage) =>
    (passage.text.match(/\?/g) ?? []).length / (1 + (passage.found.sentences.at(-1) ?? 0)),
  digits: (_, passage) =>
    passage.doc.terms.filter((term) => /^\d/.test(term)).length / Math.max(1, passage.doc.terms.length),
  repeated: (claim, passage) => ((claim.copies().get(passage.text) ?? 0) > 1 ? 1 : 0),
  span: (claim, passage) => shortestSpan(passage.doc.terms, claim.unique),
}

/// The idf-weighted share of the claim's words the passage has.
function coverage(claim: ClaimView, passage: PassageView): number {
  let covered = 0
  for (const term of claim.unique) if (passage.doc.counts.has(term)) covered += claim.idf.get(term) ?? 0
  return covered / claim.totalIdf
}

/// A value computed on the first call and kept.
function once<T>(make: () => T): () => T {
  let made: { value: T } | null = null
  return () => (made ??= { value: make() }).value
}

/// Each value over the largest (all 0 when none is above 0).
function scaled(values: readonly number[]): number[] {
  const top = Math.max(...values, 1e-9)
  return values.map((value) => value / top)
}

/// The features of each passage for the claim: one row per passage, the values of `features` in their order
/// (all of them by default, in the order of `FEATURE_NAMES`). Only the features asked for are measured.
export function passageFeatures(
  claim: string,
  passages: readonly string[],
  features: readonly Feature[] = FEATURE_NAMES,
): number[][] {
  const claimWords = words(claim)
  const query = doc(claimWords.terms)
  const views: PassageView[] = passages.map((text) => {
    const found = words(text)
    return { text, found, doc: doc(found.terms) }
  })
  const docs = views.map((view) => view.doc)
  const idf = idfs(query.counts.keys(), docs)
  const unique = new Set(query.terms)
  const bm25Scores = once(() => bm25(query, docs, idf, 1.2, 0.5))
  const view: ClaimView = {
    unique,
    idf,
    totalIdf: [...idf.values()].reduce((sum, value) => sum + value, 0) || 1,
    rare: new Set(
      [...unique].filter((term) => docs.filter((d) => d.counts.has(term)).length <= docs.length / 2),
    ),
    numbers: new Set(query.terms.filter((term) => /^\d/.test(term))),
    names: new Set(claimWords.terms.filter((_, i) => i > 0 && claimWords.capitals[i])),
    subject: new Set(query.terms.slice(0, 3)),
    pairs: new Set(query.terms.slice(1).map((term, i) => `${query.terms[i]} ${term}`)),
    scaledBm25: once(() => scaled(bm25Scores())),
    steepBm25: once(() => scaled(bm25(query, docs, idf, 0.5, 0.3))),
    longBm25: once(() => scaled(bm25(query, docs, idf, 2, 1))),
    bm25Places: once(() => {
      const scores = bm25Scores()
      const places: number[] = []
      scores
        .map((_, i) => i)
        .sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b)
        .forEach((index, place) => (places[index] = place))
      return places
    }),
    bestCoverage: once(() => Math.max(0, ...views.map((passage) => coverage(view, passage)))),
    sentenceBm25: once(() => scaled(sentenceBm25(query, views, idf))),
    copies: once(() => {
      const copies = new Map<string, number>()
      for (const text of passages) copies.set(text, (copies.get(text) ?? 0) + 1)
      return copies
    }),
    grams: once(() => characterGrams(claim)),
  }
  const measures = features.map((feature) => MEASURES[feature])
  return views.map((passage, i) => measures.map((measure) => measure(view, passage, i)))
}

/// The largest idf weight of distinct claim words inside any run of WINDOW words, by one sliding pass.
function densestWindow(terms: readonly string[], idf: ReadonlyMap<string, number>): number {
  const inWindow = new Map<string, number>()
  let weight = 0
  let densest = 0
  terms.forEach((term, end) => {
    if (idf.has(term)) {
      const count = inWindow.get(term) ?? 0
      if (count === 0) weight += idf.get(term) ?? 0
      inWindow.set(term, count + 1)
    }
    const leaving = terms[end - WINDOW]
    if (leaving !== undefined && idf.has(leaving)) {
      const count = (inWindow.get(leaving) ?? 0) - 1
      if (count === 0) weight -= idf.get(leaving) ?? 0
      inWindow.set(leaving, count)
    }
    densest = Math.max(densest, weight)
  })
  return densest
}

/// The largest idf weight of distinct claim words inside one sentence.
function bestSentence(found: Words, idf: ReadonlyMap<string, number>): number {
  let best = 0
  let seen = new Set<string>()
  let weight = 0
  found.terms.forEach((term, i) => {
    if (i > 0 && found.sentences[i] !== found.sentences[i - 1]) {
      seen = new Set()
      weight = 0
    }
    if (idf.has(term) && !seen.has(term)) {
      seen.add(term)
      weight += idf.get(term) ?? 0
      best = Math.max(best, weight)
    }
  })
  return best
}

function firstMatch(terms: readonly string[], wanted: ReadonlySet<string>): number {
  const first = terms.findIndex((term) => wanted.has(term))
  return first < 0 ? 1 : first / Math.max(1, terms.length)
}

/// How many distinct claim words the passage has over the length of the shortest run of its words holding
/// them all (1 when they stand together, 0 when it has none).
function shortestSpan(terms: readonly string[], wanted: ReadonlySet<string>): number {
  const inWindow = new Map<string, number>()
  const present = new Set(terms.filter((term) => wanted.has(term)))
  if (present.size === 0) return 0
  let start = 0
  let covered = 0
  let shortest = Infinity
  terms.forEach((term, end) => {
    if (!present.has(term)) return
    const count = inWindow.get(term) ?? 0
    if (count === 0) covered++
    inWindow.set(term, count + 1)
    while (covered === present.size) {
      shortest = Math.min(shortest, end - start + 1)
      const leaving = terms[start] as string
      if (present.has(leaving)) {
        const left = (inWindow.get(leaving) ?? 0) - 1
        inWindow.set(leaving, left)
        if (left === 0) covered--
      }
      start++
    }
  })
  return present.size / shortest
}

/// The BM25 of each passage's best sentence, every sentence of every passage a document of its own (with the
/// passages' idf).
function sentenceBm25(query: Doc, views: readonly PassageView[], idf: Map<string, number>): number[] {
  const sentences: Doc[] = []
  const owner: number[] = []
  views.forEach((view, i) => {
    let terms: string[] = []
    view.found.terms.forEach((term, k) => {
      if (k > 0 && view.found.sentences[k] !== view.found.sentences[k - 1]) {
        sentences.push(doc(terms))
        owner.push(i)
        terms = []
      }
      terms.push(term)
    })
    sentences.push(doc(terms))
    owner.push(i)
  })
  const best = views.map(() => 0)
  bm25(query, sentences, idf, 1.2, 0.75).forEach((score, k) => {
    const i = owner[k] as number
    best[i] = Math.max(best[i] ?? 0, score)
  })
  return best
}

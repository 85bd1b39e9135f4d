/// Seeded article-like prose for the benchmarks: statements with names, years and figures, opinions, questions
/// and a Markdown heading now and then, so that extraction meets the kinds of sentence a writer's text has.
const PLACES = ['Lyon', 'Porto', 'Gdansk', 'Leeds', 'Basel', 'Turin', 'Ghent', 'Bergen', 'Bilbao', 'Tartu']
const THINGS = ['railway bridge', 'city library', 'harbour crane', 'tram line', 'water tower', 'market hall']
const SENTENCES: ((pick: () => number) => string)[] = [
  (n) => `The ${THINGS[n() % 6]} in ${PLACES[n() % 10]} was opened in ${1850 + (n() % 150)}.`,
  (n) =>
    `By ${1900 + (n() % 120)} it carried about ${1000 + (n() % 9000)} people a week, twice the number of the year before.`,
  (n) => `Many visitors think the ${THINGS[n() % 6]} is the most beautiful building in ${PLACES[n() % 10]}.`,
  (n) => `Why did the council of ${PLACES[n() % 10]} wait so long to repair it?`,
  (n) =>
    `Its architect, who had trained in ${PLACES[n() % 10]}, died in ${1880 + (n() % 100)} and is buried near the river.`,
  () =>
    'Locals still argue about whether it should ever have been built, and the debate is unlikely to end soon.',
]

/// About `words` words of prose, the same for the same seed.
export function prose(words: number, seed = 1): string {
  let state = seed >>> 0
  // mulberry32
  const pick = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return (t ^ (t >>> 14)) >>> 0
  }
  const parts: string[] = []
  let count = 0
  while (count < words) {
    const sentence =
      pick() % 25 === 0
        ? `\n\n## The ${THINGS[pick() % 6]}\n\n`
        : (SENTENCES[pick() % SENTENCES.length] as (n: () => number) => string)(pick)
    parts.push(sentence)
    count += sentence.split(/\s+/).filter(Boolean).length
  }
  return parts.join(' ')
}

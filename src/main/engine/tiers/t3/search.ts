// t3's search loop (after FIRE, Xie et al. 2024): the model writes the first query, reads the results' titles,
// snippets and dates, and either picks the results worth reading or searches again with the query it asks for,
// at most `research.maxSearches` searches per claim. Pages are fetched only when the model picks them: snippets
// are cheap, pages are not, and most claims are settled by the first search. When the pages picked hold nothing
// that bears on the claim and searches are left, the model is told so and searches again.
import { z } from 'zod'
import type { Fallback, TokenUsage } from '../../../../shared/schemas'
import { addUsage, UnusableAnswerError, type ModelClient, type ModelHandle } from '../../models'
import { normaliseSpace, type SearchResult, type Web } from '../../web'
import { referredIndices, unreadReferences } from '../references'
import { dataBlock, type ClaimData } from '../t2/prompts'
import { DATA_RULE, webDateRule } from './prompts'

/// Results asked of the search provider per search, and pages read at most per step.
const RESULTS_PER_SEARCH = 5
const PAGES = 4
const MAX_QUERY = 300
/// Characters of a snippet shown: a search engine's snippet is about this long; some providers send a page's
/// whole extract as its snippet, which the pages read later give in full.
const MAX_SNIPPET = 240

/// The model's step after reading the results so far: its reasoning first, then which results to read and
/// whether to search again. Only the ids are described (for servers that show descriptions to the model); the
/// system prompt says what each member is.
export const SearchStep = z.object({
  reasoning: z.string(),
  read: z.array(z.string().describe('result id as shown, e.g. R1')),
  nextQuery: z.string().nullable(),
})
export type SearchStep = z.infer<typeof SearchStep>

function searchSystem(today: string | null): string {
  return [
    'You research a claim on the web for a fact-checking panel, from the search results so far (title, ' +
      'site, snippet, date when known). JSON: "reasoning" (at most two sentences: what they show, what is ' +
      'missing), "read" (the ids of the results worth reading to confirm or contradict the claim, most useful ' +
      'first), "nextQuery" (a new query for what is missing, no repeat; null when the results can settle it ' +
      'or no searches are left). With no results yet, write the first query: the names and facts to look up, ' +
      'as typed into a search engine. Results in "readWithoutEvidence" were read and hold nothing on the claim.',
    ...webDateRule(today),
    DATA_RULE,
  ].join('\n')
}

/// The request for each step: the statement (self-contained, so no context), the queries so far, the results'
/// titles, sites, snippets and dates (as days, when the provider gives them), and the results already read in
/// vain.
function searchPrompt(
  item: Pick<ClaimData, 'claim'>,
  queries: readonly string[],
  results: readonly SearchResult[],
  read: ReadonlySet<SearchResult>,
  searchesLeft: number,
): string {
  const found = results.map((result, index) => ({
    id: resultId(index),
    title: result.title,
    site: URL.parse(result.url)?.hostname ?? result.url,
    snippet: result.snippet.slice(0, MAX_SNIPPET),
    ...(result.date ? { date: result.date.slice(0, 10) } : {}),
  }))
  const readWithoutEvidence = results.flatMap((result, index) => (read.has(result) ? [resultId(index)] : []))
  return (
    (queries.length === 0
      ? 'Write the first query to search for "claim".\n'
      : 'Pick the results worth reading for "claim", or ask for the next search.\n') +
    dataBlock({
      claim: item.claim,
      queries,
      searchesLeft,
      results: found,
      ...(readWithoutEvidence.length > 0 ? { readWithoutEvidence } : {}),
    })
  )
}

const resultId = (index: number): string => `R${index + 1}`

/// What the loop did: the queries searched, the tokens its steps cost, and its fallbacks (the top results read
/// where the model named none it could be read as picking).
export interface Searched {
  queries: string[]
  usage: TokenUsage | null
  fallbacks: Fallback[]
}

/// A structured answer, or null when the model gave none that follows the schema even when asked again: the
/// caller falls back.
export const unlessUnusable = <T>(answer: Promise<T>): Promise<T | null> =>
  answer.catch((error: unknown) => {
    if (error instanceof UnusableAnswerError) return null
    throw error
  })

/// Searches as the model asks, its first query included, until it picks results to read; `evidence` reads them
/// and says whether they hold anything that bears on the claim. While they do not and searches are left, the
/// model, told which results it read in vain, searches again (or picks others). One model request per step
/// (two when an answer is asked for again). A step that names nothing it can be read as meaning, asked again,
/// falls back: the first query is the claim's statement, a pick the top results not yet read.
export async function searchUntilAnswered(
  client: ModelClient,
  handle: ModelHandle,
  web: Web,
  item: Pick<ClaimData, 'claim'>,
  options: {
    maxSearches: number
    today: string | null
    signal: AbortSignal
    evidence: (chosen: SearchResult[]) => Promise<boolean>
  },
): Promise<Searched> {
  const queries: string[] = []
  const results: SearchResult[] = []
  const read = new Set<SearchResult>()
  const fallbacks: Fallback[] = []
  let usage: TokenUsage | null = null
  const search = async (query: string) => {
    queries.push(query)
    for (const result of await web.search(query, RESULTS_PER_SEARCH, options.signal)) {
      if (!results.some((known) => known.url === result.url)) results.push(result)
    }
  }
  for (;;) {
    const searchesLeft = options.maxSearches - queries.length
    const unread = results.filter((result) => !read.has(result))
    // What the model was shown of each result: a reference by its words is to these.
    const shown = results.map((result) => `${result.title} ${result.snippet}`)
    const newQuery = (step: SearchStep): string => {
      const query = normaliseSpace(step.nextQuery ?? '').slice(0, MAX_QUERY)
      return searchesLeft > 0 && !queries.includes(query) ? query : ''
    }
    const picks = (step: SearchStep): SearchResult[] =>
      referredIndices(step.read, shown)
        .map((index) => results[index] as SearchResult)
        .filter((result) => !read.has(result))
        .slice(0, PAGES)
    // What leaves the step with nothing to do, in words the model can act on.
    const check = (step: SearchStep): string | null => {
      if (newQuery(step) || picks(step).length > 0) return null
      if (queries.length === 0) return 'write the first search query in "nextQuery"'
      if (results.length > 0 && step.read.length > 0 && referredIndices(step.read, shown).length === 0)
        return unreadReferences('results', 'R', results.length)
      const query = 'a query not searched yet in "nextQuery"'
      const ids = unread.map((result) => resultId(results.indexOf(result))).join(', ')
      if (unread.length > 0)
        return `name the results worth reading in "read" (${ids})${searchesLeft > 0 ? `, or ${query}` : ''}`
      const found =
        results.length === 0 ? 'the searches found nothing' : 'the results read hold nothing on the claim'
      return searchesLeft > 0 ? `${found}: write ${query}` : null
    }
    const answer = await unlessUnusable(
      client.generate(handle, {
        system: searchSystem(options.today),
        prompt: searchPrompt(item, queries, results, read, searchesLeft),
        schema: SearchStep,
        name: 'search_step',
        signal: options.signal,
        check,
      }),
    )
    usage = addUsage(usage, answer?.usage ?? null)
    const step = answer?.problem === null ? answer.object : null
    const query = step ? newQuery(step) : ''
    if (query) {
      await search(query)
      continue
    }
    if (queries.length === 0) {
      await search(normaliseSpace(item.claim).slice(0, MAX_QUERY))
      continue
    }
    let chosen = step ? picks(step) : []
    if (chosen.length === 0 && step === null) {
      chosen = unread.slice(0, PAGES)
      if (chosen.length > 0) fallbacks.push('search_top_results')
    }
    if (chosen.length === 0 || (await options.evidence(chosen))) break
    for (const result of chosen) read.add(result)
    if (options.maxSearches - queries.length <= 0) break
  }
  return { queries, usage, fallbacks: [...new Set(fallbacks)] }
}

// t3's search loop (after FIRE, Xie et al. 2024): search, let the model read the results' titles and snippets,
// and either stop (these results are worth reading) or search again with the query it asks for, at most
// `research.maxSearches` searches per claim. Pages are fetched afterwards, and only those the model picked:
// snippets are cheap, pages are not, and most claims are settled by the first search.
import { z } from 'zod'
import type { TokenUsage } from '../../../../shared/schemas'
import { addUsage, type ModelClient, type ModelHandle } from '../../models'
import { normaliseSpace, type SearchResult, type Web } from '../../web'
import { dataBlock, type ClaimData } from '../t2/prompts'
import { DATA_RULE } from './prompts'

/// Results asked of the search provider per search, and pages read at most per claim.
const RESULTS_PER_SEARCH = 5
const PAGES = 4
const MAX_QUERY = 300
/// Characters of a snippet shown (some providers send a page's whole extract as its snippet).
const MAX_SNIPPET = 400

/// The model's step after reading the results so far: its reasoning first, then which results to read and
/// whether to search again.
export const SearchStep = z.object({
  reasoning: z
    .string()
    .describe('one or two sentences: what the results so far show about the claim, and what is missing'),
  read: z
    .array(z.string())
    .describe('the ids of the results whose pages are worth reading to settle the claim, most useful first'),
  nextQuery: z
    .string()
    .nullable()
    .describe('a new search query for what is still missing; null when the chosen results suffice'),
})
export type SearchStep = z.infer<typeof SearchStep>

export const SEARCH_SYSTEM = [
  'You research a claim on the web for a fact-checking panel. You see the search results found so far (title, ' +
    'address and snippet, no page text). Pick the results whose pages are worth reading to confirm or ' +
    'contradict the claim. If they cannot settle it, ask for one more search with a query for what is missing ' +
    '(not a repeat of an earlier query); if they can, or no searches are left, set nextQuery to null.',
  DATA_RULE,
  'Reply with only the JSON object the response format describes.',
].join('\n\n')

export function searchPrompt(
  item: ClaimData,
  queries: readonly string[],
  results: readonly SearchResult[],
  searchesLeft: number,
  today: string,
): string {
  const found = results.map((result, index) => ({
    id: `R${index + 1}`,
    title: result.title,
    url: result.url,
    snippet: result.snippet.slice(0, MAX_SNIPPET),
  }))
  return (
    'Pick the results worth reading for "claim", or ask for the next search.\n' +
    dataBlock({ ...item, today, queries, searchesLeft, results: found })
  )
}

/// What the loop found: the queries searched, the results the model chose to read (at most PAGES), and the
/// tokens its reading cost.
export interface Searched {
  queries: string[]
  chosen: SearchResult[]
  usage: TokenUsage | null
}

/// Searches for `searchFor` (the text the claim is checked as), then as the model reading the results asks,
/// until it stops or `maxSearches` searches are done. One model request per search.
export async function searchUntilAnswered(
  client: ModelClient,
  handle: ModelHandle,
  web: Web,
  item: ClaimData,
  searchFor: string,
  options: { maxSearches: number; today: string; signal: AbortSignal },
): Promise<Searched> {
  const queries: string[] = []
  const results: SearchResult[] = []
  let usage: TokenUsage | null = null
  let chosen: SearchResult[] = []
  for (let query = normaliseSpace(searchFor).slice(0, MAX_QUERY); query;) {
    queries.push(query)
    for (const result of await web.search(query, RESULTS_PER_SEARCH, options.signal)) {
      if (!results.some((known) => known.url === result.url)) results.push(result)
    }
    const searchesLeft = options.maxSearches - queries.length
    const step = await client.generate(handle, {
      system: SEARCH_SYSTEM,
      prompt: searchPrompt(item, queries, results, searchesLeft, options.today),
      schema: SearchStep,
      name: 'search_step',
      signal: options.signal,
    })
    usage = addUsage(usage, step.usage)
    chosen = pickedResults(results, step.object.read).slice(0, PAGES)
    const next = normaliseSpace(step.object.nextQuery ?? '').slice(0, MAX_QUERY)
    query = searchesLeft > 0 && !queries.includes(next) ? next : ''
  }
  return { queries, chosen, usage }
}

/// The results a model names by id ("R2", "r2", "2" or "[R2]"), in its order and each once; unknown ids are
/// ignored.
export function pickedResults(results: readonly SearchResult[], ids: readonly string[]): SearchResult[] {
  const picked: SearchResult[] = []
  for (const id of ids) {
    const result = results[Number(/^\s*\[?\s*R?\s*(\d+)\s*\]?\s*$/i.exec(id)?.[1] ?? NaN) - 1]
    if (result && !picked.includes(result)) picked.push(result)
  }
  return picked
}

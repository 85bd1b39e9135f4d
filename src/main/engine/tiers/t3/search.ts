// t3's search loop (after FIRE, Xie et al. 2024): search, let the model read the results' titles and snippets,
// and either stop (these results are worth reading) or search again with the query it asks for, at most
// `research.maxSearches` searches per claim. Pages are fetched afterwards, and only those the model picked:
// snippets are cheap, pages are not, and most claims are settled by the first search.
import { z } from 'zod'
import type { TokenUsage } from '../../../../shared/schemas'
import { addUsage, type ModelClient, type ModelHandle } from '../../models'
import { normaliseSpace, type SearchResult, type Web } from '../../web'
import { dataBlock, type ClaimData } from '../t2/prompts'
import { DATA_RULE, webDateRule } from './prompts'

/// Results asked of the search provider per search, and pages read at most per claim.
const RESULTS_PER_SEARCH = 5
const PAGES = 4
const MAX_QUERY = 300
/// Characters of a snippet shown: a search engine's snippet is about this long; some providers send a page's
/// whole extract as its snippet, which the pages read later give in full.
const MAX_SNIPPET = 240

/// The model's step after reading the results so far: its reasoning first, then which results to read and
/// whether to search again.
/// No descriptions: the system prompt says what each member is.
export const SearchStep = z.object({
  reasoning: z.string(),
  read: z.array(z.string()),
  nextQuery: z.string().nullable(),
})
export type SearchStep = z.infer<typeof SearchStep>

function searchSystem(today: string | null): string {
  return [
    'You research a claim on the web for a fact-checking panel, from the search results so far (title, ' +
      'site, snippet). JSON: "reasoning" (at most two sentences: what they show, what is missing), "read" ' +
      '(the ids of the results worth reading to confirm or contradict the claim, most useful first), ' +
      '"nextQuery" (a new query for what is missing, no repeat; null when the results can settle it or no ' +
      'searches are left).',
    ...webDateRule(today),
    DATA_RULE,
  ].join('\n')
}

/// The request after each search: the statement (self-contained, so no context), the queries so far and
/// the results' titles, sites and snippets.
function searchPrompt(
  item: Pick<ClaimData, 'claim'>,
  queries: readonly string[],
  results: readonly SearchResult[],
  searchesLeft: number,
): string {
  const found = results.map((result, index) => ({
    id: `R${index + 1}`,
    title: result.title,
    site: URL.parse(result.url)?.hostname ?? result.url,
    snippet: result.snippet.slice(0, MAX_SNIPPET),
  }))
  return (
    'Pick the results worth reading for "claim", or ask for the next search.\n' +
    dataBlock({ claim: item.claim, queries, searchesLeft, results: found })
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
  item: Pick<ClaimData, 'claim'>,
  searchFor: string,
  options: { maxSearches: number; today: string | null; signal: AbortSignal },
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
      system: searchSystem(options.today),
      prompt: searchPrompt(item, queries, results, searchesLeft),
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
function pickedResults(results: readonly SearchResult[], ids: readonly string[]): SearchResult[] {
  const picked: SearchResult[] = []
  for (const id of ids) {
    const result = results[Number(/^\s*\[?\s*R?\s*(\d+)\s*\]?\s*$/i.exec(id)?.[1] ?? NaN) - 1]
    if (result && !picked.includes(result)) picked.push(result)
  }
  return picked
}

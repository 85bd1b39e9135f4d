import type { FakeWiki } from '../../../helpers/fakeWiki'

// What the deep-research tests look into, in the engine and in the browser: a claim on Canada's capital, and the
// two encyclopedia articles a search finds on it, Ottawa's confirming it and Toronto's on its past as a capital.

export const CLAIM = 'Ottawa is the capital of Canada.'
export const OTTAWA = [
  'Ottawa is the capital city of Canada. It is located in the southern portion of the province of Ontario.',
  'Ottawa was chosen as the capital by Queen Victoria in 1857.',
]
export const TORONTO = [
  'Toronto is the largest city in Canada and was the capital of the Province of Canada for several periods.',
]

/// The plan a model answers deep research's first step with: one query that finds Ottawa's article, one that
/// finds Toronto's.
export const CAPITAL_PLAN = {
  subQuestions: ['Which city is the capital of Canada?'],
  supportQueries: ['Ottawa capital'],
  contradictionQueries: ['Toronto capital'],
}

/// Serves both articles from `wiki`: a query naming Toronto finds Toronto's, any other Ottawa's.
export function serveCapitalArticles(wiki: FakeWiki): void {
  wiki.article('Ottawa', OTTAWA)
  wiki.article('Toronto', TORONTO)
  wiki.search = (query) => (query.includes('Toronto') ? [{ title: 'Toronto' }] : [{ title: 'Ottawa' }])
}

// t3: live web research. For each claim: search queries from a model, search, fetch, rank passages by their
// words, then the judge model picks from the best of them those that bear on the claim; each panel model votes
// on the claim and the chosen passages, citing the passages it relied on; the judge writes the consensus with
// citations. Every quote is checked against the fetched text of its URL before it is stored.
import type { Config } from '../../../../shared/config'
import type { Citation, Consensus, Evaluation, TokenUsage } from '../../../../shared/schemas'
import { apiKeys, type ApiKeys } from '../../keys'
import { addUsage, ModelClient, modelHandle, modelSettings, type ModelHandle } from '../../models'
import type { ClaimRecord } from '../../store/documents'
import { normaliseSpace, quoteOccursIn, Web, type RankedPassage } from '../../web'
import { claimData } from '../t2/context'
import { agreement, consensus } from '../t2'
import { PermanentError, type JudgeInput, type TierChecker, type UnitInput, type UnitOutcome } from '../tier'
import {
  QUERY_SYSTEM,
  Queries,
  RELEVANCE_SYSTEM,
  RelevantPassages,
  WEB_JUDGE_SYSTEM,
  WEB_PANEL_SYSTEM,
  WebDecision,
  WebVote,
  queryPrompt,
  relevancePrompt,
  webJudgePrompt,
  webVotePrompt,
  type CitedPassage,
  type PassageData,
} from './prompts'

export * from './prompts'

const MAX_RATIONALE = 2000
const MAX_REASONING = 4000
const MAX_QUOTE = 1000
/// Passages given to the panel, the candidates (ranked by their words) the judge chooses them from, and claims
/// whose research is kept in memory for their judge.
const PASSAGES = 8
const CANDIDATES = 16
const REMEMBERED = 500

/// What was found for one claim: the ranked passages the panel and the judge see, and the tokens the judge
/// spent finding them (its queries and its choice of evidence).
export interface ClaimEvidence {
  queries: string[]
  passages: RankedPassage[]
  usage: TokenUsage | null
}

/// The models' view of the passages: ids P1…, their page and text.
export const passageData = (passages: readonly RankedPassage[]): PassageData[] =>
  passages.map((passage, index) => ({
    id: `P${index + 1}`,
    url: passage.url,
    title: passage.title,
    text: passage.text,
  }))

/// The index of the passage a model names by its id ("P3", "p3", "3" or "[P3]" → 2), or NaN.
const passageIndex = (id: string): number =>
  Number(/^\s*\[?\s*P?\s*(\d+)\s*\]?\s*$/i.exec(id)?.[1] ?? NaN) - 1

/// The order of `count` passages with a model's choice first: the ids it named, in its order and each once
/// (ids of no passage are ignored), then the others in their own order.
export function chosenFirst(count: number, chosen: readonly string[]): number[] {
  const order: number[] = []
  for (const id of chosen) {
    const index = passageIndex(id)
    if (Number.isInteger(index) && index >= 0 && index < count && !order.includes(index)) order.push(index)
  }
  for (let index = 0; index < count; index++) if (!order.includes(index)) order.push(index)
  return order
}

/// Reorders passages ranked by their words so that those the model names as bearing on the claim come first:
/// lexical ranking finds candidates that share the claim's words, the model tells the ones about the same
/// thing from those about something else. One call; none for fewer than two passages.
export async function evidenceOrder(
  client: ModelClient,
  handle: ModelHandle,
  item: { claim: string },
  passages: ReadonlyArray<{ id: string; text: string }>,
  signal: AbortSignal,
): Promise<{ order: number[]; usage: TokenUsage | null }> {
  if (passages.length < 2) return { order: passages.map((_, index) => index), usage: null }
  const { object, usage } = await client.generate(handle, {
    system: RELEVANCE_SYSTEM,
    prompt: relevancePrompt(item, passages),
    schema: RelevantPassages,
    name: 'relevant_passages',
    signal,
  })
  return { order: chosenFirst(passages.length, object.passages), usage }
}

/// The model's citations that hold: the passage exists and its quote occurs (whitespace-normalised) in the
/// fetched text of the passage's URL. The others are dropped; duplicates once.
export async function verifiedCitations(
  web: Web,
  passages: readonly RankedPassage[],
  cited: readonly CitedPassage[],
  signal?: AbortSignal,
): Promise<Citation[]> {
  const out: Citation[] = []
  for (const citation of cited) {
    const passage = passages[passageIndex(citation.passage)]
    const quote = normaliseSpace(citation.quote)
    if (!passage || quote.length > MAX_QUOTE) continue
    let text: string
    try {
      text = (await web.source(passage.url, signal)).text
    } catch {
      continue
    }
    if (!quoteOccursIn(quote, text)) continue
    if (out.some((c) => c.url === passage.url && c.quote === quote)) continue
    out.push({
      url: passage.url,
      title: passage.title,
      quote,
      retrievedAt: passage.retrievedAt,
      publishedAt: null,
      stance: null,
    })
  }
  return out
}

/// A consensus that cites nothing cannot be supported or refuted by the web tier: it becomes unverifiable,
/// its agreement then the share of `votes` that said so.
export function groundedConsensus(
  decided: Consensus,
  citations: Citation[],
  votes: readonly Evaluation[],
): Consensus {
  if (citations.length > 0 || (decided.verdict !== 'supported' && decided.verdict !== 'refuted')) {
    return { ...decided, citations, sourced: citations.length > 0, sources: citedSites(citations) }
  }
  return {
    ...decided,
    verdict: 'unverifiable',
    agreement: agreement('unverifiable', votes),
    citations: [],
    correction: null,
    reasoning:
      `${decided.reasoning} (No quoted source could be verified, so the verdict is unverifiable.)`.slice(
        0,
        MAX_REASONING,
      ),
  }
}

/// The number of distinct sites (host names) among the citations.
export const citedSites = (citations: readonly Citation[]): number =>
  new Set(citations.map((citation) => URL.parse(citation.url)?.hostname ?? citation.url)).size

/// t3 from the configuration, or null when it lacks a panel or a judge. `web` is shared with deep research.
export function webTier(models: Config['models'], web: Web, keys: ApiKeys = apiKeys()): TierChecker | null {
  if (models.panel.length === 0 || models.judge === null) return null
  const client = new ModelClient(modelSettings(models))
  const panel = new Map<string, ModelHandle>(
    models.panel.map((config, index) => [config.id, modelHandle(config, `models.panel[${index}]`, keys)]),
  )
  const judge = modelHandle(models.judge, 'models.judge', keys)
  const evidence = new Map<string, Promise<ClaimEvidence>>()

  /// The claim's research, done once however many panel units ask (and again after a restart).
  function evidenceFor(input: UnitInput): Promise<ClaimEvidence> {
    const key = `${input.checkId}:${input.claim.id}`
    const known = evidence.get(key)
    if (known) return known
    const found = research(input.claim, input.documentText, input.signal)
    evidence.set(key, found)
    found.catch(() => evidence.delete(key))
    while (evidence.size > REMEMBERED) evidence.delete(evidence.keys().next().value as string)
    return found
  }

  async function research(
    claim: ClaimRecord,
    documentText: string,
    signal: AbortSignal,
  ): Promise<ClaimEvidence> {
    const item = claimData(documentText, claim)
    const { object, usage: queryUsage } = await client.generate(judge, {
      system: QUERY_SYSTEM,
      prompt: queryPrompt(item),
      schema: Queries,
      name: 'queries',
      signal,
    })
    const queries = object.queries
      .map((query) => normaliseSpace(query).slice(0, 300))
      .filter(Boolean)
      .slice(0, 3)
    if (queries.length === 0) queries.push(item.claim.slice(0, 300))
    const found = await web.research(item.claim, queries, { pagesPerQuery: 3, limit: CANDIDATES, signal })
    const chosen = await evidenceOrder(client, judge, item, passageData(found.passages), signal)
    return {
      queries,
      passages: chosen.order.slice(0, PASSAGES).map((index) => found.passages[index] as RankedPassage),
      usage: addUsage(queryUsage, chosen.usage),
    }
  }

  return {
    tier: 't3',
    models: () => [...panel.keys()],
    // Queries, searches, fetches, the choice of evidence and the vote, each with its retries.
    unitTimeoutMs: 3 * client.worstCaseMs() + 10 * web.fetcher.options.timeoutMs,

    async check(input: UnitInput): Promise<UnitOutcome> {
      const handle = panel.get(input.model)
      if (!handle) throw new PermanentError(`The panel model "${input.model}" is no longer configured.`)
      const { passages } = await evidenceFor(input)
      const item = claimData(input.documentText, input.claim)
      const { object, usage } = await client.generate(handle, {
        system: WEB_PANEL_SYSTEM,
        prompt: webVotePrompt(item, passageData(passages)),
        schema: WebVote,
        name: 'web_vote',
        signal: input.signal,
      })
      const citations = await verifiedCitations(web, passages, object.citations, input.signal)
      const evaluation: Evaluation = {
        tier: 't3',
        model: input.model,
        verdict: object.verdict,
        confidence: object.confidence,
        rationale: object.rationale.trim().slice(0, MAX_RATIONALE),
        citations,
        createdAt: input.now(),
        cached: false,
        usage,
        round: 1,
      }
      return { evaluation, consensus: null, issues: [] }
    },

    async judge(input: JudgeInput): Promise<UnitOutcome> {
      // The research's tokens count once, with the judge's decision (research done again after a restart is
      // spent again, and counted; what a run before the restart spent is not known).
      const { passages, usage: researchUsage } = await evidenceFor(input)
      const item = claimData(input.documentText, input.claim)
      const { object, usage } = await client.generate(judge, {
        system: WEB_JUDGE_SYSTEM,
        prompt: webJudgePrompt(item, passageData(passages), input.votes),
        schema: WebDecision,
        name: 'web_decision',
        signal: input.signal,
      })
      const citations = await verifiedCitations(web, passages, object.citations, input.signal)
      evidence.delete(`${input.checkId}:${input.claim.id}`)
      const decided = consensus(object, input.votes, input.now())
      return {
        consensus: groundedConsensus(decided, citations, input.votes),
        consensusUsage: addUsage(usage, researchUsage),
        issues: [],
      }
    },
  }
}

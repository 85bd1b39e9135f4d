// t3: live web research. For each claim: a search loop (search.ts) in which the judge model writes the query,
// reads results' snippets and picks the pages worth reading or asks for another search; the picked pages are
// fetched and their passages ranked by their words, then the judge keeps those that bear on the claim (none kept:
// the loop searches again while it may); each panel model votes on the claim and those passages with the best by
// words beside them, citing the passages it relied on. A panel that agrees and cites a common page decides; a
// split one debates one round, after which a clear majority decides, and the judge writes the consensus with
// citations of a tie or a wider split. Every quote is checked against the fetched text of its URL, then judged
// for its stance toward the claim (stance.ts), before it is stored. A reference to a passage is read however the
// model writes it (../references.ts); where none can be read, the step falls back and the consensus names the
// fallback.
import type { Config } from '../../../../shared/config'
import type { Citation, Consensus, Evaluation, Fallback, TokenUsage } from '../../../../shared/schemas'
import { apiKeys, type ApiKeys } from '../../base/keys'
import {
  addUsage,
  ModelClient,
  modelHandle,
  modelSettings,
  UnusableAnswerError,
  type ModelHandle,
} from '../../models'
import type { ClaimRecord } from '../../store/documents'
import {
  normaliseSpace,
  quoteOnPage,
  rankedPassages,
  Web,
  withheldNoted,
  type RankedPassage,
} from '../../web'
import { referredIndex, referredIndices, unreadReferences } from '../references'
import { claimData } from '../t2/context'
import { consensus } from '../t2'
import { PermanentError } from '../../base/errors'
import type { JudgeInput, TierChecker, UnitInput, UnitOutcome } from '../tier'
import { distinctCitations, withStances } from '../../../../shared/citations'
import { consistentDetail } from '../../../../shared/verdicts'
import {
  agreement,
  debateRound,
  finalVotes,
  juryConsensus,
  panelConsensus,
  split,
  unanimous,
  withoutJudge,
} from '../panel'
import { ALL_STEPS, answerOrder, todayOf, type VerdictSteps } from '../steps'
import {
  RelevantPassages,
  WebDecision,
  WebVote,
  relevancePrompt,
  relevanceSystem,
  webDebatePrompt,
  webJudgePrompt,
  webJudgeSystem,
  webPanelSystem,
  webVotePrompt,
  type CitedPassage,
  type PassageData,
} from './prompts'
import { searchUntilAnswered, unlessUnusable } from './search'
import { judgeStances, verifierFor, type Verifier } from './stance'

export * from './prompts'
export * from './search'
export * from './stance'

const MAX_RATIONALE = 2000
const MAX_REASONING = 4000
const MAX_QUOTE = 1000
/// Passages given to the panel, the best candidates by words among them whether the judge chose them or not,
/// the candidates (ranked by their words) the judge chooses from, and claims whose research is kept in memory
/// for their judge.
const PASSAGES = 8
const BY_WORDS = 2
const CANDIDATES = 16
const REMEMBERED = 500

/// What was found for one claim: the ranked passages the panel and the judge see, the tokens the judge spent
/// finding them (reading search results and its choice of evidence), and the steps of it that fell back. `web` is
/// the web under the check's source policy: the one quotes are checked against, and what the policy kept out of
/// the searches.
export interface ClaimEvidence {
  queries: string[]
  passages: RankedPassage[]
  usage: TokenUsage | null
  fallbacks: Fallback[]
  web: Web
}

/// The models' view of the passages: ids P1…, their page's site and title, its dates as days, their text.
export const passageData = (passages: readonly RankedPassage[]): PassageData[] =>
  passages.map((passage, index) => ({
    id: `P${index + 1}`,
    site: URL.parse(passage.url)?.hostname ?? passage.url,
    title: passage.title,
    // A deep research run saved before pages' dates were read has passages without one.
    ...(passage.publishedAt ? { publishedAt: passage.publishedAt.slice(0, 10) } : {}),
    retrievedAt: passage.retrievedAt.slice(0, 10),
    text: passage.text,
  }))

/// Of passages ranked by their words, those the model names as bearing on the claim (by id or by their words,
/// however it writes them), most decisive first: lexical ranking finds candidates that share the claim's words,
/// the model tells the ones about the same thing from those about something else. The others are left out,
/// never used to pad the evidence; naming none says none bears on the claim. One call, asked again once when
/// it names only what is none of them; after that (or with no usable answer) the passages keep their ranking
/// by words (`evidence_ranked_by_words`). No call for fewer than two passages (a single one is kept).
export async function relevantPassages(
  client: ModelClient,
  handle: ModelHandle,
  item: { claim: string },
  passages: ReadonlyArray<{ id: string; text: string }>,
  signal: AbortSignal,
  today: string | null,
): Promise<{ order: number[]; usage: TokenUsage | null; fallbacks: Fallback[] }> {
  const ranked = passages.map((_, index) => index)
  if (passages.length < 2) return { order: ranked, usage: null, fallbacks: [] }
  const texts = passages.map((passage) => passage.text)
  const answer = await unlessUnusable(
    client.generate(handle, {
      system: relevanceSystem(today),
      prompt: relevancePrompt(item, passages),
      schema: RelevantPassages,
      name: 'relevant_passages',
      signal,
      check: ({ passages: named }) =>
        named.length > 0 && referredIndices(named, texts).length === 0
          ? unreadReferences('passages', 'P', passages.length)
          : null,
    }),
  )
  if (answer?.problem !== null)
    return { order: ranked, usage: answer?.usage ?? null, fallbacks: ['evidence_ranked_by_words'] }
  return { order: referredIndices(answer.object.passages, texts), usage: answer.usage, fallbacks: [] }
}

/// The model's citations that hold: the quote is on the fetched page of the passage it names (however it names
/// it) or, naming none or another, of a passage that holds it, through typography (`quoteOnPage`); the citation
/// keeps the page's own words. The others are dropped; duplicates once.
export async function verifiedCitations(
  web: Web,
  passages: readonly RankedPassage[],
  cited: readonly CitedPassage[],
  signal?: AbortSignal,
): Promise<Citation[]> {
  const texts = passages.map((passage) => passage.text)
  const out: Citation[] = []
  for (const citation of cited) {
    if (normaliseSpace(citation.quote).length > MAX_QUOTE) continue
    const named = passages[referredIndex(citation.passage, texts) ?? -1]
    const holding = passages.find((passage) => quoteOnPage(citation.quote, passage.text) !== null)
    for (const passage of new Set([named, holding])) {
      if (!passage) continue
      let text: string
      try {
        text = (await web.source(passage.url, signal)).text
      } catch {
        continue
      }
      const quote = quoteOnPage(citation.quote, text)
      if (quote === null) continue
      if (!out.some((c) => c.url === passage.url && c.quote === quote))
        out.push({
          url: passage.url,
          title: passage.title,
          quote,
          retrievedAt: passage.retrievedAt,
          // A deep research run saved before pages' dates were read has passages without one.
          publishedAt: passage.publishedAt ?? null,
          stance: null,
          preferred: web.prefers(passage.url),
        })
      break
    }
  }
  return out
}

/// Why `decided` does not stand on its citations (judged for their stance), or null when it does: supported
/// needs a quote that supports the claim, refuted one that refutes it, misleading at least one verified quote.
/// A quote whose stance could not be checked (null) counts for the verdict: only a checked neutral takes a
/// quote's weight away.
function ungrounded(decided: Consensus, citations: readonly Citation[]): string | null {
  const bears = (stance: Citation['stance']) =>
    citations.some((citation) => citation.stance === stance || citation.stance === null)
  if (decided.verdict === 'supported' && !bears('supports')) return 'no verified quote supports the claim'
  if (decided.verdict === 'refuted' && !bears('refutes')) return 'no verified quote contradicts the claim'
  if (decided.verdict === 'misleading' && citations.length === 0)
    return 'no verified quote shows what it leaves out'
  return null
}

/// The consensus on its citations (`own`, stances judged), weighed with every quote judged for the claim
/// (`judged`: the votes' too). Quotes that support the claim beside quotes that contradict it make a supported
/// or refuted verdict misleading (the sources disagree), with both shown; otherwise a verdict its citations do
/// not bear out becomes unverifiable for want of evidence. A changed verdict's agreement is the share of
/// `votes` that gave it. Sourced, and its sources counted, by the citations that support or refute the claim
/// or were not stance-checked; labelled when any quote was not.
function groundedConsensus(
  decided: Consensus,
  own: readonly Citation[],
  judged: readonly Citation[],
  votes: readonly Evaluation[],
): Consensus {
  const supporting = judged.filter((citation) => citation.stance === 'supports')
  const refuting = judged.filter((citation) => citation.stance === 'refutes')
  const disagree = supporting.length > 0 && refuting.length > 0
  const citations = disagree ? distinctCitations([...own, ...supporting, ...refuting]) : [...own]
  const bearing = citations.filter((citation) => citation.stance !== 'neutral')
  const unchecked = [...own, ...judged].some((citation) => citation.stance === null)
  const grounded: Consensus = {
    ...decided,
    citations,
    sourced: bearing.length > 0,
    sources: citedSites(bearing),
    fallbacks: unchecked ? [...decided.fallbacks, 'quotes_not_stance_checked'] : decided.fallbacks,
  }
  if (disagree && (decided.verdict === 'supported' || decided.verdict === 'refuted')) {
    return {
      ...grounded,
      verdict: 'misleading',
      detail: 'missing_context',
      agreement: agreement('misleading', votes),
      reasoning:
        `${decided.reasoning} (Misleading: the sources disagree; quotes that support the claim and quotes that contradict it are both cited.)`.slice(
          0,
          MAX_REASONING,
        ),
    }
  }
  const why = ungrounded(decided, citations)
  if (why === null) return grounded
  return {
    ...grounded,
    verdict: 'unverifiable',
    detail: 'no_evidence',
    agreement: agreement('unverifiable', votes),
    correction: null,
    reasoning: `${decided.reasoning} (Unverifiable: ${why}.)`.slice(0, MAX_REASONING),
  }
}

/// `decided` naming the fallbacks of the research it rests on too.
const fellBack = (decided: Consensus, fallbacks: readonly Fallback[]): Consensus => ({
  ...decided,
  fallbacks: [...new Set([...decided.fallbacks, ...fallbacks])],
})

/// The number of distinct sites (host names) among the citations.
export const citedSites = (citations: readonly Citation[]): number =>
  new Set(citations.map((citation) => URL.parse(citation.url)?.hostname ?? citation.url)).size

/// Whether a panel that agrees also rests on common ground: every vote cites a verified quote, and one page is
/// cited by every vote. Only then does it decide without the judge.
function sharesACitation(votes: readonly Evaluation[]): boolean {
  const [first, ...others] = votes
  return (
    first !== undefined &&
    first.citations.some((citation) =>
      others.every((vote) => vote.citations.some((other) => other.url === citation.url)),
    )
  )
}

/// t3 from the configuration, or null when it lacks a panel or a judge. `web` is shared with deep research;
/// `steps` are all on but in the verification eval's ablations.
export function webTier(
  config: Pick<Config, 'models' | 'research'>,
  web: Web,
  keys: ApiKeys = apiKeys(),
  steps: Readonly<VerdictSteps> = ALL_STEPS,
): TierChecker | null {
  const { models } = config
  if (models.panel.length === 0 || models.judge === null) return null
  const client = new ModelClient(modelSettings(models))
  const panel = new Map<string, ModelHandle>(
    models.panel.map((model, index) => [model.id, modelHandle(model, `models.panel[${index}]`, keys)]),
  )
  const judge = modelHandle(models.judge, 'models.judge', keys)
  const verifier: Verifier = verifierFor(models, judge, keys)
  const evidence = new Map<string, Promise<ClaimEvidence>>()
  // The stance check, or (switched off) every quote left not checked.
  const stances: typeof judgeStances = steps.stanceCheck
    ? judgeStances
    : async (_client, _verifier, _web, _statement, citations) => ({ citations: [...citations], usage: null })

  /// The claim's research, done once however many panel units ask (and again after a restart).
  async function evidenceFor(input: UnitInput): Promise<ClaimEvidence> {
    const key = `${input.checkId}:${input.claim.id}`
    const known = evidence.get(key)
    if (known) return known
    // Remembered before anything is awaited, so that the other panel units find it.
    const found = web
      .forOrganization(input.organizationId, input.checkId)
      .then((within) =>
        research(input.claim, input.documentText, within, input.signal, todayOf(input.now(), steps)),
      )
    evidence.set(key, found)
    found.catch(() => evidence.delete(key))
    while (evidence.size > REMEMBERED) evidence.delete(evidence.keys().next().value as string)
    return found
  }

  /// Searches until the judge has the results worth reading, reads only those pages, and keeps the passages
  /// it says bear on the claim; searches again while none does and searches are left.
  async function research(
    claim: ClaimRecord,
    documentText: string,
    web: Web,
    signal: AbortSignal,
    today: string | null,
  ): Promise<ClaimEvidence> {
    const item = claimData(documentText, claim)
    let passages: RankedPassage[] = []
    let usage: TokenUsage | null = null
    const fallbacks: Fallback[] = []
    const searched = await searchUntilAnswered(client, judge, web, item, {
      maxSearches: steps.searchLoop ? config.research.maxSearches : 1,
      today,
      signal,
      evidence: async (chosen) => {
        const { sources } = await web.read(
          chosen.map((result) => result.url),
          signal,
        )
        // Ranked by the statement's words: the claim's words may be about another subject.
        const candidates = rankedPassages(item.claim, sources).slice(0, CANDIDATES)
        const kept = await relevantPassages(client, judge, item, passageData(candidates), signal, today)
        usage = addUsage(usage, kept.usage)
        fallbacks.push(...kept.fallbacks)
        // Beside the judge's choice, the best by words: one model's reading of the evidence is not all the panel
        // sees.
        const byWords = candidates
          .slice(0, BY_WORDS)
          .flatMap((_, index) => (kept.order.includes(index) ? [] : [index]))
        const order = [...kept.order.slice(0, PASSAGES - byWords.length), ...byWords]
        passages = order.map((index) => candidates[index] as RankedPassage)
        return kept.order.length > 0
      },
    })
    return {
      queries: searched.queries,
      passages,
      usage: addUsage(searched.usage, usage),
      fallbacks: [...new Set([...searched.fallbacks, ...fallbacks])],
      web,
    }
  }

  return {
    tier: 't3',
    models: () => [...panel.keys()],
    // The first query, the reading of each search's results, searches, fetches, a choice of evidence after each
    // search, the vote or decision and the stances, each with its retries.
    unitTimeoutMs:
      (2 * config.research.maxSearches + 4) * client.worstCaseMs() + 10 * web.fetcher.options.timeoutMs,

    async check(input: UnitInput): Promise<UnitOutcome> {
      const handle = panel.get(input.model)
      if (!handle) throw new PermanentError(`The panel model "${input.model}" is no longer configured.`)
      const { passages, web: underPolicy } = await evidenceFor(input)
      const item = claimData(input.documentText, input.claim)
      const { object, usage } = await client.generate(handle, {
        system: webPanelSystem(todayOf(input.now(), steps), item),
        prompt: webVotePrompt(item, passageData(passages)),
        schema: answerOrder(WebVote, steps),
        name: 'web_vote',
        signal: input.signal,
      })
      const citations = await verifiedCitations(underPolicy, passages, object.citations, input.signal)
      return {
        evaluation: webVote(input.model, object, citations, input.now(), usage, 1),
        consensus: null,
        issues: [],
      }
    },

    async judge(input: JudgeInput): Promise<UnitOutcome> {
      // The research's tokens count once, with the consensus (research done again after a restart is spent
      // again, and counted; what a run before the restart spent is not known).
      const { passages, usage: researchUsage, fallbacks, web: underPolicy } = await evidenceFor(input)
      const first = input.votes.filter((vote) => vote.round === 1)
      const item = claimData(input.documentText, input.claim)
      const today = todayOf(input.now(), steps)
      // The decision on its quotes (`own`): theirs and every vote's judged for their stance in one request.
      const grounded = async (
        decided: Consensus,
        own: readonly Citation[],
        votes: readonly Evaluation[],
        debate: readonly Evaluation[],
        usage: TokenUsage | null,
      ): Promise<UnitOutcome> => {
        const cited = [...own, ...[...first, ...debate].flatMap((vote) => vote.citations)]
        const judged = await stances(
          client,
          verifier,
          underPolicy,
          item.claim,
          distinctCitations(cited),
          today,
          input.signal,
        )
        evidence.delete(`${input.checkId}:${input.claim.id}`)
        return {
          consensus: withheldNoted(
            groundedConsensus(
              fellBack(decided, fallbacks),
              withStances(own, judged.citations),
              judged.citations,
              votes,
            ),
            underPolicy.withheld,
          ),
          consensusUsage: addUsage(usage, researchUsage, judged.usage),
          debate: debate.map((vote) => ({
            ...vote,
            citations: withStances(vote.citations, judged.citations),
          })),
          voteStances: judged.citations,
          issues: [],
        }
      }
      // The quotes of the votes that gave the decided verdict.
      const quotesOf = (votes: readonly Evaluation[], decided: Consensus): Citation[] =>
        distinctCitations(votes.flatMap((vote) => (vote.verdict === decided.verdict ? vote.citations : [])))
      if (steps.panelDecides && unanimous(first) && sharesACitation(first)) {
        const decided = panelConsensus(first, input.now())
        return grounded(decided, quotesOf(first, decided), first, [], null)
      }
      // A panelist's second vote, after reading the others' (a model no longer configured keeps its first).
      const voteAgain = async (own: Evaluation, others: Evaluation[]): Promise<Evaluation | null> => {
        const handle = panel.get(own.model)
        if (!handle) return null
        const { object, usage } = await client.generate(handle, {
          system: webPanelSystem(today, item),
          prompt: webDebatePrompt(item, passageData(passages), own, others),
          schema: answerOrder(WebVote, steps),
          name: 'web_vote',
          signal: input.signal,
        })
        const citations = await verifiedCitations(underPolicy, passages, object.citations, input.signal)
        return webVote(own.model, object, citations, input.now(), usage, 2)
      }
      const disagreed = split(first)
      const debate = steps.debate && disagreed ? await debateRound(first, voteAgain, input.signal) : []
      const votes = finalVotes(first, debate)
      // A panel that agreed at once but on no common page goes to the judge, as does a tie or a wider split.
      const jury = steps.panelDecides && disagreed ? juryConsensus(votes, input.now(), models.majority) : null
      if (jury) return grounded(jury, quotesOf(votes, jury), votes, debate, null)
      let decision
      try {
        decision = await client.generate(judge, {
          system: webJudgeSystem(today, item),
          prompt: webJudgePrompt(item, passageData(passages), votes),
          schema: answerOrder(WebDecision, steps),
          name: 'web_decision',
          signal: input.signal,
        })
      } catch (error) {
        // The judge's answer could not be used, even asked again: the votes' majority decides, labelled.
        const fallback = error instanceof UnusableAnswerError ? withoutJudge(votes, input.now()) : null
        if (!fallback) throw error
        return grounded(fallback, quotesOf(votes, fallback), votes, debate, null)
      }
      const { object, usage } = decision
      const verified = await verifiedCitations(underPolicy, passages, object.citations, input.signal)
      const decided = consensus(object, votes, input.now(), input.claim.text)
      return grounded(decided, verified, votes, debate, usage)
    },
  }
}

/// A panel model's vote as recorded: its verified citations, and its detail only where it fits the verdict.
function webVote(
  model: string,
  vote: WebVote,
  citations: Citation[],
  at: string,
  usage: TokenUsage | null,
  round: 1 | 2,
): Evaluation {
  return {
    tier: 't3',
    model,
    verdict: vote.verdict,
    detail: consistentDetail(vote.verdict, vote.detail),
    confidence: vote.confidence,
    rationale: vote.rationale.trim().slice(0, MAX_RATIONALE),
    citations,
    createdAt: at,
    cached: false,
    usage,
    round,
  }
}

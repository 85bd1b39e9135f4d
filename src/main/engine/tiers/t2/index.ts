// t2: a panel of language models votes on each claim; a panel that agrees decides, a split one debates one
// round, after which a clear majority decides and the judge writes the consensus of a tie or a wider split.
import type { Config } from '../../../../shared/config'
import { isRewrite, UNVERIFIED } from '../../../../shared/corrections'
import type { Consensus, Evaluation } from '../../../../shared/schemas'
import { ModelClient, modelHandle, modelSettings, UnusableAnswerError, type ModelHandle } from '../../models'
import { apiKeys, type ApiKeys } from '../../base/keys'
import type { ClaimRecord } from '../../store/documents'
import type { VoteCache } from '../../store/voteCache'
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
import { PermanentError } from '../../base/errors'
import type { JudgeInput, TierChecker, UnitInput, UnitOutcome } from '../tier'
import { VoteBatcher, type VoteAnswer } from './batcher'
import { checkedText, claimData, votedOn } from './context'
import { Decision, Vote, debateData, judgePrompt, judgeSystem, type ClaimData } from './prompts'

export { checkedText, claimData } from './context'
export * from './prompts'

/// How long a panel model's vote on a statement is reused.
const VOTE_CACHE_MS = 24 * 60 * 60 * 1000

const MAX_RATIONALE = 2000
const MAX_REASONING = 4000
/// Claims whose data is kept for their next units: a few batches' worth.
const MAX_ITEMS = 1000

/// t2 from the configuration, or null when it lacks a panel or a judge (submitting t2 is then refused with a
/// message on how to configure both). Keys are read from `keys` when a check needs them; `steps` are all on
/// but in the verification eval's ablations.
export function modelTier(
  models: Config['models'],
  cache: VoteCache,
  keys: ApiKeys = apiKeys(),
  steps: Readonly<VerdictSteps> = ALL_STEPS,
): TierChecker | null {
  if (models.panel.length === 0 || models.judge === null) return null
  const client = new ModelClient(modelSettings(models))
  const panel = new Map<string, ModelHandle>(
    models.panel.map((config, index) => [config.id, modelHandle(config, `models.panel[${index}]`, keys)]),
  )
  const judge = modelHandle(models.judge, 'models.judge', keys)
  const providers = new Set([...panel.values(), judge].map((handle) => handle.providerKey))
  const batcher = new VoteBatcher(
    client,
    models.batchSize ?? 1,
    models.batchWindowMs,
    answerOrder(Vote, steps),
  )
  let prunedAt = 0
  // A claim's data, found once for its panel units and its judge (segmenting its context is not cheap).
  const items = new Map<string, ClaimData>()
  const itemOf = ({ documentText, claim }: UnitInput): ClaimData => {
    const key = `${claim.id}\n${checkedText(claim)}`
    let item = items.get(key)
    if (!item) {
      if (items.size >= MAX_ITEMS) items.clear()
      item = claimData(documentText, claim)
      items.set(key, item)
    }
    return item
  }

  /// A panel model's votes on a unit's claims (a claim's parts), cached ones reused, the others asked at once.
  async function checkAll(input: UnitInput, claims: readonly ClaimRecord[]): Promise<UnitOutcome[]> {
    const handle = panel.get(input.model)
    if (!handle) throw new PermanentError(`The panel model "${input.model}" is no longer configured.`)
    const now = input.now()
    const since = new Date(Date.parse(now) - VOTE_CACHE_MS).toISOString()
    // Expired votes are forgotten, at most once an hour.
    if (Date.parse(now) - prunedAt > 60 * 60 * 1000) {
      await cache.prune(since)
      prunedAt = Date.parse(now)
    }
    // Keyed by the statement, or the words with their context: the same words about another subject are
    // another claim.
    const asChecked = claims.map((claim) => votedOn(input.documentText, claim))
    const hits = await Promise.all(
      asChecked.map((claim) => cache.get(input.organizationId, handle.cacheKey, claim, since)),
    )
    const asked = claims.filter((_, index) => !hits[index])
    const answers = await batcher.votes(
      handle,
      input.checkId,
      asked.map((claim) => itemOf({ ...input, claim })),
      input.signal,
      todayOf(now, steps),
    )
    const at = input.now()
    let next = 0
    return asChecked.map((claim, index) => {
      const hit = hits[index]
      if (hit) {
        const vote = {
          verdict: hit.verdict,
          detail: hit.detail,
          confidence: hit.confidence,
          rationale: hit.rationale,
        }
        return voteOutcome(input.model, vote, now, true, { inputTokens: 0, outputTokens: 0 })
      }
      const { vote, usage } = answers[next++] as VoteAnswer
      const rationale = vote.rationale.trim().slice(0, MAX_RATIONALE)
      cache.put(input.organizationId, handle.cacheKey, claim, {
        ...vote,
        rationale,
        createdAt: at,
      })
      return voteOutcome(input.model, { ...vote, rationale }, at, false, usage)
    })
  }

  /// The judge's consensus on the final votes. An answer it could not give usably, even asked again, leaves the
  /// decision to the votes' majority (labelled); without one the error stands and the unit fails.
  async function askJudge(
    votes: Evaluation[],
    item: ClaimData,
    today: string | null,
    input: JudgeInput,
  ): Promise<Pick<UnitOutcome, 'consensus' | 'consensusUsage'>> {
    try {
      const { object, usage } = await client.generate(judge, {
        system: judgeSystem(today, item),
        prompt: judgePrompt(item, votes),
        schema: answerOrder(Decision, steps),
        name: 'decision',
        signal: input.signal,
      })
      return { consensus: consensus(object, votes, input.now(), input.claim.text), consensusUsage: usage }
    } catch (error) {
      const fallback = error instanceof UnusableAnswerError ? withoutJudge(votes, input.now()) : null
      if (!fallback) throw error
      return { consensus: fallback, consensusUsage: null }
    }
  }

  return {
    tier: 't2',
    models: () => [...panel.keys()],
    // One attempt may include every retry of its request; the runner's default would cut them short.
    unitTimeoutMs: client.worstCaseMs() + 30_000,
    // Every request slot of its providers busy, and as many units again ready to take a slot the moment one
    // frees: a unit also spends time before its request (its claim's statement, the prompt) and after it (the
    // write), holding a runner slot. Batches fill only if a batch's worth of each model's units run at once.
    concurrency:
      batcher.batchSize * Math.max(panel.size, 2 * client.settings.concurrencyPerProvider * providers.size),

    async check(input: UnitInput): Promise<UnitOutcome> {
      const [outcome] = await checkAll(input, [input.claim])
      return outcome as UnitOutcome
    },

    checkAll,

    async judge(input: JudgeInput): Promise<UnitOutcome> {
      const first = input.votes.filter((vote) => vote.round === 1)
      if (steps.panelDecides && unanimous(first))
        return { consensus: panelConsensus(first, input.now()), consensusUsage: null, issues: [] }
      const item = itemOf(input)
      const today = todayOf(input.now(), steps)
      // A panelist's second vote, after reading the others' (a model no longer configured keeps its first).
      const voteAgain = async (own: Evaluation, others: Evaluation[]): Promise<Evaluation | null> => {
        const handle = panel.get(own.model)
        if (!handle) return null
        const question = { ...item, ...debateData(own, others) }
        const { vote: object, usage } = await batcher.vote(
          handle,
          input.checkId,
          question,
          input.signal,
          today,
        )
        const vote = { ...object, rationale: object.rationale.trim().slice(0, MAX_RATIONALE) }
        return { ...voteOutcome(own.model, vote, input.now(), false, usage).evaluation, round: 2 }
      }
      const debate = steps.debate && split(first) ? await debateRound(first, voteAgain, input.signal) : []
      const votes = finalVotes(first, debate)
      const jury = steps.panelDecides ? juryConsensus(votes, input.now(), models.majority) : null
      if (jury) return { consensus: jury, consensusUsage: null, debate, issues: [] }
      const decided = await askJudge(votes, item, today, input)
      return { ...decided, debate, issues: [] }
    },
  }
}

/// A panel model's vote as recorded (round 1; a debate's second vote sets round 2), its detail kept only where
/// it fits the verdict.
function voteOutcome(
  model: string,
  vote: Vote,
  at: string,
  cached: boolean,
  usage: Evaluation['usage'],
): UnitOutcome & { evaluation: Evaluation } {
  const detail = consistentDetail(vote.verdict, vote.detail)
  return {
    evaluation: { tier: 't2', model, ...vote, detail, citations: [], createdAt: at, cached, usage, round: 1 },
    consensus: null,
    issues: [],
  }
}

/// The consensus from the judge's decision. Agreement is the share of the final votes (failed panel models cast
/// none) equal to the judge's verdict; a correction is kept only for refuted or misleading claims, and only when
/// it rewrites the claim's words, marked as unverified.
export function consensus(
  decision: Decision,
  votes: readonly Evaluation[],
  at: string,
  claim: string,
): Consensus {
  const suggestion = decision.correction?.trim()
  const corrects = decision.verdict === 'refuted' || decision.verdict === 'misleading'
  return {
    verdict: decision.verdict,
    confidence: decision.confidence,
    agreement: agreement(decision.verdict, votes),
    reasoning: decision.reasoning.trim().slice(0, MAX_REASONING),
    citations: [],
    // A correction replaces the writer's words: one that is no rewrite of them ("The claim is inaccurate") is none.
    correction: corrects && suggestion && isRewrite(claim, suggestion) ? UNVERIFIED + suggestion : null,
    decidedAt: at,
    detail: consistentDetail(decision.verdict, decision.detail),
    sourced: false,
    sources: 0,
    decidedBy: 'judge',
    calibratedConfidence: null,
    fallbacks: [],
  }
}

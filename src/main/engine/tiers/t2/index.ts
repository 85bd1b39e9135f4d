// t2: a panel of language models votes on each claim, then a judge writes the consensus.
import type { Config } from '../../../../shared/config'
import { UNVERIFIED } from '../../../../shared/corrections'
import type { Consensus, Evaluation, Verdict } from '../../../../shared/schemas'
import { ModelClient, modelHandle, modelSettings, type ModelHandle } from '../../models'
import { apiKeys, type ApiKeys } from '../../keys'
import type { VoteCache } from '../../store/voteCache'
import { PermanentError, type JudgeInput, type TierChecker, type UnitInput, type UnitOutcome } from '../tier'
import { VoteBatcher } from './batcher'
import { checkedText, claimData } from './context'
import { Decision, JUDGE_SYSTEM, judgePrompt } from './prompts'

export { checkedText, claimData } from './context'
export * from './prompts'

/// How long a panel model's vote on a statement is reused.
export const VOTE_CACHE_MS = 24 * 60 * 60 * 1000

const MAX_RATIONALE = 2000
const MAX_REASONING = 4000

/// t2 from the configuration, or null when it lacks a panel or a judge (submitting t2 is then refused with a
/// message on how to configure both). Keys are read from `keys` when a check needs them.
export function modelTier(
  models: Config['models'],
  cache: VoteCache,
  keys: ApiKeys = apiKeys(),
): TierChecker | null {
  if (models.panel.length === 0 || models.judge === null) return null
  const client = new ModelClient(modelSettings(models))
  const panel = new Map<string, ModelHandle>(
    models.panel.map((config, index) => [config.id, modelHandle(config, `models.panel[${index}]`, keys)]),
  )
  const judge = modelHandle(models.judge, 'models.judge', keys)
  const batcher = new VoteBatcher(client, models.batchSize ?? 1, models.batchWindowMs)
  let prunedAt = 0

  return {
    tier: 't2',
    models: () => [...panel.keys()],
    // One attempt may include every retry of its request; the runner's default would cut them short.
    unitTimeoutMs: client.worstCaseMs() + 30_000,
    // Batches fill only if a batch's worth of each model's units run at once.
    concurrency: batcher.batchSize > 1 ? batcher.batchSize * panel.size : undefined,

    async check(input: UnitInput): Promise<UnitOutcome> {
      const handle = panel.get(input.model)
      if (!handle) throw new PermanentError(`The panel model "${input.model}" is no longer configured.`)
      const now = input.now()
      const since = new Date(Date.parse(now) - VOTE_CACHE_MS).toISOString()
      // Expired votes are forgotten, at most once an hour.
      if (Date.parse(now) - prunedAt > 60 * 60 * 1000) {
        cache.prune(since)
        prunedAt = Date.parse(now)
      }
      // Keyed by the statement: the same words about another subject are another claim.
      const hit = cache.get(input.organizationId, handle.cacheKey, checkedText(input.claim), since)
      if (hit) {
        const vote = { verdict: hit.verdict, confidence: hit.confidence, rationale: hit.rationale }
        return voteOutcome(input.model, vote, now, true, { inputTokens: 0, outputTokens: 0 })
      }
      const item = claimData(input.documentText, input.claim)
      const { vote, usage } = await batcher.vote(handle, input.checkId, item, input.signal)
      const at = input.now()
      const rationale = vote.rationale.trim().slice(0, MAX_RATIONALE)
      cache.put(input.organizationId, handle.cacheKey, checkedText(input.claim), {
        ...vote,
        rationale,
        createdAt: at,
      })
      return voteOutcome(input.model, { ...vote, rationale }, at, false, usage)
    },

    async judge(input: JudgeInput): Promise<UnitOutcome> {
      const item = claimData(input.documentText, input.claim)
      const { object, usage } = await client.generate(judge, {
        system: JUDGE_SYSTEM,
        prompt: judgePrompt(item, input.votes),
        schema: Decision,
        name: 'decision',
        signal: input.signal,
      })
      return { consensus: consensus(object, input.votes, input.now()), consensusUsage: usage, issues: [] }
    },
  }
}

function voteOutcome(
  model: string,
  vote: { verdict: Verdict; confidence: number; rationale: string },
  at: string,
  cached: boolean,
  usage: Evaluation['usage'],
): UnitOutcome {
  return {
    evaluation: { tier: 't2', model, ...vote, citations: [], createdAt: at, cached, usage, round: 1 },
    consensus: null,
    issues: [],
  }
}

/// The consensus from the judge's decision. Agreement is the share of the votes cast (failed panel models cast
/// none) equal to the judge's verdict; a correction is kept only for refuted or misleading claims, marked as
/// unverified.
/// The share of the votes that gave `verdict`, to two decimals (0 without votes).
export function agreement(verdict: Verdict, votes: readonly Evaluation[]): number {
  const agreeing = votes.filter((vote) => vote.verdict === verdict).length
  return votes.length === 0 ? 0 : Math.round((agreeing / votes.length) * 100) / 100
}

export function consensus(decision: Decision, votes: readonly Evaluation[], at: string): Consensus {
  const suggestion = decision.correction?.trim()
  const corrects = decision.verdict === 'refuted' || decision.verdict === 'misleading'
  return {
    verdict: decision.verdict,
    confidence: decision.confidence,
    agreement: agreement(decision.verdict, votes),
    reasoning: decision.reasoning.trim().slice(0, MAX_REASONING),
    citations: [],
    correction: corrects && suggestion ? UNVERIFIED + suggestion : null,
    decidedAt: at,
    detail: null,
    sourced: false,
    sources: 0,
    decidedBy: 'judge',
  }
}

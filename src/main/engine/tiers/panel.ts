// What t2 and t3 share after the panel has voted (PoLL, and multi-agent debate after Du et al.): a unanimous
// panel decides without the judge; a split one debates one round (each panelist reads the others' anonymised
// reasons and votes again) before the judge decides on the final votes.
import type { Consensus, Evaluation, VerdictDetail } from '../../../shared/schemas'
import { consistentDetail } from '../../../shared/verdicts'

const MAX_REASONING = 4000

/// Whether the panel agrees: at least two votes cast (one model is no panel), every one the same verdict.
export function unanimous(votes: readonly Evaluation[]): boolean {
  const [first] = votes
  return votes.length > 1 && votes.every((vote) => vote.verdict === first?.verdict)
}

/// Whether the votes disagree: two verdicts or more among them. A split panel debates.
export const split = (votes: readonly Evaluation[]): boolean =>
  votes.some((vote) => vote.verdict !== votes[0]?.verdict)

/// The share of the votes that gave `verdict`, to two decimals (0 without votes).
export function agreement(verdict: Evaluation['verdict'], votes: readonly Evaluation[]): number {
  const agreeing = votes.filter((vote) => vote.verdict === verdict).length
  return votes.length === 0 ? 0 : Math.round((agreeing / votes.length) * 100) / 100
}

/// The detail most of the votes give that fits `verdict` (the first such among equals), or null.
function commonDetail(verdict: Evaluation['verdict'], votes: readonly Evaluation[]): VerdictDetail | null {
  const counts = new Map<VerdictDetail, number>()
  for (const vote of votes) {
    const detail = consistentDetail(verdict, vote.detail)
    if (detail) counts.set(detail, (counts.get(detail) ?? 0) + 1)
  }
  return [...counts].reduce<[VerdictDetail | null, number]>(
    (best, each) => (each[1] > best[1] ? each : best),
    [null, 0],
  )[0]
}

/// A unanimous panel's own decision: its verdict, the mean of its confidences and its reasons, one panelist's
/// after another. No correction: votes do not write one, and a refuted claim's rationales name the facts.
export function panelConsensus(votes: readonly Evaluation[], at: string): Consensus {
  const verdict = votes[0]?.verdict ?? 'unverifiable'
  const mean = votes.reduce((sum, vote) => sum + vote.confidence, 0) / Math.max(1, votes.length)
  const reasons = votes.map((vote) => vote.rationale.trim()).filter(Boolean)
  return {
    verdict,
    confidence: Math.round(mean * 100) / 100,
    agreement: agreement(verdict, votes),
    reasoning: `The ${votes.length} panelists agreed. ${[...new Set(reasons)].join(' ')}`.slice(
      0,
      MAX_REASONING,
    ),
    citations: [],
    correction: null,
    decidedAt: at,
    detail: commonDetail(verdict, votes),
    sourced: false,
    sources: 0,
    decidedBy: 'panel',
    calibratedConfidence: null,
    fallbacks: [],
  }
}

/// One debate round: every panelist who voted is asked again with its own vote and the others'. A panelist
/// whose second request fails keeps its first vote (its answer is `null`); an abort ends the round.
export async function debateRound(
  votes: readonly Evaluation[],
  voteAgain: (own: Evaluation, others: Evaluation[]) => Promise<Evaluation | null>,
  signal: AbortSignal,
): Promise<Evaluation[]> {
  const answers = await Promise.allSettled(
    votes.map((own) =>
      voteAgain(
        own,
        votes.filter((other) => other !== own),
      ),
    ),
  )
  signal.throwIfAborted()
  return answers.flatMap((answer) => (answer.status === 'fulfilled' && answer.value ? [answer.value] : []))
}

/// The panel's final votes: each panelist's second vote where it cast one, else its first.
export function finalVotes(first: readonly Evaluation[], second: readonly Evaluation[]): Evaluation[] {
  return first.map((vote) => second.find((again) => again.model === vote.model) ?? vote)
}

// What t2 and t3 share after the panel has voted (PoLL, and multi-agent debate after Du et al.): a unanimous
// panel decides without the judge; a split one debates one round (each panelist reads the others' anonymised
// reasons and votes again), after which a clear majority of its final votes decides; the judge decides only
// ties and wider splits. One model is no jury: the judge always decides a lone vote.
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
  const debated = votes.some((vote) => vote.round === 2)
  return decidedByVotes(
    votes,
    votes[0]?.verdict ?? 'unverifiable',
    at,
    'panel',
    `The ${votes.length} panelists agreed${debated ? ' after their debate' : ''}.`,
  )
}

/// The verdict given by a clear majority of `votes`: at least two of them, more than half, and at least
/// `share` of them; null when no verdict has one.
export function majority(votes: readonly Evaluation[], share = 0): Evaluation['verdict'] | null {
  for (const { verdict } of votes) {
    const count = votes.filter((vote) => vote.verdict === verdict).length
    // A share such as 2/3 is compared as counts, so that 2 of 3 votes is 2/3 however it rounds.
    if (count >= 2 && count * 2 > votes.length && count >= share * votes.length - 1e-9) return verdict
  }
  return null
}

/// A clear majority's decision: its verdict, the mean of its confidences and its reasons, and the dissent's
/// reasons after them. No correction, as for a unanimous panel. `why` opens the reasoning when it was not the
/// rule that let the majority decide (the judge's answer could not be used).
export function majorityConsensus(
  votes: readonly Evaluation[],
  verdict: Evaluation['verdict'],
  at: string,
  why = '',
): Consensus {
  const agreeing = votes.filter((vote) => vote.verdict === verdict)
  const dissent = votes.filter((vote) => vote.verdict !== verdict)
  const dissenting = [...new Set(dissent.map((vote) => `(${vote.verdict}) ${vote.rationale.trim()}`))]
  return decidedByVotes(
    agreeing,
    verdict,
    at,
    'majority',
    `${why}${agreeing.length} of the ${votes.length} panelists found it ${verdict}.`,
    dissenting.length > 0 ? ` Dissent: ${dissenting.join(' ')}` : '',
    votes,
  )
}

/// The panel's decision after its debate, without the judge: unanimous final votes, else a clear majority
/// (at least `share` of them); null when the judge must decide (a tie, a wider split, a lone vote).
export function juryConsensus(votes: readonly Evaluation[], at: string, share: number): Consensus | null {
  if (unanimous(votes)) return panelConsensus(votes, at)
  const verdict = majority(votes, share)
  return verdict === null ? null : majorityConsensus(votes, verdict, at)
}

/// The decision when the judge was asked and its answer could not be used, even asked again: the final votes'
/// majority (more than half of them, at least two), labelled; null when they have none and nothing decides.
export function withoutJudge(votes: readonly Evaluation[], at: string): Consensus | null {
  const verdict = majority(votes)
  if (verdict === null) return null
  const decided = majorityConsensus(votes, verdict, at, 'The judge’s answer could not be used. ')
  return { ...decided, fallbacks: ['judge_unusable'] }
}

/// A decision of the panel's own, from the votes that give `verdict` (agreement counted over `all`).
function decidedByVotes(
  votes: readonly Evaluation[],
  verdict: Evaluation['verdict'],
  at: string,
  decidedBy: 'panel' | 'majority',
  opening: string,
  closing = '',
  all: readonly Evaluation[] = votes,
): Consensus {
  const mean = votes.reduce((sum, vote) => sum + vote.confidence, 0) / Math.max(1, votes.length)
  const reasons = [...new Set(votes.map((vote) => vote.rationale.trim()).filter(Boolean))]
  return {
    verdict,
    confidence: Math.round(mean * 100) / 100,
    agreement: agreement(verdict, all),
    reasoning: `${opening} ${reasons.join(' ')}${closing}`.slice(0, MAX_REASONING),
    citations: [],
    correction: null,
    decidedAt: at,
    detail: commonDetail(verdict, votes),
    sourced: false,
    sources: 0,
    decidedBy,
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

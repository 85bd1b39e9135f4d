// A model tier on resolved claims: each unit checks the claim's statement, and a claim that states several facts
// is checked part by part (each part a claim of its own to the tier: its own votes, cache entries, research and
// decision), its verdict aggregated from its parts'.
import type { Citation, Consensus, Evaluation, Verdict } from '../../../../shared/schemas'
import { distinctCitations } from '../../../../shared/citations'
import { addUsage } from '../../models'
import type { ClaimRecord } from '../../store/documents'
import { citedSites } from '../t3'
import type { JudgeInput, TierChecker, UnitOutcome } from '../tier'
import type { StatementResolver } from '.'

const MAX_RATIONALE = 2000
const MAX_REASONING = 4000

/// The claim's verdict from its parts' (in order), and the part it rests on:
/// - a refuted part makes the claim refuted, or misleading (partly true) when another part is supported;
/// - else a misleading part makes it misleading;
/// - else it is supported when every part is, and unverifiable when some part is (one fact unchecked leaves the
///   claim unchecked).
export function partsVerdict(verdicts: readonly Verdict[]): { verdict: Verdict; deciding: number } {
  const first = (verdict: Verdict) => verdicts.indexOf(verdict)
  const refuted = first('refuted')
  if (refuted >= 0) return { verdict: first('supported') >= 0 ? 'misleading' : 'refuted', deciding: refuted }
  for (const verdict of ['misleading', 'unverifiable'] as const)
    if (first(verdict) >= 0) return { verdict, deciding: first(verdict) }
  return { verdict: 'supported', deciding: 0 }
}

/// The parts of a claim as claims of their own, told apart by their ids (`clm_…#2`).
const partClaims = (claim: ClaimRecord): ClaimRecord[] =>
  (claim.parts ?? []).map((statement, index) => ({
    ...claim,
    id: `${claim.id}#${index + 1}`,
    statement,
    parts: null,
  }))

const citationsOf = (entries: ReadonlyArray<{ citations: Citation[] }>): Citation[] =>
  distinctCitations(entries.flatMap((entry) => entry.citations))

/// "Part 2 of 3 (“…”)": how the writer is told which fact a verdict is about.
const partName = (parts: readonly string[], index: number): string =>
  `Part ${index + 1} of ${parts.length} (“${parts[index]}”)`

/// A panel model's vote on the claim from its votes on the parts.
function claimEvaluation(parts: readonly string[], votes: readonly Evaluation[]): Evaluation {
  const { verdict, deciding } = partsVerdict(votes.map((vote) => vote.verdict as Verdict))
  const base = votes[deciding] as Evaluation
  return {
    ...base,
    verdict,
    confidence: Math.min(...votes.map((vote) => vote.confidence)),
    rationale: votes
      .map((vote, index) => `${partName(parts, index)}: ${vote.verdict}. ${vote.rationale}`)
      .join('\n')
      .slice(0, MAX_RATIONALE),
    citations: citationsOf(votes),
    createdAt: votes.map((vote) => vote.createdAt).reduce((a, b) => (a > b ? a : b)),
    cached: votes.every((vote) => vote.cached),
    usage: addUsage(...votes.map((vote) => vote.usage)),
  }
}

/// The claim's consensus from its parts': the verdict by partsVerdict (a refuted part beside a supported one is
/// `partly_true`), its reasoning naming the part it rests on first; sourced when every part is, decided by the
/// panel when every part was. A part's correction rewrites that part, not the writer's sentence, so the claim
/// offers none.
function claimConsensus(parts: readonly string[], decided: readonly Consensus[], at: string): Consensus {
  const { verdict, deciding } = partsVerdict(decided.map((entry) => entry.verdict as Verdict))
  const base = decided[deciding] as Consensus
  const citations = citationsOf(decided)
  const others = decided
    .map((entry, index) => ({ entry, index }))
    .filter(({ index }) => index !== deciding)
    .map(({ entry, index }) => `${partName(parts, index)}: ${entry.verdict}.`)
  return {
    ...base,
    verdict,
    confidence: Math.min(...decided.map((entry) => entry.confidence)),
    agreement: Math.min(...decided.map((entry) => entry.agreement)),
    reasoning: [`${partName(parts, deciding)} is ${base.verdict}: ${base.reasoning}`, ...others]
      .join(' ')
      .slice(0, MAX_REASONING),
    citations,
    correction: null,
    decidedAt: at,
    detail: verdict === base.verdict ? base.detail : 'partly_true',
    sourced: decided.every((entry) => entry.sourced),
    sources: citedSites(citations),
    decidedBy: decided.every((entry) => entry.decidedBy === 'panel') ? 'panel' : base.decidedBy,
    // Any part's fallback is the claim's: its verdict rests on every part.
    fallbacks: [...new Set(decided.flatMap((entry) => entry.fallbacks))],
  }
}

/// The second votes of a debate held on any part, as votes on the claim: a panelist who voted again on some part
/// keeps its first vote on the others.
function debateOnParts(
  parts: readonly string[],
  votes: JudgeInput['votes'],
  outcomes: readonly UnitOutcome[],
): NonNullable<UnitOutcome['debate']> {
  const models = [...new Set(outcomes.flatMap((outcome) => outcome.debate ?? []).map((vote) => vote.model))]
  return models.flatMap((model) => {
    const first = votes.find((vote) => vote.model === model && vote.round === 1)
    const onParts = outcomes.map(
      (outcome, index) => outcome.debate?.find((vote) => vote.model === model) ?? first?.parts?.[index],
    )
    if (onParts.some((vote) => vote === undefined)) return []
    const again = onParts as Evaluation[]
    return [{ ...claimEvaluation(parts, again), round: 2, parts: again }]
  })
}

/// `inner` checking each claim as the resolver resolved it, part by part when it has parts.
export function resolvedTier(inner: TierChecker, resolver: StatementResolver): TierChecker {
  const judge = inner.judge?.bind(inner)
  return {
    tier: inner.tier,
    models: () => inner.models(),
    unitTimeoutMs:
      inner.unitTimeoutMs === undefined ? undefined : inner.unitTimeoutMs + resolver.worstCaseMs(),
    concurrency: inner.concurrency,
    close: inner.close?.bind(inner),

    async check(input): Promise<UnitOutcome> {
      const claim = await resolver.resolve(input)
      if (!claim.parts) return inner.check({ ...input, claim })
      const parts = partClaims(claim)
      const outcomes = inner.checkAll
        ? await inner.checkAll(input, parts)
        : await Promise.all(parts.map((part) => inner.check({ ...input, claim: part })))
      const votes = outcomes.flatMap((outcome) => (outcome.evaluation ? [outcome.evaluation] : []))
      return {
        evaluation: claimEvaluation(claim.parts, votes),
        partEvaluations: votes,
        consensus: null,
        issues: [],
      }
    },

    judge:
      judge &&
      (async (input: JudgeInput): Promise<UnitOutcome> => {
        const claim = await resolver.resolve(input)
        if (!claim.parts) return judge({ ...input, claim })
        const outcomes = await Promise.all(
          partClaims(claim).map((part, index) =>
            judge({
              ...input,
              claim: part,
              votes: input.votes.flatMap((vote) => {
                const partVote = vote.parts?.[index]
                return partVote ? [{ ...partVote, parts: null }] : []
              }),
            }),
          ),
        )
        const decided = outcomes.map((outcome) => {
          if (!outcome.consensus) throw new Error(`The ${inner.tier} judge decided no part of the claim.`)
          return outcome.consensus
        })
        return {
          consensus: claimConsensus(claim.parts, decided, input.now()),
          consensusUsage: addUsage(...outcomes.map((outcome) => outcome.consensusUsage ?? null)),
          partConsensus: decided,
          debate: debateOnParts(claim.parts, input.votes, outcomes),
          ...(outcomes.some((outcome) => outcome.voteStances) && {
            voteStances: outcomes.flatMap((outcome) => outcome.voteStances ?? []),
            partVoteStances: outcomes.map((outcome) => outcome.voteStances ?? []),
          }),
          issues: [],
        }
      }),
  }
}

import type { ClaimRecord } from '../../store/documents'
import type { VotedClaim } from '../../store/voteCache'
import { contextDigest } from '../resolve'
import type { ClaimData } from './prompts'

const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' })
// Only this much text on each side is segmented, and a context sentence is cut to MAX_CONTEXT characters.
const WINDOW = 2000
const MAX_CONTEXT = 600

/// Whether a claim is checked as its statement: one resolved, not one the resolver failed on or whose statement
/// was rejected (those are checked as their words with the sentences around them), nor one not resolved yet.
export const checksStatement = (
  claim: Pick<ClaimRecord, 'statement' | 'statementState'>,
): claim is Pick<ClaimRecord, 'statementState'> & { statement: string } =>
  claim.statement !== null && claim.statementState === 'resolved'

/// What is checked of a claim: its self-contained statement, or its own words.
export const checkedText = (claim: Pick<ClaimRecord, 'statement' | 'statementState' | 'text'>): string =>
  checksStatement(claim) ? claim.statement : claim.text

/// What a vote on a claim is cached under: its statement, or its words with what the resolver would have read
/// around them in `text` (a sentence that depends on what came before is another claim in another document).
export const votedOn = (text: string, claim: ClaimRecord): VotedClaim =>
  checksStatement(claim)
    ? { text: claim.statement, context: null }
    : { text: claim.text, context: contextDigest(text, claim) }

/// The sentence before the claim and the sentence after it in the submitted text ('' at either end). A claim
/// that is a clause of a longer sentence gets the rest of that sentence.
export function claimContext(
  text: string,
  claim: Pick<ClaimRecord, 'charStart' | 'charEnd'>,
): { sentenceBefore: string; sentenceAfter: string } {
  const before = [...sentences.segment(text.slice(Math.max(0, claim.charStart - WINDOW), claim.charStart))]
    .map((segment) => segment.segment.trim())
    .filter(Boolean)
    .at(-1)
  const after = [...sentences.segment(text.slice(claim.charEnd, claim.charEnd + WINDOW))]
    .map((segment) => segment.segment.trim())
    .find(Boolean)
  return {
    sentenceBefore: (before ?? '').slice(-MAX_CONTEXT),
    sentenceAfter: (after ?? '').slice(0, MAX_CONTEXT),
  }
}

/// What the models check. A resolved claim is its statement alone, with the writer's words when the statement
/// differs from them: the resolver read the sentences around it, and what they settle is in the statement. Any
/// other (the resolver failed on it, its statement was rejected, or there is no resolver) is its words with the
/// sentences around them.
export function claimData(text: string, claim: ClaimRecord): ClaimData {
  if (!checksStatement(claim)) return { claim: claim.text, ...claimContext(text, claim) }
  return {
    claim: claim.statement,
    ...(claim.statement === claim.text ? {} : { asWritten: claim.text }),
  }
}

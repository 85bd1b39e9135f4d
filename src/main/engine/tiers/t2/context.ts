import type { ClaimRecord } from '../../store/documents'
import type { ClaimData } from './prompts'

const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' })
// Only this much text on each side is segmented, and a context sentence is cut to MAX_CONTEXT characters.
const WINDOW = 2000
const MAX_CONTEXT = 600

/// What is checked of a claim: its self-contained statement, or its own words until it is resolved.
export const checkedText = (claim: Pick<ClaimRecord, 'statement' | 'text'>): string =>
  claim.statement ?? claim.text

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
/// differs from them: the resolver read the sentences around it, and what they settle is in the statement. An
/// unresolved one (no resolver, or the resolver failed on it) is its words with the sentences around them.
export function claimData(text: string, claim: ClaimRecord): ClaimData {
  if (claim.statement === null) return { claim: claim.text, ...claimContext(text, claim) }
  return {
    claim: claim.statement,
    ...(claim.statement === claim.text ? {} : { asWritten: claim.text }),
  }
}

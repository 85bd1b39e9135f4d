import type { ClaimRecord } from '../../store/documents'
import type { ClaimData } from './prompts'

const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' })
// Only this much text on each side is segmented, and a context sentence is cut to MAX_CONTEXT characters.
const WINDOW = 2000
const MAX_CONTEXT = 600

/// What is checked of a claim: its self-contained statement, or its own words until it is resolved.
export const checkedText = (claim: Pick<ClaimRecord, 'statement' | 'text'>): string =>
  claim.statement ?? claim.text

/// What the models check: the claim's statement with the sentence before it and the sentence after it in the
/// submitted text ('' at either end), and the writer's words when the statement differs from them. A claim
/// that is a clause of a longer sentence gets the rest of that sentence as its context.
export function claimData(text: string, claim: ClaimRecord): ClaimData {
  const before = [...sentences.segment(text.slice(Math.max(0, claim.charStart - WINDOW), claim.charStart))]
    .map((segment) => segment.segment.trim())
    .filter(Boolean)
    .at(-1)
  const after = [...sentences.segment(text.slice(claim.charEnd, claim.charEnd + WINDOW))]
    .map((segment) => segment.segment.trim())
    .find(Boolean)
  const statement = checkedText(claim)
  return {
    claim: statement,
    ...(statement === claim.text ? {} : { asWritten: claim.text }),
    sentenceBefore: (before ?? '').slice(-MAX_CONTEXT),
    sentenceAfter: (after ?? '').slice(0, MAX_CONTEXT),
  }
}

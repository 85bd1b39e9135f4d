import type { ClaimRecord } from '../../store/documents'
import type { ClaimData } from './prompts'

const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' })
// Only this much text on each side is segmented, and a context sentence is cut to MAX_CONTEXT characters.
const WINDOW = 2000
const MAX_CONTEXT = 600

/// Up to `before` sentences before the claim and `after` sentences after it in the submitted text, nearest
/// last and first. A claim that is a clause of a longer sentence gets the rest of that sentence as its context.
export function sentencesAround(
  text: string,
  claim: Pick<ClaimRecord, 'charStart' | 'charEnd'>,
  before: number,
  after: number,
): { before: string[]; after: string[] } {
  const segment = (from: number, to: number) =>
    [...sentences.segment(text.slice(Math.max(0, from), to))]
      .map((part) => part.segment.trim())
      .filter(Boolean)
  return {
    before: segment(claim.charStart - WINDOW, claim.charStart)
      .slice(-before)
      .map((sentence) => sentence.slice(-MAX_CONTEXT)),
    after: segment(claim.charEnd, claim.charEnd + WINDOW)
      .slice(0, after)
      .map((sentence) => sentence.slice(0, MAX_CONTEXT)),
  }
}

/// What is checked of a claim: its self-contained statement, or its own words until it is resolved.
export const checkedText = (claim: Pick<ClaimRecord, 'statement' | 'text'>): string =>
  claim.statement ?? claim.text

/// What the models check: the claim's statement with the sentence before it and the sentence after it ('' at
/// either end), and the writer's words when the statement differs from them.
export function claimData(text: string, claim: ClaimRecord): ClaimData {
  const around = sentencesAround(text, claim, 1, 1)
  const statement = checkedText(claim)
  return {
    claim: statement,
    ...(statement === claim.text ? {} : { asWritten: claim.text }),
    sentenceBefore: around.before[0] ?? '',
    sentenceAfter: around.after[0] ?? '',
  }
}

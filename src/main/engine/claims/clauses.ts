// Where a long sentence holds several statements: at a semicolon, or at ", and" / ", but" / ", while" ...
// when both sides have a verb and what follows starts a clause of its own ("..., while the Statue of
// Liberty was dedicated in 1886").

import type { Span } from './sentences'

const JOINT = /;\s+|,\s+(?:and|but|while|whereas|although|though|yet)\s+/g
const FINITE_VERB =
  /^(?:is|are|was|were|has|have|had|does|did|will|would|can|could|may|might|must|shall|should|became|becomes|remains|remained|\p{L}{2,}ed)$/iu
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu
const MIN_WORDS = 5
// A new clause has its verb within its first few words.
const VERB_WITHIN = 6

/// The clauses of a sentence range of `view`; the sentence itself when it holds one statement.
export function clauseSpans(view: string, sentence: Span): Span[] {
  const text = view.slice(sentence.start, sentence.end)
  const words = [...text.matchAll(WORD)]
  // Counts up to each word, so that each joint is weighed without reading the sentence again.
  const verbsBefore = [0]
  for (const word of words)
    verbsBefore.push((verbsBefore[verbsBefore.length - 1] as number) + (isFiniteVerb(word[0]) ? 1 : 0))
  const wordsBefore = (position: number) => firstWordFrom(words, position)
  const clauses: Span[] = []
  let start = 0
  for (const joint of text.matchAll(JOINT)) {
    const first = wordsBefore(start)
    const left = wordsBefore(joint.index)
    const right = wordsBefore(joint.index + joint[0].length)
    if (left - first < MIN_WORDS || words.length - right < MIN_WORDS) continue
    const leftVerbs = (verbsBefore[left] as number) - (verbsBefore[first] as number)
    const rightVerbs =
      (verbsBefore[Math.min(words.length, right + VERB_WITHIN)] as number) - (verbsBefore[right] as number)
    if (leftVerbs === 0 || rightVerbs === 0) continue
    clauses.push({ start: sentence.start + start, end: sentence.start + joint.index })
    start = joint.index + joint[0].length
  }
  clauses.push({ start: sentence.start + start, end: sentence.end })
  return clauses
}

/// Index of the first word at or after a position (binary search).
function firstWordFrom(words: RegExpExecArray[], position: number): number {
  let low = 0
  let high = words.length
  while (low < high) {
    const middle = (low + high) >> 1
    if ((words[middle] as RegExpExecArray).index < position) low = middle + 1
    else high = middle
  }
  return low
}

function isFiniteVerb(word: string): boolean {
  return FINITE_VERB.test(word)
}

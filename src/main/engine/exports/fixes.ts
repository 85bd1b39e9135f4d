// Spelling fixes: the misspelt words of a report that every export corrects for the writer (a tracked change in
// Word, marked in the HTML and PDF article, counted in every summary) rather than leaving them to a note.
import { correctionWords, UNVERIFIED } from '../../../shared/corrections'
import { SPELLING_RULE } from '../../../shared/findings'
import type { Claim, TextIssue } from '../../../shared/schemas'
import { clearSpelling } from '../../../shared/spellings'

/// A misspelt word of the document and the word it clearly stands for; UTF-16 offsets into the document's text.
export interface SpellingFix {
  charStart: number
  charEnd: number
  word: string
  suggestion: string
}

/// The fix a finding in `text` is, else null: a word of small letters that Harper does not know (its rule
/// SpellCheck; its other rules are grammar, or split a word) that clearly stands for its first suggestion (see
/// `clearSpelling`: "recieve" is "receive", "wods" could be "words" or "woods"). An unknown word in capitals is
/// most likely a name, as t1's correction takes it, even at a sentence's start ("Zwally said", where "Wally" is
/// one letter away): it stays a finding. Whether a word is right in the writer's English was Harper's to say
/// when it checked, in the English of the writer's settings: the report does not say which English that was.
function spellingFix(text: string, issue: TextIssue): SpellingFix | null {
  const word = text.slice(issue.charStart, issue.charEnd)
  if (issue.rule !== SPELLING_RULE || !/^\p{Ll}+$/u.test(word)) return null
  const suggestion = clearSpelling(word, issue.suggestions)
  return suggestion === null ? null : { charStart: issue.charStart, charEnd: issue.charEnd, word, suggestion }
}

/// A claim's spelling fixes in text order, and its correction (the rewrite a tier suggested, or null) with them.
/// Word tracks a correction as one set of changes on the claim's words, so a claim with a correction has no
/// fixes of its own: a misspelt word the correction rewrites is left to the correction, and one it keeps is
/// fixed within it (accepted, the correction leaves no typo behind).
export function claimFixes(
  text: string,
  claim: Pick<Claim, 'issues'>,
  correction: string | null,
): { fixes: SpellingFix[]; correction: string | null } {
  const fixes: SpellingFix[] = []
  for (const issue of [...claim.issues].sort((a, b) => a.charStart - b.charStart)) {
    const fix = spellingFix(text, issue)
    if (fix && fix.charStart >= (fixes.at(-1)?.charEnd ?? 0)) fixes.push(fix)
  }
  if (correction === null) return { fixes, correction }
  const { words, unverified } = correctionWords(correction)
  const fixed = fixes.reduce(
    (rewritten, { word, suggestion }) =>
      rewritten.replace(new RegExp(`(?<![\\p{L}\\p{N}])${word}(?![\\p{L}\\p{N}])`, 'gu'), () => suggestion),
    words,
  )
  return { fixes: [], correction: `${unverified ? UNVERIFIED : ''}${fixed}` }
}

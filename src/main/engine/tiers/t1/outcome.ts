import type { Consensus, Evaluation, TextIssue } from '../../../../shared/schemas'
import type { CheckResult } from './checker'
import { plainMessage, SPELLING_RULE } from '../../../../shared/findings'
import { startsSentence } from '../../../../shared/typos'
import type { Finding } from './protocol'

/// A claim as t1 sees it: its text and where that text starts in the submitted text (UTF-16).
export interface CheckedClaim {
  text: string
  charStart: number
}

/// Harper's rule for a sentence that starts in lower case.
const SENTENCE_CAPITALIZATION = 'SentenceCapitalization'

/// What t1 records for a claim of `documentText` from one check: the findings as issues with offsets into the submitted text,
/// the checker's single evaluation, and the consensus `clean` or `issues`. `at` is an ISO-8601 timestamp.
export function t1Outcome(
  claim: CheckedClaim,
  result: CheckResult,
  at: string,
  documentText: string,
): { issues: TextIssue[]; evaluation: Evaluation; consensus: Consensus } {
  // A claim cut from the middle of a sentence (a clause of a longer one) does not start one, and t1, which
  // checks the claim alone, must not ask for its first word in capitals.
  const findings = startsSentence(documentText, claim.charStart)
    ? result.findings
    : result.findings.filter(
        (finding) => !(finding.rule === SENTENCE_CAPITALIZATION && finding.charStart === 0),
      )
  const issues = findings.map((finding) => ({
    ...finding,
    charStart: claim.charStart + finding.charStart,
    charEnd: claim.charStart + finding.charEnd,
  }))
  const verdict = issues.length ? 'issues' : 'clean'
  const rationale = issues.length
    ? issues.map((issue) => plainMessage(issue.message)).join(' ')
    : 'No spelling or grammar issues found.'
  // A rule-based checker is a single, deterministic voter: nothing to weigh, so full confidence and agreement.
  return {
    issues,
    evaluation: {
      tier: 't1',
      model: result.model,
      verdict,
      confidence: 1,
      rationale,
      citations: [],
      createdAt: at,
      cached: false,
      usage: null,
      round: 1,
      detail: null,
    },
    consensus: {
      verdict,
      confidence: 1,
      agreement: 1,
      reasoning: rationale,
      citations: [],
      correction: issues.length ? corrected(claim.text, findings) : null,
      decidedAt: at,
      detail: null,
      sourced: false,
      sources: 0,
      decidedBy: null,
      calibratedConfidence: null,
      fallbacks: [],
    },
  }
}

/// The text with each finding's first suggestion applied; findings overlapping an earlier one are skipped, and
/// so is an unknown word in capitals, most likely a name ("Millbrook" is no misspelt "Billhook"): it stays an
/// issue for the writer to judge, but is never changed for them. Null when nothing is changed.
export function corrected(text: string, findings: readonly Finding[]): string | null {
  let out = ''
  let done = 0
  for (const finding of [...findings].sort((a, b) => a.charStart - b.charStart)) {
    const replacement = finding.suggestions[0]
    if (replacement === undefined || finding.charStart < done) continue
    if (finding.rule === SPELLING_RULE && /^\p{Lu}/u.test(text.slice(finding.charStart, finding.charEnd)))
      continue
    out += text.slice(done, finding.charStart) + replacement
    done = finding.charEnd
  }
  return done === 0 && out === '' ? null : out + text.slice(done)
}

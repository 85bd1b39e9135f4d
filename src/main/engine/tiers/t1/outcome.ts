import type { Consensus, Evaluation, TextIssue } from '../../../../shared/schemas'
import type { CheckResult } from './checker'
import type { Finding } from './protocol'

/// A claim as t1 sees it: its text and where that text starts in the submitted text (UTF-16).
export interface CheckedClaim {
  text: string
  charStart: number
}

/// What t1 records for a claim from one check: the findings as issues with offsets into the submitted text,
/// the checker's single evaluation, and the consensus `clean` or `issues`. `at` is an ISO-8601 timestamp.
export function t1Outcome(
  claim: CheckedClaim,
  result: CheckResult,
  at: string,
): { issues: TextIssue[]; evaluation: Evaluation; consensus: Consensus } {
  const issues = result.findings.map((finding) => ({
    ...finding,
    charStart: claim.charStart + finding.charStart,
    charEnd: claim.charStart + finding.charEnd,
  }))
  const verdict = issues.length ? 'issues' : 'clean'
  const rationale = issues.length
    ? issues.map((issue) => issue.message).join(' ')
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
    },
    consensus: {
      verdict,
      confidence: 1,
      agreement: 1,
      reasoning: rationale,
      citations: [],
      correction: issues.length ? corrected(claim.text, result.findings) : null,
      decidedAt: at,
    },
  }
}

/// The text with each finding's first suggestion applied; findings overlapping an earlier one are skipped.
export function corrected(text: string, findings: readonly Finding[]): string {
  let out = ''
  let done = 0
  for (const finding of [...findings].sort((a, b) => a.charStart - b.charStart)) {
    const replacement = finding.suggestions[0]
    if (replacement === undefined || finding.charStart < done) continue
    out += text.slice(done, finding.charStart) + replacement
    done = finding.charEnd
  }
  return out + text.slice(done)
}

import type { Report, Tier } from '../../shared/schemas'
import type { Engine } from '../engine/engine'
import { hasEnded } from '../engine/events'

/// Estimates, submits and runs a check of `text` in this process, resolving with its final report.
export async function runCheck(engine: Engine, text: string, tiers: Tier[], name: string): Promise<Report> {
  const principal = engine.localPrincipal()
  const estimate = engine.service.estimate(principal, { text, tiers })
  console.error(
    `${estimate.claimCount} claim${estimate.claimCount === 1 ? '' : 's'}, ${estimate.credits.total} credits ` +
      `(balance ${estimate.balance})`,
  )
  const { check } = await engine.service.submit(principal, { documentId: estimate.documentId, tiers, name })
  if (!hasEnded(engine.service.getCheck(principal, check.id))) await engine.events.ended(check.id)
  return engine.service.report(principal, check.id)
}

/// A report as plain text for a terminal.
export function formatReport(report: Report): string {
  const { check, summary } = report
  const lines = [
    `${check.name ?? check.id}: ${summary.claimCount} claims, ${check.tiers.join(', ')}, ${check.status}` +
      ` (charged ${check.credits.charged}, refunded ${check.credits.refunded})`,
  ]
  if (check.error) lines.push(`error: ${check.error.message}`)
  report.claims.forEach((claim, index) => {
    lines.push('', `${index + 1}. "${claim.text}" [${claim.charStart}–${claim.charEnd}]`)
    for (const tier of check.tiers) {
      const consensus = claim.consensus[tier]
      lines.push(`   ${tier}: ${consensus ? consensus.verdict : 'no verdict'}`)
      if (consensus?.correction) lines.push(`       suggested: ${consensus.correction}`)
    }
    for (const issue of claim.issues) {
      const word = report.text.slice(issue.charStart, issue.charEnd)
      const fix = issue.suggestions[0] ? ` → "${issue.suggestions[0]}"` : ''
      lines.push(`   - "${word}"${fix}: ${issue.message}`)
    }
  })
  const verdicts = Object.entries(summary.verdicts).map(([verdict, count]) => `${verdict} ${count}`)
  lines.push('', `verdicts: ${verdicts.join(', ') || 'none'}`)
  return lines.join('\n')
}

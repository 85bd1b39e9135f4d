import { counted, formatted } from '../../shared/counted'
import type { Report, Tier } from '../../shared/schemas'
import type { Engine } from '../engine/engine'
import { hasEnded } from '../engine/events'

/// Estimates, submits and runs a check of `text` in this process, resolving with its final report. With
/// `previousCheckId`, the claims unchanged since that check keep their verdicts and cost nothing.
export async function runCheck(
  engine: Engine,
  text: string,
  tiers: Tier[],
  name: string,
  previousCheckId: string | null = null,
): Promise<Report> {
  const principal = engine.localPrincipal()
  // Ctrl+C (or a SIGTERM) cancels the check, which refunds it, rather than leaving it charged and running; one
  // that comes while the check is being submitted cancels it as soon as it exists. Listening starts before
  // anything is printed, so no signal finds the process without its listener; a second one ends it at once.
  let checkId: string | null = null
  let interrupted = false
  const cancel = (id: string): void => {
    console.error(`Cancelling the check ${id}; its credits are refunded.`)
    engine.service.cancel(principal, id)
  }
  const onSignal = (): void => {
    if (!interrupted) {
      interrupted = true
      if (checkId !== null) cancel(checkId)
    } else if (checkId !== null) process.exit(130)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  try {
    const estimate = await engine.service.estimate(principal, { text, tiers, previousCheckId })
    const kept = estimate.claims.filter((claim) => claim.carriedFrom !== null).length
    console.error(
      `${counted(estimate.claimCount, 'claim')}${previousCheckId === null ? '' : ` (${kept} unchanged, kept)`}, ` +
        `${counted(estimate.credits.total, 'credit')} (balance ${formatted(estimate.balance)})`,
    )
    const { check } = await engine.service.submit(principal, {
      documentId: estimate.documentId,
      tiers,
      name,
      previousCheckId,
    })
    checkId = check.id
    if (interrupted) cancel(check.id)
    if (!hasEnded(engine.service.getCheck(principal, check.id))) await engine.events.ended(check.id)
    return engine.service.report(principal, check.id)
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}

/// A report as plain text for a terminal.
export function formatReport(report: Report): string {
  const { check, summary } = report
  const lines = [
    `${check.name ?? check.id}: ${counted(summary.claimCount, 'claim')}, ${check.tiers.join(', ')}, ${check.status}` +
      ` (charged ${check.credits.charged}, refunded ${check.credits.refunded})`,
  ]
  if (check.error) lines.push(`error: ${check.error.message}`)
  report.claims.forEach((claim, index) => {
    const kept = claim.carriedFrom === null ? '' : ` (unchanged, kept from ${claim.carriedFrom})`
    lines.push('', `${index + 1}. "${claim.text}" [${claim.charStart}–${claim.charEnd}]${kept}`)
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
  return printable(lines.join('\n'))
}

/// Text of the checked file made safe for a terminal: control characters (an escape sequence, say) are shown
/// as \u escapes instead of acting on the terminal.
const printable = (text: string): string =>
  text.replace(/[^\P{Cc}\n\t]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

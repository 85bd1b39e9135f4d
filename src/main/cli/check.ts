import { counted, formatted } from '../../shared/counted'
import { manuscriptParts, newManuscriptId } from '../../shared/manuscript'
import { ApiError } from '../../shared/errors'
import { EXPORT_FORMAT_IDS } from '../../shared/exportFormats'
import type { CreateCheckRequest, Estimate, Report, Tier } from '../../shared/schemas'
import { headlineConsensus } from '../../shared/verdicts'
import type { Engine } from '../engine/engine'
import { hasEnded } from '../../shared/vocabulary'
import { QUEUE_ADVICE } from '../engine/checks/reachability'
import type { Principal } from '../engine/checks/access'
import { CommandError } from './errors'

/// Estimates, submits and runs a check of `text` in this process, resolving with its final report. With
/// `previousCheckId`, the claims unchanged since that check keep their verdicts and cost nothing. A text longer
/// than one check may be is checked in parts (`manuscriptParts`), each its own check of one manuscript
/// (`CheckManuscript`), estimated and reported as one.
export async function runCheck(
  engine: Engine,
  text: string,
  tiers: Tier[],
  name: string,
  previousCheckId: string | null = null,
): Promise<Report> {
  const principal = await engine.localPrincipal()
  const parts = manuscriptParts(text, engine.config.limits.maxTextChars)
  const manuscriptId = parts.length === 1 ? null : newManuscriptId()
  // Ctrl+C (or a SIGTERM) cancels the checks, which refunds them, rather than leaving them charged and running;
  // one that comes while they are being submitted cancels each as soon as it exists. Listening starts before
  // anything is printed, so no signal finds the process without its listener; a second one ends it at once.
  const checkIds: string[] = []
  let interrupted = false
  const cancel = async (id: string): Promise<void> => {
    // A part that already ended keeps its verdicts.
    if (hasEnded(await engine.service.getCheck(principal, id))) return
    console.error(`Cancelling the check ${id}; its credits are refunded.`)
    await engine.service.cancel(principal, id)
  }
  const onSignal = (): void => {
    if (!interrupted) {
      interrupted = true
      // Each cancelled check ends, which the wait below for the checks' ends hears.
      Promise.all(checkIds.map(cancel)).catch((error: unknown) => console.error(error))
    } else if (checkIds.length > 0) process.exit(130)
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  try {
    const estimates: Estimate[] = []
    for (const part of parts)
      estimates.push(
        await engine.service.estimate(principal, {
          text: text.slice(part.from, part.to),
          tiers,
          previousCheckId,
        }),
      )
    const total = (count: (estimate: Estimate) => number): number =>
      estimates.reduce((all, estimate) => all + count(estimate), 0)
    const kept = total((estimate) => estimate.claims.filter((claim) => claim.carriedFrom !== null).length)
    const inParts = parts.length === 1 ? '' : ` in ${parts.length} parts`
    console.error(
      `${counted(
        total((estimate) => estimate.claimCount),
        'claim',
      )}${inParts}` +
        `${previousCheckId === null ? '' : ` (${kept} unchanged, kept)`}, ` +
        counted(
          total((estimate) => estimate.credits.total),
          'credit',
        ),
    )
    for (const [index, estimate] of estimates.entries()) {
      if (interrupted) break
      const { check } = await submitted(engine, principal, {
        documentId: estimate.documentId,
        tiers,
        name,
        previousCheckId,
        ...(manuscriptId === null
          ? {}
          : { manuscript: { id: manuscriptId, part: index + 1, parts: parts.length } }),
      })
      checkIds.push(check.id)
      if (interrupted) await cancel(check.id)
    }
    // Once charged, so the balance is what is left.
    if (!interrupted)
      console.error(
        `balance ${formatted((await engine.service.credits(principal)).balance)} after the charge`,
      )
    for (const id of checkIds)
      if (!hasEnded(await engine.service.getCheck(principal, id))) await engine.events.ended(id)
    return await engine.service.report(principal, manuscriptId ?? (checkIds[0] as string))
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}

/// Submits a check; a refusal for providers that cannot be reached says what a user of the command line can do.
async function submitted(
  engine: Engine,
  principal: Principal,
  request: CreateCheckRequest,
): ReturnType<Engine['service']['submit']> {
  try {
    return await engine.service.submit(principal, request)
  } catch (error) {
    if (error instanceof ApiError && error.code === 'providers_unreachable')
      throw new CommandError(error.message.replace(QUEUE_ADVICE, '.'))
    throw error
  }
}

/// The line that names a finished check and how to export it, e.g. "Check chk_… completed: export it with
/// factdesk export chk_… --format html|pdf|…"; on standard error, so that `--json` leaves one document on stdout.
export const checkLine = ({ check }: Report): string =>
  `Check ${check.id} ${check.status}: export it with factdesk export ${check.id} --format ${EXPORT_FORMAT_IDS.join('|')}`

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
  lines.push('', `verdicts: ${verdictCounts(report)}`)
  return printable(lines.join('\n'))
}

/// How many claims got each verdict in the check's headline tier (a claim checked by t2 and t3 counts once, by
/// its t3 verdict), e.g. "supported 2, unverifiable 7".
function verdictCounts(report: Report): string {
  const counts = new Map<string, number>()
  for (const claim of report.claims) {
    const verdict = headlineConsensus(claim.consensus, report.check.tiers)?.verdict ?? 'no verdict'
    counts.set(verdict, (counts.get(verdict) ?? 0) + 1)
  }
  return [...counts].map(([verdict, count]) => `${verdict} ${count}`).join(', ') || 'none'
}

/// Text of the checked file made safe for a terminal: control characters (an escape sequence, say) are shown
/// as \u escapes instead of acting on the terminal.
const printable = (text: string): string =>
  text.replace(/[^\P{Cc}\n\t]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

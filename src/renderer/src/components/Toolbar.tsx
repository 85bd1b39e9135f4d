import type { JSX } from 'react'
import { TIERS, type Check, type PriceList, type Report, type Tier } from '../../../shared/schemas'
import { useAccount } from '../state/account'
import { keptWords, unavailableWords } from '../state/recheck'
import { useSettingsDialog } from './settings/open'
import { counted } from '../../../shared/counted'
import { endedMessage } from '../../../shared/notices'
import { headlineConsensus } from '../../../shared/verdicts'
import { barWords, verdictBar } from '../../../shared/verdictBar'
import { hasEnded, TERMS } from '../../../shared/vocabulary'
import { stageLabel, type ClaimStage } from '../editor/claims'
import { CheckMenu } from './CheckMenu'
import { ExportMenu } from './ExportMenu'
import { PendingChecks } from './PendingChecks'
import { useToolbarKeys } from './roving'
import { useChecks, useDesk } from './useDesk'
import { balanceWords } from './panels/EstimateSummary'

const TIER_NAMES: Record<Tier, { name: string; explanation: string }> = {
  t1: { name: 'Spelling', explanation: 'Spelling and grammar, offline' },
  t2: { name: 'Panel', explanation: 'A panel of models votes on each claim; a judge decides' },
  t3: { name: 'Web', explanation: 'Live web research with cited sources' },
}

/// The check toolbar: tiers with their per-claim prices, Estimate, Check, Cancel, progress and the balance. One
/// tab stop; the arrow keys move between its buttons.
export function Toolbar({ prices }: { prices: PriceList | null }): JSX.Element {
  const desk = useDesk()
  const tiers = useChecks((store) => store.tiers)
  const busy = useChecks((store) => store.busy)
  const check = useChecks((store) => store.check)
  const estimate = useChecks((store) => store.estimate)
  const panel = useChecks((store) => store.panel)
  const { toggleTier, runEstimate, runCheck, cancel, showPanel, loadHistory } = desk.checks.getState()
  const account = useAccount((store) => store.account)
  const running = check !== null && !hasEnded(check)
  const short = estimate !== null && !estimate.sufficient
  const cannotRun = estimate !== null && estimate.unavailable.length > 0
  const keys = useToolbarKeys()

  return (
    <div className="toolbar" role="toolbar" aria-label="Fact-checking" {...keys}>
      <div className="toolbar-group" role="group" aria-label="Tiers">
        {TIERS.map((tier) => {
          const on = tiers.includes(tier)
          const price = prices ? counted(prices[tier], 'credit') : ''
          return (
            <button
              key={tier}
              type="button"
              className={`tier-toggle${on ? ' on' : ''}`}
              aria-pressed={on}
              // The name stays whole when a narrow window shows only the tier's id, and begins with the words
              // shown ("t1 Spelling 1"), so that speech control finds the button by what it reads.
              aria-label={`${tier} ${TIER_NAMES[tier].name}${price ? ` ${price} per claim` : ''}`}
              title={`${TIER_NAMES[tier].explanation}${price ? ` · ${price} per claim` : ''}`}
              onClick={() => toggleTier(tier)}
            >
              <span className="tier-id">{tier}</span>{' '}
              <span className="tier-name">{TIER_NAMES[tier].name}</span>{' '}
              {prices && <span className="tier-price">{prices[tier]}</span>}
            </button>
          )
        })}
      </div>
      <div className="toolbar-group">
        <button
          type="button"
          className="button"
          disabled={busy !== null || running}
          onClick={() => void runEstimate()}
          aria-keyshortcuts="Control+Shift+E"
          title="Find the claims and quote their price (Ctrl+Shift+E)"
        >
          {busy === 'estimating' ? 'Estimating…' : 'Estimate'}
        </button>
        <button
          type="button"
          className="button primary"
          disabled={busy !== null || running}
          onClick={() => void runCheck()}
          aria-keyshortcuts="Control+Shift+Enter"
          title={
            cannotRun
              ? unavailableWords(estimate)
              : short
                ? `Not enough credits: ${estimate.credits.total} needed, ${estimate.balance} left`
                : 'Submit the check (Ctrl+Shift+Enter)'
          }
        >
          {busy === 'submitting' ? 'Submitting…' : 'Check'}
        </button>
        <CheckMenu disabled={busy !== null || running} />
        <button
          type="button"
          className="button"
          disabled={!running || busy !== null}
          onClick={() => check && void cancel(check.id)}
        >
          Cancel
        </button>
        <button
          type="button"
          className="button"
          onClick={() => void desk.research.getState().askFromEditor()}
          aria-keyshortcuts="Control+Shift+D"
          title={`Research the selected text or the claim at the cursor in depth${prices ? `: ${counted(prices.research, 'credit')}, flat` : ''} (Ctrl+Shift+D)`}
        >
          Deep research
        </button>
        {check && <Progress />}
        <EstimateAnnouncement />
        <CheckAnnouncement />
        <PendingChecks />
      </div>
      <div className="toolbar-group toolbar-end">
        <ExportMenu />
        <button
          type="button"
          className={`button quiet${panel === 'history' ? ' on' : ''}`}
          aria-pressed={panel === 'history'}
          onClick={() => {
            if (panel === 'history') showPanel(null)
            else {
              showPanel('history')
              void loadHistory()
            }
          }}
        >
          History
        </button>
        <button
          type="button"
          className="button quiet"
          aria-keyshortcuts="Control+Comma"
          title="Models, search, writing, credits and API keys (Ctrl+,)"
          onClick={() => useSettingsDialog.getState().open()}
        >
          Settings
        </button>
        <span className="balance" aria-label="Balance">
          {account.status === 'ready' ? counted(account.balance, 'credit') : '—'}
        </span>
      </div>
    </div>
  )
}

/// Claims done per tier of the running check, as a bar and in words; a screen reader hears only that the check
/// started and how it ended (`CheckAnnouncement`), not every claim.
function Progress(): JSX.Element | null {
  const check = useChecks((store) => store.check)
  const report = useChecks((store) => store.report)
  if (!check) return null
  const total = check.claimCount * check.tiers.length
  const done = check.tiers.reduce((sum, tier) => sum + (check.progress.claimsDone[tier] ?? 0), 0)
  const words = check.tiers
    .map((tier) => `${tier} ${check.progress.claimsDone[tier] ?? 0}/${check.claimCount}`)
    .join(' · ')
  const verdicts = hasEnded(check) ? verdictsOf(check, report) : new Map<ClaimStage, number>()
  return (
    <div className="progress">
      {verdicts.size > 0 ? (
        <VerdictBar verdicts={verdicts} />
      ) : (
        <progress max={Math.max(total, 1)} value={done} aria-label={`Claims done: ${words}`} />
      )}
      <span className="progress-words">
        {check.status === 'running' || check.status === 'queued' ? words : check.status}
      </span>
    </div>
  )
}

/// A check's claims by the verdict their badges show (their headline tier's), in text order of first use; the
/// claims without one are left out. Empty until the check's report is read.
function verdictsOf(check: Check, report: Report | null): Map<ClaimStage, number> {
  const verdicts = new Map<ClaimStage, number>()
  for (const claim of report?.check.id === check.id ? report.claims : []) {
    const verdict = headlineConsensus(claim.consensus, check.tiers)?.verdict
    if (verdict) verdicts.set(verdict, (verdicts.get(verdict) ?? 0) + 1)
  }
  return verdicts
}

/// An ended check's verdicts as one bar (see verdictBar), in the vocabulary's order and colours (light or dark
/// as the page is); said in words to screen readers and, part by part, on hovering.
function VerdictBar({ verdicts }: { verdicts: Map<ClaimStage, number> }): JSX.Element {
  const parts = verdictBar(TERMS.map((term) => ({ term, count: verdicts.get(term as ClaimStage) ?? 0 })))
  return (
    <svg
      className="verdict-bar"
      role="img"
      aria-label={`Verdicts: ${barWords(parts)}`}
      viewBox="0 0 100 1"
      preserveAspectRatio="none"
    >
      {parts.map(({ term, count, x, width }) => (
        <rect key={term} className={`fd-stage-${term}`} x={x} y={0} width={width} height={1}>
          <title>{barWords([{ term, count }])}</title>
        </rect>
      ))}
    </svg>
  )
}

/// What a screen reader is told of an estimate, in a live region that is always there (the estimate's panel
/// appears with its text): the claims found, their price and whether the balance covers it.
function EstimateAnnouncement(): JSX.Element {
  const estimate = useChecks((store) => store.estimate)
  // Emptied while estimating, so that the same estimate again is read out again.
  const estimating = useChecks((store) => store.busy === 'estimating')
  return (
    <span className="visually-hidden" role="status" aria-label="Estimate status">
      {estimate && !estimating
        ? `${keptWords(estimate) ?? `${counted(estimate.claimCount, 'claim')} found: ${counted(estimate.credits.total, 'credit')}`}. ${balanceWords(estimate)}`
        : ''}
    </span>
  )
}

/// What a screen reader is told of the running check, in a live region that is always there: that it runs,
/// then how it ended with its claims' verdicts, as their badges show them ("Check completed: 4 claims.
/// supported: 3, refuted: 1.").
function CheckAnnouncement(): JSX.Element {
  const check = useChecks((store) => store.check)
  const report = useChecks((store) => store.report)
  let text = ''
  if (check && !hasEnded(check)) text = `Checking ${counted(check.claimCount, 'claim')}.`
  else if (check) {
    const counts = [...verdictsOf(check, report)]
      .map(([stage, count]) => `${stageLabel({ stage, votes: 0, panel: null, stale: false })}: ${count}`)
      .join(', ')
    text = `${endedMessage(check)}${counts ? ` ${counts}.` : ''}`
  }
  return (
    <span className="visually-hidden" role="status" aria-label="Check status">
      {text}
    </span>
  )
}

import { useState, type JSX } from 'react'
import { counted, formatted } from '../../../../shared/counted'
import { withoutInlineMarks } from '../../../../shared/markdown'
import type { Estimate } from '../../../../shared/schemas'
import { revealClaim } from '../../editor/claimKeys'
import { estimateLead } from '../../state/recheck'
import { useSettingsDialog } from '../settings/open'
import { useDesk } from '../useDesk'

/// How many of an estimate's claims the panel lists before "Show all": thousands of buttons beside the text
/// slowed every keystroke of a long document.
const LISTED_CLAIMS = 100

/// Whether the balance covers an estimate, in words; "enough for this check" only for a check that can run.
export function balanceWords(estimate: Estimate): string {
  const cannotRun = estimate.unavailable.map(({ tier }) => tier)
  return `Balance ${counted(estimate.balance, 'credit')}: ${
    !estimate.sufficient
      ? `not enough — ${counted(estimate.credits.total - estimate.balance, 'more credit')} needed. Check will not submit.`
      : cannotRun.length > 0
        ? `enough credits, but ${cannotRun.join(' and ')} cannot run. Check will not submit.`
        : 'enough for this check.'
  }`
}

/// Whether a check of this estimate can be submitted: every tier can run and the balance covers it.
export const canSubmit = (estimate: Estimate): boolean =>
  estimate.sufficient && estimate.unavailable.length === 0

export function EstimateSummary({ estimate }: { estimate: Estimate }): JSX.Element {
  const desk = useDesk()
  const [all, setAll] = useState(false)
  const listed = all ? estimate.claims : estimate.claims.slice(0, LISTED_CLAIMS)
  return (
    <div className="estimate">
      <p className="estimate-lead">{estimateLead(estimate)}</p>
      <table className="price-table">
        <thead>
          <tr>
            <th scope="col">Tier</th>
            <th scope="col">Claims</th>
            <th scope="col">Per claim</th>
            <th scope="col">Subtotal</th>
          </tr>
        </thead>
        <tbody>
          {estimate.credits.breakdown.map((line) => (
            <tr key={line.tier}>
              <td>{line.tier}</td>
              <td>{formatted(line.claims)}</td>
              <td>{formatted(line.unitPrice)}</td>
              <td>{formatted(line.subtotal)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              Total
            </th>
            <td className="estimate-total">{counted(estimate.credits.total, 'credit')}</td>
          </tr>
        </tfoot>
      </table>
      {/* Read out from the toolbar's estimate status, which is in the page before the panel. */}
      <p className={canSubmit(estimate) ? 'sufficient' : 'insufficient'}>{balanceWords(estimate)}</p>
      {estimate.unavailable.length > 0 && (
        <div className="unavailable">
          <ul>
            {estimate.unavailable.map(({ tier, reason }) => (
              <li key={tier}>{reason}</li>
            ))}
          </ul>
          <button type="button" className="button" onClick={() => useSettingsDialog.getState().open()}>
            Open Settings
          </button>
        </div>
      )}
      <ol className="claim-list">
        {listed.map((claim) => (
          <li key={claim.claimId}>
            <button
              type="button"
              className="claim-link"
              onClick={() => {
                const view = desk.view()
                if (view) revealClaim(view, claim.claimId)
              }}
            >
              {withoutInlineMarks(claim.text)}
            </button>
            {claim.carriedFrom !== null && <span className="muted"> · unchanged, kept</span>}
          </li>
        ))}
      </ol>
      {listed.length < estimate.claims.length && (
        <button type="button" className="button" onClick={() => setAll(true)}>
          Show all {counted(estimate.claims.length, 'claim')}
        </button>
      )}
    </div>
  )
}

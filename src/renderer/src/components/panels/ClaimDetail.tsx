import { useState, type JSX } from 'react'
import { withoutInlineMarks } from '../../../../shared/markdown'
import { TIERS, type Citation, type Claim, type Report } from '../../../../shared/schemas'
import { attentionOf, checkedAs, verdictNote, type Attention } from '../../../../shared/verdicts'
import { VOCABULARY } from '../../../../shared/vocabulary'
import { claimField, claimRange } from '../../editor/claims'
import { keptSince } from '../../state/recheck'
import { useChecks, useDesk } from '../useDesk'
import { QuotedCode } from '../QuotedCode'
import { OpenLinkDialog, SourceLink } from '../research/sources'
import { VotesTable } from '../research/VotesTable'
import { Correction } from './Correction'
import { Parts } from './Parts'

/// The open claim's detail (see ClaimView).
export function ClaimDetail(): JSX.Element {
  const claimId = useChecks((store) => store.openClaim)
  const report = useChecks((store) => store.report)
  const claim = report?.claims.find((each) => each.claimId === claimId)
  if (!report || !claim) return <p className="muted">Loading the claim…</p>
  return <ClaimView claim={claim} report={report} />
}

/// A claim's detail: why it needs attention, if it does, then its verdict per tier, with the votes, reasons,
/// sources and correction behind it.
export function ClaimView({ claim, report }: { claim: Claim; report: Report }): JSX.Element {
  const desk = useDesk()
  const [confirming, setConfirming] = useState<Citation | null>(null)
  const statement = checkedAs(claim)
  const kept = keptSince(claim, report.check)
  // Only the tiers carried are said to be kept: the others were checked by this check.
  const checkedNow = report.check.tiers.filter((tier) => !kept?.tiers.includes(tier))
  const attention = attentionOf(claim, report.check)
  // The correction of a claim whose verdict does not say what a tier found is shown with why, above the tiers.
  const correctionAbove = attention?.disputed ? attention.correction : null
  return (
    <div className="claim-detail">
      <blockquote className="claim-text">{withoutInlineMarks(claim.text)}</blockquote>
      {attention && <NeedsAttention claim={claim} attention={attention} />}
      {kept && (
        <p className="kept">
          Unchanged since the check of {kept.day}:{' '}
          {checkedNow.length === 0
            ? 'its verdicts are kept from it.'
            : `its ${kept.tiers.join(' and ')} ${kept.tiers.length === 1 ? 'verdict is' : 'verdicts are'} kept from it; ${checkedNow.join(' and ')} checked now.`}
        </p>
      )}
      {statement && (
        <p className="checked-as">
          <span className="muted">Checked as:</span> {statement}
        </p>
      )}
      <button
        type="button"
        className="button"
        aria-keyshortcuts="Control+Shift+D"
        title="Research this claim in depth: an argument map with sources (Ctrl+Shift+D)"
        onClick={() => void desk.research.getState().ask({ claimId: claim.claimId, text: claim.text })}
      >
        Deep research…
      </button>
      <button
        type="button"
        className="button"
        title="Estimate the claims of the heading's section this claim is in; Check then checks only them"
        onClick={() => {
          const view = desk.view()
          const range = view && claimRange(view.state.field(claimField), claim.claimId)
          void desk.checks.getState().checkSection(range?.from)
        }}
      >
        Check this section
      </button>
      {TIERS.map((tier) => {
        const consensus = claim.consensus[tier]
        const votes = claim.evaluations.filter((evaluation) => evaluation.tier === tier)
        if (!consensus && votes.length === 0 && !report.check.tiers.includes(tier)) return null
        return (
          <section key={tier} className="tier-section" aria-label={`Tier ${tier}`}>
            <h3>
              {tier}
              {consensus ? (
                <span className={`verdict verdict-${consensus.verdict}`}>
                  {VOCABULARY[consensus.verdict].short}
                </span>
              ) : (
                <span className="verdict">pending</span>
              )}
            </h3>
            {consensus && (
              <>
                {/* t1 is one rule-based checker: no agreement or sources to weigh, and its findings are
                    listed below one by one rather than joined into a paragraph. */}
                {tier !== 't1' && <p className="numbers">{verdictNote(consensus)}</p>}
                {tier !== 't1' && consensus.reasoning && <p className="reasoning">{consensus.reasoning}</p>}
                {tier !== 't1' && claim.parts && <Parts parts={claim.parts} tier={tier} />}
                {consensus.correction && consensus.correction !== correctionAbove && (
                  <Correction claim={claim} correction={consensus.correction} />
                )}
                {consensus.citations.length > 0 && (
                  <ul className="citations">
                    {consensus.citations.map((citation) => (
                      <li key={citation.url}>
                        <SourceLink citation={citation} onOpen={setConfirming} />
                      </li>
                    ))}
                  </ul>
                )}
              </>
            )}
            {tier === 't1' && claim.issues.length > 0 && (
              <ul className="issues">
                {claim.issues.map((issue) => (
                  <li key={`${issue.charStart}-${issue.rule}`}>
                    <QuotedCode message={issue.message} />
                    {issue.suggestions[0] && <span className="muted"> → {issue.suggestions[0]}</span>}
                  </li>
                ))}
              </ul>
            )}
            {tier !== 't1' && votes.some((vote) => vote.round === 1) && (
              <VotesTable caption="Votes" votes={votes.filter((vote) => vote.round === 1)} />
            )}
            {tier !== 't1' && votes.some((vote) => vote.round === 2) && (
              <VotesTable
                caption="Votes after reading each other’s reasons"
                votes={votes.filter((vote) => vote.round === 2)}
              />
            )}
          </section>
        )
      })}
      {confirming && <OpenLinkDialog url={confirming.url} onClose={() => setConfirming(null)} />}
    </div>
  )
}

/// Why a claim needs the editor's attention, whatever the verdict shown (a tier found it refuted or
/// misleading); when the verdict shown does not say so, the models' reason and the correction they suggest
/// (else the tier's section below has them).
export function NeedsAttention({ claim, attention }: { claim: Claim; attention: Attention }): JSX.Element {
  return (
    <section className="needs-attention" aria-label="Needs attention">
      <h3>Needs attention</h3>
      <p className="why">{attention.why}</p>
      {attention.disputed && attention.reason && (
        <p className="reasoning">
          <span className="muted">The models’ reason:</span> {attention.reason}
        </p>
      )}
      {attention.disputed && attention.correction && (
        <Correction claim={claim} correction={attention.correction} />
      )}
    </section>
  )
}

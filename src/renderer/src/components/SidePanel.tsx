import { undo } from '@codemirror/commands'
import { EditorSelection } from '@codemirror/state'
import { EditorView } from '@codemirror/view'
import { useEffect, useMemo, useRef, useState, type JSX } from 'react'
import type { FactdeskApi } from '../../../shared/api'
import { correctionEdits, correctionParts, correctionWords } from '../../../shared/corrections'
import { withoutInlineMarks } from '../../../shared/markdown'
import {
  TIERS,
  type Check,
  type Citation,
  type Claim,
  type ClaimPart,
  type Estimate,
  type Tier,
} from '../../../shared/schemas'
import { checkedAs } from '../../../shared/verdicts'
import { claimField, claimRange } from '../editor/claims'
import { estimateLead, keptSince } from '../state/recheck'
import { useChecks } from '../state/checks'
import { useDocument } from '../state/document'
import { editorView } from '../state/editorView'
import { counted, formatted } from '../../../shared/counted'
import { focusLost } from './focus'
import { QuotedCode } from './QuotedCode'
import { ResearchPanel } from './research/ResearchPanel'
import { OpenLinkDialog, SourceLink } from './research/sources'
import { VotesTable } from './research/VotesTable'
import { verdictNote } from '../../../shared/verdicts'
import { useResearch } from '../state/research'

/// Selects a claim's current range in the editor and scrolls it into view.
export function revealClaim(claimId: string): void {
  const view = editorView()
  if (!view) return
  const range = claimRange(view.state.field(claimField), claimId)
  if (!range) return
  view.dispatch({
    selection: EditorSelection.range(range.from, range.to),
    effects: EditorView.scrollIntoView(range.from, { y: 'center' }),
  })
  view.focus()
}

/// The panel beside the editor: the estimate, a claim's detail, or the check history.
export function SidePanel({ api }: { api: FactdeskApi }): JSX.Element | null {
  const panel = useChecks((store) => store.panel)
  const estimate = useChecks((store) => store.estimate)
  const showPanel = useChecks((store) => store.showPanel)
  if (panel === null) return null
  // Closing gives the keys back to the text.
  const close = (): void => {
    showPanel(null)
    editorView()?.focus()
  }
  const title =
    panel === 'estimate'
      ? 'Estimate'
      : panel === 'claim'
        ? 'Claim'
        : panel === 'research'
          ? 'Deep research'
          : 'Check history'
  return (
    <aside
      className={`side-panel${panel === 'research' ? ' side-panel-wide' : ''}`}
      aria-label={title}
      // Focusable, for `focusPanel` when what had the focus inside is gone.
      tabIndex={-1}
      // Escape closes the panel and gives the keys back to the text (a question inside it answers first).
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || event.defaultPrevented) return
        close()
      }}
    >
      <div className="side-head">
        <h2>{title}</h2>
        <button type="button" className="close" aria-label="Close panel" onClick={close}>
          ×
        </button>
      </div>
      <div className="side-body">
        {panel === 'estimate' && estimate && <EstimateSummary estimate={estimate} />}
        {panel === 'claim' && <ClaimDetail api={api} />}
        {panel === 'research' && <ResearchPanel api={api} />}
        {panel === 'history' && <History api={api} />}
      </div>
    </aside>
  )
}

/// How many of an estimate's claims the panel lists before "Show all": thousands of buttons beside the text
/// slowed every keystroke of a long document.
const LISTED_CLAIMS = 100

/// Whether the balance covers an estimate, in words.
export function balanceWords(estimate: Estimate): string {
  return `Balance ${counted(estimate.balance, 'credit')}: ${
    estimate.sufficient
      ? 'enough for this check.'
      : `not enough — ${counted(estimate.credits.total - estimate.balance, 'more credit')} needed. Check will not submit.`
  }`
}

function EstimateSummary({ estimate }: { estimate: Estimate }): JSX.Element {
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
      <p className={estimate.sufficient ? 'sufficient' : 'insufficient'}>{balanceWords(estimate)}</p>
      <ol className="claim-list">
        {listed.map((claim) => (
          <li key={claim.claimId}>
            <button type="button" className="claim-link" onClick={() => revealClaim(claim.claimId)}>
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

function ClaimDetail({ api }: { api: FactdeskApi }): JSX.Element {
  const claimId = useChecks((store) => store.openClaim)
  const report = useChecks((store) => store.report)
  const claim = report?.claims.find((each) => each.claimId === claimId)
  const [confirming, setConfirming] = useState<Citation | null>(null)
  if (!claim) return <p className="muted">Loading the claim…</p>
  const statement = checkedAs(claim)
  const kept = keptSince(claim)
  return (
    <div className="claim-detail">
      <blockquote className="claim-text">{withoutInlineMarks(claim.text)}</blockquote>
      {kept && <p className="kept">Unchanged since the check of {kept}: its verdicts are kept.</p>}
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
        onClick={() => void useResearch.getState().ask(api, { claimId: claim.claimId, text: claim.text })}
      >
        Deep research…
      </button>
      <button
        type="button"
        className="button"
        title="Estimate the claims of the heading's section this claim is in; Check then checks only them"
        onClick={() => {
          const view = editorView()
          const range = view && claimRange(view.state.field(claimField), claim.claimId)
          void useChecks.getState().checkSection(api, range?.from)
        }}
      >
        Check this section
      </button>
      {TIERS.map((tier) => {
        const consensus = claim.consensus[tier]
        const votes = claim.evaluations.filter((evaluation) => evaluation.tier === tier)
        if (!consensus && votes.length === 0 && !report?.check.tiers.includes(tier)) return null
        return (
          <section key={tier} className="tier-section" aria-label={`Tier ${tier}`}>
            <h3>
              {tier}
              {consensus ? (
                <span className={`verdict verdict-${consensus.verdict}`}>{consensus.verdict}</span>
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
                {consensus.correction && <Correction claim={claim} correction={consensus.correction} />}
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

/// The verdict on each fact of a claim that states several, in one tier.
function Parts({ parts, tier }: { parts: ClaimPart[]; tier: Tier }): JSX.Element {
  return (
    <ul className="parts" aria-label="Parts">
      {parts.map((part) => {
        const verdict = part.consensus[tier]?.verdict
        return (
          <li key={part.statement}>
            <span className={`verdict${verdict ? ` verdict-${verdict}` : ''}`}>{verdict ?? 'pending'}</span>{' '}
            {part.statement}
          </li>
        )
      })}
    </ul>
  )
}

/// The suggested correction, shown word by word against the claim as checked (struck-out words and their
/// replacements), and applied as one undoable edit that changes only those words in the claim's current text:
/// the rest of the writer's sentence stays as written. A mark that no source confirmed them stays in the panel.
/// Once the claim reads as the correction (however it got there), it says so and offers Undo.
function Correction({ claim, correction }: { claim: Claim; correction: string }): JSX.Element {
  const { words, unverified } = correctionWords(correction)
  useDocument((store) => store.revision)
  const view = editorView()
  const range = view ? claimRange(view.state.field(claimField), claim.claimId) : undefined
  const current = view && range ? view.state.sliceDoc(range.from, range.to) : null
  const label = unverified ? 'Suggested (unverified): ' : 'Suggested: '
  // Read again on every keystroke (the revision above); the comparisons themselves only when the claim changes.
  const parts = useMemo(() => correctionParts(claim.text, words), [claim.text, words])
  // Applied once nothing is left to change: the writer's Markdown marks may stay around the corrected words.
  const applied = useMemo(
    () => current !== null && correctionParts(current, words).every((part) => 'same' in part),
    [current, words],
  )
  return (
    <div className="correction">
      <p aria-label={`${label}${words}`}>
        <span className="muted">{label}</span>
        {parts.map((part, index) =>
          'same' in part ? (
            <span key={index}>{part.same}</span>
          ) : (
            <span key={index}>
              {part.removed && <del>{part.removed}</del>}
              {part.added && <ins>{part.added}</ins>}
            </span>
          ),
        )}
      </p>
      {applied ? (
        <p role="status">
          Applied.{' '}
          <button type="button" className="claim-link" onClick={() => view && undo(view)}>
            Undo
          </button>
        </p>
      ) : (
        <button
          type="button"
          className="button"
          disabled={!range}
          title={range ? undefined : 'The claim is no longer in the text.'}
          onClick={() => {
            if (!view || !range || current === null) return
            view.dispatch({
              changes: correctionEdits(correctionParts(current, words), range.from),
              userEvent: 'input',
            })
            view.focus()
          }}
        >
          Apply
        </button>
      )}
    </div>
  )
}

function History({ api }: { api: FactdeskApi }): JSX.Element {
  const history = useChecks((store) => store.history)
  if (history.length === 0) return <p className="muted">No checks yet.</p>
  return (
    <ol className="history">
      {history.map((check) => (
        <HistoryEntry key={check.id} api={api} check={check} />
      ))}
    </ol>
  )
}

function HistoryEntry({ api, check }: { api: FactdeskApi; check: Check }): JSX.Element {
  const [editing, setEditing] = useState(false)
  const [fields, setFields] = useState({ name: '', author: '', sourceUrl: '' })
  const running = check.status === 'queued' || check.status === 'running'
  // The form takes the focus on opening (its Name), and gives it back to Edit details once saved or cancelled.
  const editButton = useRef<HTMLButtonElement>(null)
  const wasEditing = useRef(false)
  useEffect(() => {
    if (wasEditing.current && !editing && focusLost()) editButton.current?.focus()
    wasEditing.current = editing
  }, [editing])
  const label = check.name ?? `Check of ${new Date(check.createdAt).toLocaleString()}`
  return (
    <li className="history-entry" aria-label={label}>
      <div className="history-line">
        <strong>{label}</strong>
        <span className={`status status-${check.status}`}>{check.status}</span>
      </div>
      <div className="muted">
        {check.tiers.join(' + ')} · {counted(check.claimCount, 'claim')} ·{' '}
        {new Date(check.createdAt).toLocaleString()}
      </div>
      <div className="muted">
        Charged {counted(check.credits.charged, 'credit')} · refunded {formatted(check.credits.refunded)}
      </div>
      {check.author && <div className="muted">By {check.author}</div>}
      {check.sourceUrl && <div className="muted">{check.sourceUrl}</div>}
      {editing ? (
        <form
          className="metadata"
          aria-label="Details of the check"
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return
            event.preventDefault()
            setEditing(false)
          }}
          onSubmit={(event) => {
            event.preventDefault()
            const edits = {
              name: fields.name.trim() || null,
              author: fields.author.trim() || null,
              sourceUrl: fields.sourceUrl.trim() || null,
            }
            void useChecks
              .getState()
              .patch(api, check.id, edits)
              .then((saved) => saved && setEditing(false))
          }}
        >
          <label>
            Name{' '}
            <input
              value={fields.name}
              autoFocus
              onChange={(e) => setFields({ ...fields, name: e.target.value })}
            />
          </label>
          <label>
            Author
            <input value={fields.author} onChange={(e) => setFields({ ...fields, author: e.target.value })} />
          </label>
          <label>
            Source URL
            <input
              value={fields.sourceUrl}
              type="url"
              onChange={(e) => setFields({ ...fields, sourceUrl: e.target.value })}
            />
          </label>
          <div className="confirm-actions">
            <button type="button" className="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
            <button type="submit" className="button primary">
              Save
            </button>
          </div>
        </form>
      ) : (
        <div className="history-actions">
          <button
            type="button"
            className="button quiet"
            ref={editButton}
            onClick={() => {
              setFields({
                name: check.name ?? '',
                author: check.author ?? '',
                sourceUrl: check.sourceUrl ?? '',
              })
              setEditing(true)
            }}
          >
            Edit details
          </button>
          {running && (
            <button
              type="button"
              className="button"
              onClick={() => void useChecks.getState().cancel(api, check.id)}
            >
              Cancel check
            </button>
          )}
        </div>
      )}
    </li>
  )
}

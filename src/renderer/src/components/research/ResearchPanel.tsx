import type { JSX } from 'react'
import { ResearchStep } from '../../../../shared/schemas'
import { currentStep, STEP_NAMES, stepDone, type ResearchRun } from '../../state/research'
import { counted } from '../../../../shared/counted'
import { withoutInlineMarks } from '../../../../shared/markdown'
import { DETAIL_WORDS } from '../../../../shared/verdicts'
import { VOCABULARY } from '../../../../shared/vocabulary'
import { Confirmation } from '../Confirmation'
import { useDesk, useResearch } from '../useDesk'
import { focusPanel } from '../focus'
import { ArgumentMapTree } from './ArgumentMap'
import { percent, VotesTable } from './VotesTable'

/// Deep research in the side panel: the price against the balance to confirm, then the run's steps as they
/// end, then the finding with its argument map and the panel's votes.
export function ResearchPanel(): JSX.Element {
  const desk = useDesk()
  const view = useResearch((store) => store.view)
  const { confirm, dismiss } = desk.research.getState()
  if (!view) return <p className="muted">Choose a claim or select text, then press Deep research.</p>
  if (view.phase === 'run') return <RunView run={view.run} />
  if (view.phase === 'error') {
    return (
      <div className="research">
        {view.target && (
          <blockquote className="claim-text">{withoutInlineMarks(view.target.text)}</blockquote>
        )}
        <p className="insufficient" role="alert">
          {view.message}
        </p>
      </div>
    )
  }
  if (view.phase === 'pricing') {
    return (
      <div className="research">
        <blockquote className="claim-text">{withoutInlineMarks(view.target.text)}</blockquote>
        <p className="muted">Reading the price…</p>
      </div>
    )
  }
  const short = view.balance < view.price
  return (
    <div className="research">
      <blockquote className="claim-text">{withoutInlineMarks(view.target.text)}</blockquote>
      <Confirmation
        label="Confirm deep research"
        onCancel={dismiss}
        returnFocus={() => focusPanel(desk.view())}
      >
        <p>
          Deep research plans questions, searches the web for support and for contradiction, builds an
          argument map with verbatim-checked sources, lets every panel model vote on it and the judge decide.
        </p>
        <table className="price-table">
          <tbody>
            <tr>
              <th scope="row">Price</th>
              <td className="research-price">{counted(view.price, 'credit')}, flat</td>
            </tr>
            <tr>
              <th scope="row">Balance</th>
              <td>{counted(view.balance, 'credit')}</td>
            </tr>
          </tbody>
        </table>
        <p className={short ? 'insufficient' : 'sufficient'} role="status">
          {short
            ? `Not enough credits: ${counted(view.price - view.balance, 'more credit')} needed. Nothing will be sent.`
            : 'Charged when the research starts; refunded if it fails.'}
        </p>
        <div className="confirm-actions">
          {/* The dialog takes the focus: on Cancel when nothing can be sent, else on its answer. */}
          <button type="button" className="button" onClick={dismiss} autoFocus={short}>
            Cancel
          </button>
          <button
            type="button"
            className="button primary"
            autoFocus={!short}
            disabled={short || view.phase === 'starting'}
            onClick={() => {
              // The run's progress is read out in the panel: the keys stay there rather than going back to the
              // text the research was asked from.
              focusPanel(desk.view())
              void confirm()
            }}
          >
            {view.phase === 'starting' ? 'Starting…' : `Research for ${counted(view.price, 'credit')}`}
          </button>
        </div>
      </Confirmation>
    </div>
  )
}

/// A run: its steps as they end, then its finding with the argument map and the panel's votes.
export function RunView({ run }: { run: ResearchRun }): JSX.Element {
  const { research } = run
  const current = currentStep(run)
  const result = research.result
  const statusText = `${
    research.status === 'completed'
      ? 'Research completed'
      : research.status === 'failed'
        ? 'Research failed'
        : research.status === 'queued'
          ? 'Waiting to start'
          : `Researching: ${current ? STEP_NAMES[current] : '…'}`
  } · ${counted(run.sourcesRead, 'source')} read`
  // Shown where the steps are; read out from one live region that stays while the run is shown (the shown
  // line moves into the folded steps' summary once the finding is in).
  const status = <span className="research-status">{statusText}</span>
  const steps = (
    <ol className="research-steps" aria-label="Research steps">
      {ResearchStep.options.map((step) => {
        const done = stepDone(run, step)
        const now = step === current
        return (
          <li
            key={step}
            className={done ? 'step-done' : now ? 'step-current' : 'step-waiting'}
            aria-current={now ? 'step' : undefined}
          >
            <span aria-hidden="true" className="step-icon">
              {done ? '✓' : now ? '◐' : '○'}
            </span>
            {STEP_NAMES[step]}
            <span className="visually-hidden">{done ? ' (done)' : now ? ' (in progress)' : ''}</span>
          </li>
        )
      })}
    </ol>
  )
  return (
    <div className="research">
      <span className="visually-hidden" role="status">
        {statusText}
      </span>
      <blockquote className="claim-text">{withoutInlineMarks(research.text)}</blockquote>
      {result ? (
        // Once the finding is in, the steps fold away under the status line.
        <details className="research-progress">
          <summary>{status}</summary>
          {steps}
        </details>
      ) : (
        <section aria-label="Research progress" className="research-progress">
          {status}
          {steps}
        </section>
      )}
      {research.status === 'failed' && (
        <p className="insufficient" role="alert">
          {research.error?.message || 'The research failed.'} {counted(research.credits.refunded, 'credit')}{' '}
          refunded.
        </p>
      )}
      {result && (
        <>
          <section aria-label="Finding" className="research-finding">
            <h3>
              Verdict{' '}
              <span className={`verdict verdict-${result.verdict}`}>{VOCABULARY[result.verdict].short}</span>
              {result.detail && <span className="detail">: {DETAIL_WORDS[result.detail]}</span>}
            </h3>
            <p className="numbers">Confidence {percent(result.confidence)}</p>
            <p className="reasoning">{result.summary}</p>
          </section>
          <section aria-label="Argument map" className="research-map">
            <h3>Argument map</h3>
            <ArgumentMapTree map={result.argumentMap} />
          </section>
          <VotesTable caption="Panel votes on the map" votes={result.votes} />
        </>
      )}
    </div>
  )
}

import type { JSX } from 'react'
import { counted, formatted } from '../../../../shared/counted'
import { withoutInlineMarks } from '../../../../shared/markdown'
import type { Check, Research } from '../../../../shared/schemas'
import { writtenMoment } from '../../dates'
import { useChecks } from '../useDesk'
import { HistoryEntry } from './HistoryEntry'

/// The checks and deep research runs made so far, newest first.
export function History(): JSX.Element {
  const history = useChecks((store) => store.history)
  const research = useChecks((store) => store.researchHistory)
  const entries: ({ check: Check } | { research: Research })[] = [
    ...history.map((check) => ({ check })),
    ...research.map((run) => ({ research: run })),
  ]
  const createdAt = (entry: (typeof entries)[number]): string =>
    'check' in entry ? entry.check.createdAt : entry.research.createdAt
  entries.sort((a, b) => (createdAt(a) < createdAt(b) ? 1 : -1))
  if (entries.length === 0) return <p className="muted">No checks yet.</p>
  return (
    <ol className="history">
      {entries.map((entry) =>
        'check' in entry ? (
          <HistoryEntry key={entry.check.id} check={entry.check} />
        ) : (
          <ResearchEntry key={entry.research.id} research={entry.research} />
        ),
      )}
    </ol>
  )
}

/// One deep research run of the history: what it researched, how it ended and what it cost.
function ResearchEntry({ research }: { research: Research }): JSX.Element {
  const label = `Deep research: ${withoutInlineMarks(research.text)}`
  return (
    <li className="history-entry" aria-label={label}>
      <div className="history-line">
        <strong>{label}</strong>
        <span className={`status status-${research.status}`}>{research.status}</span>
      </div>
      <div className="muted">{writtenMoment(research.createdAt)}</div>
      <div className="muted">
        Charged {counted(research.credits.charged, 'credit')} · refunded{' '}
        {formatted(research.credits.refunded)}
      </div>
      {research.error && <div className="muted">{research.error.message}</div>}
    </li>
  )
}

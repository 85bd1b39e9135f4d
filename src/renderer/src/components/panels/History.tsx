import type { JSX } from 'react'
import { useChecks } from '../../state/checks'
import { HistoryEntry } from './HistoryEntry'

/// The checks made so far, newest first.
export function History(): JSX.Element {
  const history = useChecks((store) => store.history)
  if (history.length === 0) return <p className="muted">No checks yet.</p>
  return (
    <ol className="history">
      {history.map((check) => (
        <HistoryEntry key={check.id} check={check} />
      ))}
    </ol>
  )
}

import type { JSX } from 'react'
import { useDesk, usePending } from './useDesk'

/// "Waiting to check (n)": the checks queued to run when online, each (a manuscript once, with its parts) with its tiers, why it waits and Cancel.
export function PendingChecks(): JSX.Element | null {
  const desk = useDesk()
  const waiting = usePending((store) => store.waiting)
  const open = usePending((store) => store.open)
  const { toggle, cancel } = desk.pending.getState()
  if (waiting.length === 0) return null
  return (
    <div className="pending">
      <button
        type="button"
        className={`button quiet pending-toggle${open ? ' on' : ''}`}
        aria-expanded={open}
        aria-controls="pending-list"
        onClick={toggle}
        title="Checks that start by themselves when the models and search can be reached"
      >
        Waiting to check ({waiting.length})
      </button>
      {open && (
        <ul id="pending-list" className="pending-list" aria-label="Waiting to check">
          {waiting.map((pending) => (
            <li key={pending.id}>
              <span className="pending-label">{pending.label}</span>
              {pending.manuscript && (
                <span className="pending-parts">in {pending.manuscript.parts} parts</span>
              )}
              <span className="pending-tiers">{pending.tiers.join(', ')}</span>
              {pending.lastError && (
                <span className="pending-why" title={pending.lastError}>
                  {pending.attempts === 1 ? 'tried once' : `tried ${pending.attempts} times`}
                </span>
              )}
              <button
                type="button"
                className="button quiet"
                aria-label={`Cancel the check of ${pending.label}`}
                onClick={() => void cancel(pending.id)}
              >
                Cancel
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

import { useEffect, useRef, useState, type JSX } from 'react'
import { counted, formatted } from '../../../../shared/counted'
import type { Check } from '../../../../shared/schemas'
import { writtenMoment } from '../../dates'
import { useDesk } from '../useDesk'
import { focusLost } from '../focus'

/// One check of the history: what it checked and cost, its details (editable), Open (its text and verdicts in a new
/// draft), and Cancel while it runs.
export function HistoryEntry({ check }: { check: Check }): JSX.Element {
  const { checks, drafts } = useDesk()
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
  const label = check.name ?? `Check of ${writtenMoment(check.createdAt)}`
  return (
    <li className="history-entry" aria-label={label}>
      <div className="history-line">
        <strong>{label}</strong>
        <span className={`status status-${check.status}`}>{check.status}</span>
      </div>
      <div className="muted">
        {check.tiers.join(' + ')} · {counted(check.claimCount, 'claim')} ·{' '}
        {check.manuscript && `in ${counted(check.manuscript.parts, 'part')} · `}
        {writtenMoment(check.createdAt)}
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
            void checks
              .getState()
              .patch(check.id, edits)
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
          <button
            type="button"
            className="button quiet"
            onClick={() => void drafts.getState().openCheck(check.id)}
          >
            Open in a new draft
          </button>
          {running && (
            <button type="button" className="button" onClick={() => void checks.getState().cancel(check.id)}>
              Cancel check
            </button>
          )}
        </div>
      )}
    </li>
  )
}

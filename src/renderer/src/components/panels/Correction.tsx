import { undo } from '@codemirror/commands'
import { useMemo, type JSX } from 'react'
import { correctionEdits, correctionParts, correctionWords } from '../../../../shared/corrections'
import type { Claim } from '../../../../shared/schemas'
import { claimField, claimRange } from '../../editor/claims'
import { useDocument } from '../../state/document'
import { useDesk } from '../useDesk'

/// The suggested correction, shown word by word against the claim as checked (struck-out words and their
/// replacements), and applied as one undoable edit that changes only those words in the claim's current text:
/// the rest of the writer's sentence stays as written. A mark that no source confirmed them stays in the panel.
/// Once the claim reads as the correction (however it got there), it says so and offers Undo.
export function Correction({ claim, correction }: { claim: Claim; correction: string }): JSX.Element {
  const { words, unverified } = correctionWords(correction)
  useDocument((store) => store.revision)
  const view = useDesk().view()
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

import type { JSX } from 'react'
import type { ClaimPart, Tier } from '../../../../shared/schemas'
import { VOCABULARY } from '../../../../shared/vocabulary'

/// The verdict on each fact of a claim that states several, in one tier.
export function Parts({ parts, tier }: { parts: ClaimPart[]; tier: Tier }): JSX.Element {
  return (
    <ul className="parts" aria-label="Parts">
      {parts.map((part) => {
        const verdict = part.consensus[tier]?.verdict
        return (
          <li key={part.statement}>
            <span className={`verdict${verdict ? ` verdict-${verdict}` : ''}`}>
              {verdict ? VOCABULARY[verdict].short : 'pending'}
            </span>{' '}
            {part.statement}
          </li>
        )
      })}
    </ul>
  )
}

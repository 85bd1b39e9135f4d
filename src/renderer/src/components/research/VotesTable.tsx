import type { JSX } from 'react'
import type { Verdict } from '../../../../shared/schemas'

/// A share as a whole percentage.
export const percent = (value: number): string => `${Math.round(value * 100)}%`

/// Each model's vote: verdict (as a word, coloured), confidence and rationale.
export function VotesTable({
  caption,
  votes,
}: {
  caption: string
  votes: readonly {
    model: string
    verdict: Verdict | 'clean' | 'issues'
    confidence: number
    rationale: string
  }[]
}): JSX.Element {
  return (
    <table className="votes">
      <caption>{caption}</caption>
      <tbody>
        {votes.map((vote) => (
          <tr key={vote.model}>
            <th scope="row">{vote.model}</th>
            <td className={`verdict-${vote.verdict}`}>{vote.verdict}</td>
            <td>{percent(vote.confidence)}</td>
            <td>{vote.rationale}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

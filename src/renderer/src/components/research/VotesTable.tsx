import type { JSX } from 'react'
import type { Verdict, VerdictDetail } from '../../../../shared/schemas'
import { DETAIL_WORDS } from '../../../../shared/verdicts'
import { VOCABULARY } from '../../../../shared/vocabulary'

/// A share as a whole percentage.
export const percent = (value: number): string => `${Math.round(value * 100)}%`

/// Each model's vote: verdict (as a word, coloured, with its kind: "misleading: partly true"), confidence and
/// rationale.
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
    detail?: VerdictDetail | null
  }[]
}): JSX.Element {
  return (
    <table className="votes">
      <caption>{caption}</caption>
      <tbody>
        {votes.map((vote) => (
          <tr key={vote.model}>
            <th scope="row">{vote.model}</th>
            <td className={`verdict-${vote.verdict}`}>
              {vote.detail
                ? `${VOCABULARY[vote.verdict].short}: ${DETAIL_WORDS[vote.detail]}`
                : VOCABULARY[vote.verdict].short}
            </td>
            <td>{percent(vote.confidence)}</td>
            <td>{vote.rationale}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

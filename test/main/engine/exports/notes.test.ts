import { parseHTML } from 'linkedom'
import { describe, expect, it } from 'vitest'
import { toHtml } from '../../../../src/main/engine/exports/html'
import { toMarkdown } from '../../../../src/main/engine/exports/markdown'
import type { Consensus, Report } from '../../../../src/shared/schemas'
import { decision, evaluation } from '../../../helpers/resources'
import { fixtureReport } from './fixture'

// A verdict its verified quotes did not bear out is unverifiable, with the judge's first reasoning kept and t3's
// note after it: the export's note must say why it is unverifiable, not the reasoning that argued otherwise.
const OVERRULED =
  'The retrieved sources confirm this claim. The tower was measured in 2022. ' +
  '(Unverifiable: no verified quote supports the claim.)'

function overruledReport(): Report {
  const report = fixtureReport()
  const [first, ...rest] = report.claims
  const t2 = first!.consensus.t2 as Consensus
  const consensus = {
    ...t2,
    verdict: 'unverifiable',
    detail: 'no_evidence',
    correction: null,
    reasoning: OVERRULED,
  }
  return {
    ...report,
    claims: [{ ...first!, consensus: { ...first!.consensus, t2: consensus } }, ...rest],
  } as Report
}

// An unverifiable claim has a note of its own when every claim is noted (by default it is listed at the end).
describe('an export note of a verdict the quotes did not bear out', () => {
  it('says why it is unverifiable, and gives the judge’s first reading only as such (Markdown)', () => {
    const markdown = toMarkdown(overruledReport(), 'all')
    const note = markdown
      .split('\n')
      .find((line) => /UNVERIFIABLE|Unverifiable/.test(line) && /quote/.test(line))
    expect(note).toContain('No verified quote supports the claim.')
    expect(note).not.toContain('confirm this claim')
    expect(markdown).toContain(
      'The judge first read it otherwise, on quotes that were not verified: The retrieved sources confirm this ' +
        'claim. The tower was measured in 2022.',
    )
  })

  it('the same in HTML: the line after the verdict never contradicts it', () => {
    const { document } = parseHTML(toHtml(overruledReport(), 'all'))
    const note = document.querySelector('li.note[data-claim-id="clm_1"]')
    const line = note?.querySelector('.reasoning')?.textContent ?? ''
    expect(line).toBe('No verified quote supports the claim.')
    expect(document.body.textContent).toContain('The judge first read it otherwise')
  })
})

// A panel that agreed decides without the judge; its reasoning opens with the count of its votes, which says
// nothing of the claim. The note's line is the surest agreeing panelist's own reason, in its last round.
function panelReport(decidedBy: 'panel' | 'majority'): Report {
  const report = fixtureReport()
  const [first, ...rest] = report.claims
  const vote = (
    model: string,
    verdict: 'refuted' | 'supported',
    confidence: number,
    round: number,
    why: string,
  ) =>
    evaluation({
      tier: 't2',
      model,
      verdict,
      confidence,
      round,
      rationale: why,
      createdAt: '2026-01-01T00:00:00.000Z',
    })
  const votes = [
    vote('model-a', 'refuted', 0.99, 1, 'Round one: the tower is 300 metres without its antennas.'),
    vote('model-a', 'refuted', 0.7, 2, 'It is 330 metres with antennas. Measured in 2022.'),
    vote(
      'model-b',
      'refuted',
      0.95,
      2,
      'The Eiffel Tower is 300 metres tall, 330 with its antennas. Since 2022.',
    ),
    vote('model-c', 'supported', 0.99, 2, 'It is 330 metres.'),
  ]
  const t2 = decision({
    verdict: 'refuted',
    confidence: 0.8,
    reasoning: `${decidedBy === 'panel' ? 'The 3 panelists agreed after their debate.' : '2 of the 3 panelists found it refuted.'} ${votes.map((each) => each.rationale).join(' ')}`,
    decidedAt: '2026-01-01T00:00:00.000Z',
    decidedBy,
  })
  return {
    ...report,
    claims: [{ ...first!, evaluations: votes, consensus: { ...first!.consensus, t2 } }, ...rest],
  } as Report
}

describe('the one line of reason of a decision the panel made without the judge', () => {
  it.each(['panel', 'majority'] as const)(
    'is the surest agreeing panelist’s last reason (%s)',
    (decidedBy) => {
      const { document } = parseHTML(toHtml(panelReport(decidedBy)))
      const line = document.querySelector('li.note[data-claim-id="clm_1"] .reasoning')?.textContent
      expect(line).toBe('The Eiffel Tower is 300 metres tall, 330 with its antennas.')
      const markdown = toMarkdown(panelReport(decidedBy))
      expect(markdown).toContain(
        '**Refuted**: The Eiffel Tower is 300 metres tall, 330 with its antennas. (t2',
      )
      expect(markdown).not.toMatch(/\*\*Refuted\*\*: (?:The 3|2 of the 3) panelists/)
    },
  )
})

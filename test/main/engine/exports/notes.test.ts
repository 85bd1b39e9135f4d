import { parseHTML } from 'linkedom'
import { describe, expect, it } from 'vitest'
import { toHtml } from '../../../../src/main/engine/exports/html'
import { toMarkdown } from '../../../../src/main/engine/exports/markdown'
import type { Consensus, Report } from '../../../../src/shared/schemas'
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

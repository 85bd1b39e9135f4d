// What stands behind a verdict, as the claim panel, the badges' titles and the exports say it
// (src/shared/verdicts.ts): agreement and sources, or the calibrated confidence when a map gave one.
import { describe, expect, it } from 'vitest'
import { verdictBasis, verdictNote } from '../../src/shared/verdicts'
import { decision } from '../helpers/resources'

const decided = decision({
  verdict: 'supported',
  confidence: 0.95,
  agreement: 0.67,
  reasoning: 'Both sources say so.',
  decidedAt: '2026-01-01T00:00:00.000Z',
  sourced: true,
  sources: 2,
  decidedBy: 'judge',
})

describe('verdictBasis', () => {
  it('without a calibration map: the sources, who decided and the agreement; never the judge’s confidence', () => {
    expect(verdictBasis(decided)).toBe('2 distinct sources · decided by the judge · agreement 67%')
    expect(verdictBasis(decided)).not.toMatch(/95|confidence/)
  })

  it('with one: the calibrated confidence in place of the agreement', () => {
    const calibrated = { ...decided, calibratedConfidence: 0.814 }
    expect(verdictBasis(calibrated)).toBe(
      '2 distinct sources · decided by the judge · calibrated confidence 81%',
    )
    expect(
      verdictNote({ ...calibrated, verdict: 'misleading', detail: 'missing_context', sourced: false }),
    ).toBe(
      'missing context · Unsourced: the models’ judgement · decided by the judge · calibrated confidence 81%',
    )
  })

  it('says nothing for t1, whose rules have no panel', () => {
    expect(verdictBasis({ ...decided, decidedBy: null, calibratedConfidence: 0.5 })).toBeNull()
  })
})

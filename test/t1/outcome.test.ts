import { describe, expect, it } from 'vitest'
import { corrected, t1Outcome } from '../../src/main/engine/tiers/t1/outcome'
import type { Finding } from '../../src/main/engine/tiers/t1'

const AT = '2026-01-01T00:00:00.000Z'
const brwon: Finding = {
  charStart: 4,
  charEnd: 9,
  message: 'Did you mean `brown`?',
  suggestions: ['brown'],
  rule: 'SpellCheck',
}

describe('t1Outcome', () => {
  it('moves issues into the offsets of the submitted text and finds issues', () => {
    const claim = { text: 'The brwon fox.', charStart: 100 }
    const { issues, evaluation, consensus } = t1Outcome(
      claim,
      { model: 'harper.js 2.10.0', findings: [brwon] },
      AT,
    )
    expect(issues).toEqual([{ ...brwon, charStart: 104, charEnd: 109 }])
    expect(evaluation).toMatchObject({
      tier: 't1',
      model: 'harper.js 2.10.0',
      verdict: 'issues',
      createdAt: AT,
    })
    expect(consensus).toMatchObject({ verdict: 'issues', correction: 'The brown fox.', decidedAt: AT })
  })

  it('calls a claim without findings clean', () => {
    const { issues, consensus } = t1Outcome({ text: 'Fine.', charStart: 0 }, { model: 'm', findings: [] }, AT)
    expect(issues).toEqual([])
    expect(consensus).toMatchObject({ verdict: 'clean', correction: null })
  })
})

describe('corrected', () => {
  it('applies first suggestions, deletions, and skips overlapping findings', () => {
    const text = 'I ate a apple  today.'
    const findings: Finding[] = [
      { charStart: 6, charEnd: 7, message: '', suggestions: ['an'], rule: 'AnA' },
      { charStart: 6, charEnd: 13, message: '', suggestions: ['x'], rule: 'Overlap' },
      { charStart: 13, charEnd: 14, message: '', suggestions: [''], rule: 'Spaces' },
      { charStart: 0, charEnd: 1, message: '', suggestions: [], rule: 'NoSuggestion' },
    ]
    expect(corrected(text, findings)).toBe('I ate an apple today.')
  })
})

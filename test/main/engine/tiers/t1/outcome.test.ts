import { describe, expect, it } from 'vitest'
import { corrected, t1Outcome } from '../../../../../src/main/engine/tiers/t1/outcome'
import type { Finding } from '../../../../../src/main/engine/tiers/t1'

const AT = '2026-01-01T00:00:00.000Z'
const brwon: Finding = {
  charStart: 4,
  charEnd: 9,
  message: 'Did you mean `brown`?',
  suggestions: ['brown'],
  rule: 'SpellCheck',
  spelling: true,
}

describe('t1Outcome', () => {
  it('moves issues into the offsets of the submitted text and finds issues', () => {
    const claim = { text: 'The brwon fox.', charStart: 100 }
    const { issues, evaluation, consensus } = t1Outcome(
      claim,
      { model: 'harper.js 2.10.0', findings: [brwon] },
      AT,
      `${'x. '.repeat(33)} The brwon fox.`,
    )
    expect(issues).toEqual([{ ...brwon, charStart: 104, charEnd: 109 }])
    expect(evaluation).toMatchObject({
      tier: 't1',
      model: 'harper.js 2.10.0',
      verdict: 'issues',
      createdAt: AT,
      // The messages as plain words: the reasoning is shown where code cannot be.
      rationale: 'Did you mean brown?',
    })
    expect(consensus).toMatchObject({ verdict: 'issues', correction: 'The brown fox.', decidedAt: AT })
  })

  it('calls a claim without findings clean', () => {
    const { issues, consensus } = t1Outcome(
      { text: 'Fine.', charStart: 0 },
      { model: 'm', findings: [] },
      AT,
      'Fine.',
    )
    expect(issues).toEqual([])
    expect(consensus).toMatchObject({ verdict: 'clean', correction: null })
  })

  it('asks for a capital only of a claim that begins a sentence, not of a clause cut from one', () => {
    const capital: Finding = {
      charStart: 0,
      charEnd: 8,
      message: 'This sentence does not start with a capital letter',
      suggestions: ['Finished'],
      rule: 'SentenceCapitalization',
      spelling: false,
    }
    const claim = 'finished the work in 1889'
    const outcome = (text: string) =>
      t1Outcome(
        { text: claim, charStart: text.indexOf(claim) },
        { model: 'm', findings: [capital] },
        AT,
        text,
      )
    expect(outcome(`Eiffel drew the plans in 1884, and ${claim}.`).consensus).toMatchObject({
      verdict: 'clean',
      correction: null,
    })
    for (const text of [claim, `It rained. ${claim}.`, `# Notes\n\n- ${claim}`, `He said "no." ${claim}`]) {
      expect(outcome(text).consensus, text).toMatchObject({
        verdict: 'issues',
        correction: 'Finished the work in 1889',
      })
    }
  })
})

describe('corrected', () => {
  it('applies first suggestions, deletions, and skips overlapping findings', () => {
    const text = 'I ate a apple  today.'
    const findings: Finding[] = [
      { charStart: 6, charEnd: 7, message: '', suggestions: ['an'], rule: 'AnA', spelling: false },
      { charStart: 6, charEnd: 13, message: '', suggestions: ['x'], rule: 'Overlap', spelling: false },
      { charStart: 13, charEnd: 14, message: '', suggestions: [''], rule: 'Spaces', spelling: false },
      { charStart: 0, charEnd: 1, message: '', suggestions: [], rule: 'NoSuggestion', spelling: false },
    ]
    expect(corrected(text, findings)).toBe('I ate an apple today.')
  })

  it('leaves an unknown word in capitals as it is (a name, most likely), and is null when nothing changes', () => {
    const text = 'The railway reached Millbrook in 1871 and Brisol in 1872.'
    const spelling = (word: string, suggestion: string): Finding => ({
      charStart: text.indexOf(word),
      charEnd: text.indexOf(word) + word.length,
      message: '',
      suggestions: [suggestion],
      rule: 'SpellCheck',
      spelling: true,
    })
    expect(corrected(text, [spelling('Millbrook', 'Billhook')])).toBeNull()
    expect(corrected(text, [spelling('Millbrook', 'Billhook'), spelling('railway', 'railroad')])).toBe(
      'The railroad reached Millbrook in 1871 and Brisol in 1872.',
    )
  })
})

// The robustness bench (`npm run bench -- robustness`) on three claims: its rows have the shape the bench
// reports, the exact answers give the same verdicts twice, and a model whose answers change the verdicts is
// counted as such. The slips themselves: each changes an exact answer the way its name says.
import { describe, expect, it } from 'vitest'
import { labelledClaims, robustness } from '../../bench/robustness'
import type { RecordedRequest } from '../helpers/fakeOpenAI'
import { ALL_SLIPS, SLIPS, type Slip } from '../helpers/slips'

/// A model that has every verdict unverifiable, whatever it read.
const neverSure: Slip = {
  answer: (exact) => ({ ...(exact as object), verdict: 'unverifiable', detail: 'no_evidence' }),
}

describe('npm run bench -- robustness', () => {
  it('compares each run’s t2 and t3 verdicts with the exact run’s, with its requests per claim', async () => {
    const result = await robustness({
      claims: 3,
      runs: [
        ['quotes with a doubled space', [SLIPS['quotes with a doubled space']]],
        ['never sure', [neverSure]],
      ],
    })
    expect(result.rows.map((row) => row.slip)).toEqual([
      'none (exact answers again)',
      'quotes with a doubled space',
      'never sure',
    ])
    for (const row of result.rows) {
      expect(row.claims).toBe(3)
      for (const share of [row.t2Same, row.t3Same]) {
        expect(share).toBeGreaterThanOrEqual(0)
        expect(share).toBeLessThanOrEqual(1)
      }
      expect(row.t2RequestsPerClaim).toBeGreaterThan(0)
      expect(row.t3RequestsPerClaim).toBeGreaterThan(row.t2RequestsPerClaim)
    }
    // The same exact answers give the same verdicts; the oracle's verdicts are the claims' labels.
    expect(result.rows[0]).toMatchObject({ t2Same: 1, t3Same: 1 })
    expect(result.exactMatchesLabels).toEqual({ t2: 1, t3: 1 })
    // A model that is never sure changes every verdict of these claims (each true or false).
    expect(result.rows[2]).toMatchObject({ t2Same: 0, t3Same: 0 })
  }, 120_000)
})

describe('slips', () => {
  const request = (quotes: Array<{ id: string; quote: string }>): RecordedRequest =>
    ({
      user: `<<<DOCUMENT_DATA\n${JSON.stringify({ claim: 'c', quotes })}\nDOCUMENT_DATA>>>`,
    }) as RecordedRequest
  const answer = {
    passages: ['P2', 'P1'],
    read: ['R1'],
    citations: [{ passage: 'P1', quote: "The bridge's span opened in 1889." }],
    confidence: 0.8,
    verdict: 'supported',
    stances: [{ quote: 'Q1', reasoning: 'r', stance: 'supports' }],
  }
  const slipped = (slip: Slip) => slip.answer?.(answer, request([{ id: 'Q1', quote: 'The words.' }]))

  it('each changes the exact answer as its name says', () => {
    expect(slipped(SLIPS['passage ids written Passage 1'])).toMatchObject({
      passages: ['Passage 2', 'Passage 1'],
      citations: [{ passage: 'Passage 1' }],
      read: ['R1'],
    })
    expect(slipped(SLIPS['passage ids written [P1]'])).toMatchObject({ passages: ['[P2]', '[P1]'] })
    expect(slipped(SLIPS['passage ids written P1.'])).toMatchObject({ passages: ['P2.', 'P1.'] })
    expect(slipped(SLIPS['passage ids written p1'])).toMatchObject({ passages: ['p2', 'p1'] })
    expect(slipped(SLIPS['result ids written r1'])).toMatchObject({ read: ['r1'], passages: ['P2', 'P1'] })
    expect(slipped(SLIPS['result ids written Result 1'])).toMatchObject({ read: ['Result 1'] })
    expect(slipped(SLIPS['stance entries naming the quote by its words'])).toMatchObject({
      stances: [{ quote: 'The words.', stance: 'supports' }],
    })
    expect(slipped(SLIPS['quotes with curly apostrophes and quotation marks'])).toMatchObject({
      citations: [{ quote: 'The bridge’s span opened in 1889.' }],
    })
    expect(slipped(SLIPS['quotes with a doubled space'])).toMatchObject({
      citations: [{ quote: "The  bridge's span opened in 1889." }],
    })
    expect(slipped(SLIPS['quotes without their final full stop'])).toMatchObject({
      citations: [{ quote: "The bridge's span opened in 1889" }],
    })
    expect(slipped(SLIPS['verdicts and stances capitalised'])).toMatchObject({
      verdict: 'Supported',
      stances: [{ stance: 'Supports' }],
    })
    expect(slipped(SLIPS['confidence in percent'])).toMatchObject({ confidence: 80 })
    expect(SLIPS['JSON in code fences'].text?.('{}')).toBe('Here is the JSON:\n```json\n{}\n```')
    const claim = { claim: 'The bridge opened in 1889.', before: [], after: [], title: null }
    const unrelated: Slip = SLIPS['resolver answers unrelated to the claim']
    expect(unrelated.resolve?.({ statement: claim.claim }, claim)).toEqual({
      statement: 'Rewrite the claim as one statement.',
      parts: null,
    })
  })

  it('all together, every form of an id is written', () => {
    const many = { passages: ['P1', 'P2', 'P3', 'P4'], read: ['R1', 'R2'] }
    const slipped = ALL_SLIPS.reduce<unknown>(
      (value, slip) => slip.answer?.(value, request([])) ?? value,
      many,
    )
    expect(slipped).toEqual({ passages: ['P1.', 'p2', '[P3]', 'Passage 4'], read: ['Result 1', 'r2'] })
  })

  it('the bench’s claims are half true, half false, each with the quote that settles it on its page', () => {
    const claims = labelledClaims()
    expect(claims).toHaveLength(24)
    expect(claims.filter((claim) => claim.verdict === 'supported')).toHaveLength(12)
    for (const claim of claims) expect(claim.paragraphs[0]).toContain(claim.quote)
  })
})

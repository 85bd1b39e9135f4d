import { describe, expect, it } from 'vitest'
import { barWords, verdictBar } from '../../src/shared/verdictBar'

describe('the verdict bar', () => {
  it('gives each verdict its share of the bar, in the order given, together exactly 100', () => {
    const parts = verdictBar([
      { term: 'supported', count: 30 },
      { term: 'refuted', count: 0 },
      { term: 'unverifiable', count: 10 },
    ])
    expect(parts).toEqual([
      { term: 'supported', count: 30, x: 0, width: 75 },
      { term: 'unverifiable', count: 10, x: 75, width: 25 },
    ])
  })

  it('keeps one claim among many visible, the others giving way in proportion', () => {
    const parts = verdictBar([
      { term: 'supported', count: 150 },
      { term: 'refuted', count: 1 },
      { term: 'unverifiable', count: 49 },
    ])
    expect(parts.map(({ term }) => term)).toEqual(['supported', 'refuted', 'unverifiable'])
    const [supported, refuted, unverifiable] = parts
    expect(refuted?.width).toBe(2)
    // 98 left for 199 claims, shared 150 : 49.
    expect(supported?.width).toBeCloseTo((150 / 199) * 98, 1)
    expect(unverifiable?.width).toBeCloseTo((49 / 199) * 98, 1)
    expect(parts.reduce((sum, { width }) => sum + width, 0)).toBeCloseTo(100, 9)
    expect(unverifiable?.x).toBeCloseTo((supported?.width ?? 0) + 2, 9)
  })

  it('has no parts without claims, and says itself in the vocabulary’s words', () => {
    expect(verdictBar([{ term: 'supported', count: 0 }])).toEqual([])
    expect(
      barWords([
        { term: 'refuted', count: 3 },
        { term: 'disputed', count: 1 },
      ]),
    ).toBe('Refuted 3, Check by hand 1')
  })
})

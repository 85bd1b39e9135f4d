import { describe, expect, it } from 'vitest'
import { detokenise, parseM2, toTokens, touches } from '../../../../../eval/grammar'

// The measure behind `npm run eval -- grammar`: M2 spans, running text, and which flags hit which edits.

const M2 = `S For not use car .
A 1 2|||Rp|||to|||REQUIRED|||-NONE-|||0
A 3 3|||Ins|||a|||REQUIRED|||-NONE-|||1
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||2

S Fine .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
`

describe('the grammar eval', () => {
  it('reads sentences and each annotator’s edits, skipping noop', () => {
    const [first, second] = parseM2(M2, 'test.m2')
    expect(first?.tokens).toEqual(['For', 'not', 'use', 'car', '.'])
    expect([...(first?.edits ?? [])]).toEqual([
      [0, [{ start: 1, end: 2 }]],
      [1, [{ start: 3, end: 3 }]],
    ])
    expect(second?.edits.size).toBe(0)
  })

  it('joins tokens as running text and keeps where each token is', () => {
    const { text, offsets } = detokenise(['I', 'do', "n't", 'know', '(', 'yet', ')', ',', 'sir', '.'])
    expect(text).toBe("I don't know (yet), sir.")
    expect(offsets.map(({ start, end }) => text.slice(start, end))).toEqual([
      'I',
      'do',
      "n't",
      'know',
      '(',
      'yet',
      ')',
      ',',
      'sir',
      '.',
    ])
  })

  it('maps a character range to the tokens it touches, or to the gap it sits in', () => {
    const { offsets } = detokenise(['For', 'not', 'use', 'car', '.'])
    expect(toTokens(offsets, 4, 7)).toEqual({ start: 1, end: 2 })
    expect(toTokens(offsets, 5, 11)).toEqual({ start: 1, end: 3 })
    expect(toTokens(offsets, 11, 12)).toEqual({ start: 3, end: 3 })
    expect(toTokens(offsets, 4, 4)).toEqual({ start: 1, end: 2 })
  })

  it('counts overlap, and an insertion touching the tokens it borders', () => {
    expect(touches({ start: 1, end: 2 }, { start: 1, end: 3 })).toBe(true)
    expect(touches({ start: 1, end: 2 }, { start: 2, end: 3 })).toBe(false)
    expect(touches({ start: 3, end: 3 }, { start: 2, end: 3 })).toBe(true)
    expect(touches({ start: 3, end: 3 }, { start: 4, end: 5 })).toBe(false)
  })
})

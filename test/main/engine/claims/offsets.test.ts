import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CHECKWORTHY_THRESHOLD, extractClaims, type ExtractedClaim } from '../../../../src/main/engine/claims'

// Pieces that random texts are made of: prose with facts in it, and what makes offsets hard (characters
// outside the BMP, joiners, combining marks, CJK, CRLF) or Markdown that must stay out of claims.
const PIECES = [
  'The Eiffel Tower is 330 m tall.',
  'It was completed in 1889 by 300 workers',
  'Paris had 2.1 million inhabitants in 2020, more than Lyon',
  'I think it is lovely',
  'Is it taller than the Statue of Liberty?',
  'and',
  'Gustave Eiffel',
  '😀',
  '👩‍👩‍👧',
  '🇫🇷',
  '東京は日本の首都です。',
  '大阪',
  'e\u0301',
  'Cafe\u0301 de Flore',
  'n\u0303\u0301',
  '\u200b',
  '\ufeff',
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\n\n',
  '. ',
  '? ',
  '! ',
  '# ',
  '## ',
  '- ',
  '* ',
  '1. ',
  '> ',
  '**',
  '_',
  '`',
  '`npm install`',
  '```\n',
  '~~~',
  '---\n',
  '+++\n',
  '[the report](https://example.com/a.b?c=1)',
  '![a chart](chart.png)',
  'https://example.com/x.html',
  '<https://example.com>',
  '<b>',
  '</b>',
  '| 2019 | 6.2 million visitors |',
  '|---|---|',
  '[^1]',
  '\\*',
  '    indented code\n',
  'Mr. ',
  'U.S. ',
]

const texts = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((pieces) => pieces.join('')),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc
    .tuple(
      fc.array(fc.constantFrom(...PIECES), { maxLength: 20 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
    )
    .map(([pieces, noise]) => pieces.join('') + noise + pieces.join(' ')),
)

function expectWellFormed(text: string, claims: ExtractedClaim[]): void {
  let previousEnd = 0
  for (const claim of claims) {
    expect(text.slice(claim.charStart, claim.charEnd)).toBe(claim.text)
    expect(claim.charStart).toBeGreaterThanOrEqual(previousEnd)
    expect(claim.charEnd).toBeGreaterThan(claim.charStart)
    expect(claim.charEnd).toBeLessThanOrEqual(text.length)
    expect(claim.text).toBe(claim.text.trim())
    expect(claim.score).toBeGreaterThanOrEqual(CHECKWORTHY_THRESHOLD)
    expect(claim.score).toBeLessThanOrEqual(1)
    previousEnd = claim.charEnd
  }
}

describe('claim offsets', () => {
  it('slice the submitted text exactly, in order, without overlap, for any text', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expectWellFormed(text, extractClaims(text))
      }),
      { numRuns: 2000 },
    )
  })

  it('are the same for the same text', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(extractClaims(text)).toEqual(extractClaims(text))
      }),
      { numRuns: 300 },
    )
  })

  it('count UTF-16 units through emoji, CJK and combining marks before and inside a claim', () => {
    const before = '😀👩‍👩‍👧 🇫🇷 東京は日本の首都です。 Cafe\u0301 n\u0303\n\n'
    const claim = 'The Café\u0301 de Flore 😀 in Paris opened in 1887 at 172 Boulevard Saint-Germain.'
    const text = `${before}${claim}`
    const claims = extractClaims(text)
    expect(claims).toHaveLength(1)
    expect(claims[0]).toMatchObject({ text: claim, charStart: before.length, charEnd: text.length })
  })

  it('are not moved by a byte-order mark before the text', () => {
    const text = 'The Eiffel Tower is 330 metres tall.\nIt was built in 1889 in Paris.\n'
    const claims = extractClaims(`\ufeff${text}`)
    expect(claims.map((claim) => [claim.text, claim.charStart - 1, claim.charEnd - 1])).toEqual(
      extractClaims(text).map((claim) => [claim.text, claim.charStart, claim.charEnd]),
    )
    expect(claims.map((claim) => claim.text)).toEqual([
      'The Eiffel Tower is 330 metres tall.',
      'It was built in 1889 in Paris.',
    ])
  })

  it('keep a claim whole across the line breaks of a wrapped paragraph, LF or CRLF', () => {
    for (const lineBreak of ['\n', '\r\n']) {
      const text = `The Eiffel Tower was completed${lineBreak}in 1889 by the company of Gustave Eiffel.`
      expect(extractClaims(text).map((claim) => claim.text)).toEqual([text])
    }
  })

  it('read a text far longer than the segmenter window, and one sentence longer than it', () => {
    const prose = 'The tower received 7 million visitors in 2019. Was it crowded? '.repeat(2000)
    const claims = extractClaims(prose)
    expect(claims).toHaveLength(2000)
    expectWellFormed(prose, claims)
    const endless = `In 2019 ${'the tower and '.repeat(3000)}the river were visited by 7 million people.`
    expectWellFormed(endless, extractClaims(endless))
  })
})

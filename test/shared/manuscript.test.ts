import { describe, expect, it } from 'vitest'
import { prose } from '../../bench/prose'
import { extractClaims } from '../../src/main/engine/claims'
import { manuscriptParts, type ManuscriptPart } from '../../src/shared/manuscript'

/// The parts cover the text in order, with nothing left out or repeated, none longer than `limit`.
function expectCovering(text: string, parts: ManuscriptPart[], limit: number): void {
  expect(parts[0]?.from).toBe(0)
  expect(parts.at(-1)?.to).toBe(text.length)
  for (const [index, part] of parts.entries()) {
    expect(part.to - part.from).toBeLessThanOrEqual(limit)
    expect(part.to).toBeGreaterThan(part.from)
    if (index > 0) expect(part.from).toBe(parts[index - 1]?.to)
  }
}

const paragraph = (n: number): string =>
  `The bridge over river ${n} was opened in ${1800 + n}. It carried ${n * 10} carts a day. Dr. Jones ` +
  `counted them every morning with Mr. Smith.`

describe('the parts of a manuscript', () => {
  it('is the whole text when it fits', () => {
    expect(manuscriptParts('Short. Text.', 100)).toEqual([{ from: 0, to: 12 }])
  })

  it('cuts at headings first, even where a paragraph break would fill a part better', () => {
    const text = [
      '# One',
      paragraph(1),
      paragraph(2),
      '## Two',
      paragraph(3),
      paragraph(4),
      paragraph(5),
      '# Three',
      paragraph(6),
    ].join('\n\n')
    const limit = text.indexOf('# Three') + 40
    const parts = manuscriptParts(text, limit)
    expectCovering(text, parts, limit)
    expect(parts.map((part) => text.slice(part.from, part.from + 8))).toEqual(['# One\n\nT', '# Three\n'])
  })

  it('cuts between paragraphs where no heading is near, then between sentences, never after "Dr."', () => {
    const text = [paragraph(1), paragraph(2), paragraph(3)].join('\n\n')
    const byParagraph = manuscriptParts(text, text.indexOf(paragraph(3)) + 20)
    expect(byParagraph.map((part) => text.slice(part.from, part.to).trim())).toEqual([
      `${paragraph(1)}\n\n${paragraph(2)}`,
      paragraph(3),
    ])
    const one = paragraph(1)
    const bySentence = manuscriptParts(one, one.indexOf('Jones') + 2)
    expect(bySentence.map((part) => one.slice(part.from, part.to))).toEqual([
      'The bridge over river 1 was opened in 1801. It carried 10 carts a day. ',
      'Dr. Jones counted them every morning with Mr. Smith.',
    ])
  })

  it('cuts a sentence longer than a part between words, and never between the halves of an emoji', () => {
    const long = 'word '.repeat(50)
    const parts = manuscriptParts(long, 32)
    expectCovering(long, parts, 32)
    expect(parts.every((part) => part.from === 0 || long[part.from - 1] === ' ')).toBe(true)
    const emoji = '😀'.repeat(20)
    const halves = manuscriptParts(emoji, 7)
    expectCovering(emoji, halves, 7)
    expect(halves.every((part) => part.from % 2 === 0)).toBe(true)
  })

  it('never cuts inside a claim of a 100,000-word manuscript', () => {
    const text = prose(100_000, 7)
    const limit = 200_000
    const parts = manuscriptParts(text, limit)
    expect(parts.length).toBeGreaterThan(2)
    expectCovering(text, parts, limit)
    const cuts = parts.slice(1).map((part) => part.from)
    const claims = extractClaims(text)
    expect(claims.length).toBeGreaterThan(1000)
    for (const claim of claims)
      expect(cuts.filter((cut) => cut > claim.charStart && cut < claim.charEnd)).toEqual([])
    // Each part's own claims are the whole text's, at the part's offset.
    const second = parts[1] as ManuscriptPart
    const inSecond = claims.filter((claim) => claim.charStart >= second.from && claim.charEnd <= second.to)
    expect(
      extractClaims(text.slice(second.from, second.to)).map((claim) => claim.charStart + second.from),
    ).toEqual(inSecond.map((claim) => claim.charStart))
  })
})

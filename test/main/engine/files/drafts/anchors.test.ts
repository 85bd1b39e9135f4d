import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { anchorOf, closestMatch, FUZZY_THRESHOLD, reanchor } from '../../../../../src/shared/anchors'

const ARTICLE =
  'The Eiffel Tower is 330 metres tall. It was finished in 1889 for the World Fair. ' +
  'Paris is the capital of France. The tower is repainted every seven years.'

const claimIn = (text: string, claim: string) => {
  const start = text.indexOf(claim)
  return anchorOf(text, start, start + claim.length)
}

// Levenshtein distance, the plain way.
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const next = [i]
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1), row[j]! + 1, next[j - 1]! + 1)
    row = next
  }
  return row[b.length]!
}

const words = fc.constantFrom('the ', 'tower ', 'is ', '330 ', 'metres ', 'tall. ', 'Paris ', 'in ', '1889 ')
const prose = fc.array(words, { maxLength: 30 }).map((parts) => parts.join(''))

describe('anchors', () => {
  it('keeps the offsets while they still hold the quote', () => {
    const anchor = claimIn(ARTICLE, 'It was finished in 1889 for the World Fair.')
    expect(anchor.prefix).toBe(ARTICLE.slice(anchor.start - 32, anchor.start))
    expect(anchor.suffix.startsWith(' Paris is the capital')).toBe(true)
    expect(reanchor(ARTICLE, anchor)).toEqual({
      start: anchor.start,
      end: anchor.end,
      how: 'offsets',
      similarity: 1,
    })
  })

  it('finds a claim again after text was inserted before it', () => {
    const anchor = claimIn(ARTICLE, 'Paris is the capital of France.')
    const edited = `# Notes on Paris\n\nA new opening paragraph.\n\n${ARTICLE}`
    const placed = reanchor(edited, anchor)
    expect(placed?.how).toBe('exact')
    expect(edited.slice(placed?.start, placed?.end)).toBe('Paris is the capital of France.')
  })

  it('tells repeated quotes apart by their context', () => {
    const text = 'In 2019 sales rose 5%. Costs fell. In 2020 sales rose 5%. Profits grew.'
    const second = text.lastIndexOf('sales rose 5%.')
    const anchor = anchorOf(text, second, second + 'sales rose 5%.'.length)
    // Text before both copies shifts every offset; the suffix still says which one is meant.
    const edited = `Summary first. ${text}`
    const placed = reanchor(edited, anchor)
    expect(placed?.start).toBe(edited.lastIndexOf('sales rose 5%.'))
  })

  it('finds a claim edited slightly, by a fuzzy match', () => {
    const anchor = claimIn(ARTICLE, 'The tower is repainted every seven years.')
    const edited = ARTICLE.replace('every seven years', 'every 7 years').replace(
      'The Eiffel',
      'Intro. The Eiffel',
    )
    const placed = reanchor(edited, anchor)
    expect(placed?.how).toBe('fuzzy')
    expect(placed?.similarity).toBeGreaterThanOrEqual(FUZZY_THRESHOLD)
    expect(edited.slice(placed?.start, placed?.end)).toBe('The tower is repainted every 7 years.')
  })

  it('detaches a claim that was deleted', () => {
    const anchor = claimIn(ARTICLE, 'It was finished in 1889 for the World Fair.')
    const edited = ARTICLE.replace('It was finished in 1889 for the World Fair. ', '')
    expect(reanchor(edited, anchor)).toBeNull()
  })

  it('detaches a claim rewritten beyond the threshold', () => {
    const anchor = claimIn(ARTICLE, 'Paris is the capital of France.')
    expect(
      reanchor(ARTICLE.replace('Paris is the capital of France.', 'Lyon has good food.'), anchor),
    ).toBeNull()
  })

  it('places any quote of an unchanged text at its own offsets', () => {
    fc.assert(
      fc.property(prose, fc.nat(), fc.nat(), (text, a, b) => {
        const start = Math.min(a, b) % (text.length + 1)
        const end = Math.min(text.length, start + (Math.max(a, b) % 40) + 1)
        fc.pre(end > start)
        expect(reanchor(text, anchorOf(text, start, end))).toMatchObject({ start, end, how: 'offsets' })
      }),
    )
  })

  it('finds the very quote again after any insertion before it', () => {
    fc.assert(
      fc.property(prose, prose, fc.string({ maxLength: 20 }), (before, after, inserted) => {
        const claim = 'Paris is the capital of France.'
        const text = `${before}${claim}${after}`
        const anchor = anchorOf(text, before.length, before.length + claim.length)
        const edited = `${inserted}${text}`
        const placed = reanchor(edited, anchor)
        expect(placed).toMatchObject({
          start: inserted.length + before.length,
          end: edited.length - after.length,
        })
        // A guess of the shift (right, or wrong) changes nothing of where it is found.
        expect(reanchor(edited, anchor, inserted.length)).toEqual(placed)
        expect(reanchor(edited, anchor, 7)).toEqual(placed)
      }),
    )
  })

  it('a fuzzy match is the fewest edits any substring needs', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 14 }),
        fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 1, maxLength: 6 }),
        fc.nat({ max: 3 }),
        (text, pattern, maxEdits) => {
          let fewest = Infinity
          for (let s = 0; s <= text.length; s++)
            for (let e = s; e <= text.length; e++)
              fewest = Math.min(fewest, distance(pattern, text.slice(s, e)))
          const found = closestMatch(text, pattern, maxEdits, 0)
          if (fewest > maxEdits) expect(found).toBeNull()
          else {
            expect(found?.distance).toBe(fewest)
            expect(distance(pattern, text.slice(found?.start, found?.end))).toBe(fewest)
          }
        },
      ),
    )
  })

  it('re-anchors within the threshold whatever single edit was made inside the claim', () => {
    fc.assert(
      fc.property(prose, fc.nat(), fc.constantFrom('x', '', 'yz'), (before, at, replacement) => {
        const claim = 'The Eiffel Tower is repainted every seven years.'
        const text = `${before}${claim} The end.`
        const anchor = anchorOf(text, before.length, before.length + claim.length)
        const cut = at % claim.length
        const edited = `${before}${claim.slice(0, cut)}${replacement}${claim.slice(cut + 1)} The end.`
        const placed = reanchor(edited, anchor)
        expect(placed).not.toBeNull()
        expect(placed?.similarity).toBeGreaterThanOrEqual(FUZZY_THRESHOLD)
        // The match overlaps the edited claim, wherever it begins.
        expect(placed!.start).toBeLessThan(before.length + claim.length)
        expect(placed!.end).toBeGreaterThan(before.length)
      }),
    )
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { correctionEdits, correctionParts, correctionWords } from '../../src/shared/corrections'

describe('correctionWords', () => {
  it('gives the words Apply puts in the text, without the mark that no source confirmed them', () => {
    expect(correctionWords('(unverified) The tower is 330 metres tall.')).toEqual({
      words: 'The tower is 330 metres tall.',
      unverified: true,
    })
    // t3's corrections rest on cited sources and carry no mark.
    expect(correctionWords('It was finished in 1889.')).toEqual({
      words: 'It was finished in 1889.',
      unverified: false,
    })
  })
})

/// The text a list of edits makes of `text` (edits in order, not overlapping, offsets into `text`).
function applied(text: string, edits: { from: number; to: number; insert: string }[]): string {
  let out = ''
  let at = 0
  for (const edit of edits) {
    out += text.slice(at, edit.from) + edit.insert
    at = edit.to
  }
  return out + text.slice(at)
}

describe('correctionParts and correctionEdits', () => {
  it('show only the words a correction changes, and keep the rest of the sentence as written', () => {
    const text = 'At the time, Hargreaves kept a postcard of the bridge, built in 1871 by 300 men.'
    const correction = 'At the time, Hargreaves kept a postcard of the bridge, built in 1874 by 200 men.'
    expect(correctionParts(text, correction)).toEqual([
      { same: 'At the time, Hargreaves kept a postcard of the bridge, built in ' },
      { removed: '1871', added: '1874' },
      { same: ' by ' },
      { removed: '300', added: '200' },
      { same: ' men.' },
    ])
    expect(correctionEdits(correctionParts(text, correction), 100)).toEqual([
      { from: 164, to: 168, insert: '1874' },
      { from: 172, to: 175, insert: '200' },
    ])
    // Words added at an end take the word beside them along, so the claim's range covers them.
    expect(correctionEdits(correctionParts('Paris is big.', 'Today Paris is big.'), 10)).toEqual([
      { from: 10, to: 15, insert: 'Today Paris' },
    ])
    expect(correctionEdits(correctionParts('Paris is big', 'Paris is big today'), 10)).toEqual([
      { from: 19, to: 22, insert: 'big today' },
    ])
    expect(correctionParts('It is tall.', 'It is tall.')).toEqual([{ same: 'It is tall.' }])
    expect(correctionEdits(correctionParts('It is tall.', 'It is tall.'), 0)).toEqual([])
  })

  it("keep the writer's Markdown marks that a correction in plain words leaves out, when all of them can stay", () => {
    const text = 'The **Eiffel Tower** is 330 metres tall.'
    expect(correctionParts(text, 'The Eiffel Tower is 300 metres tall.')).toEqual([
      { same: 'The **Eiffel Tower** is ' },
      { removed: '330', added: '300' },
      { same: ' metres tall.' },
    ])
    // Marks around the words replaced stay around their replacement.
    expect(correctionParts('It is **330** metres.', 'It is 300 metres.')).toEqual([
      { same: 'It is **' },
      { removed: '330', added: '300' },
      { same: '** metres.' },
    ])
    expect(correctionEdits(correctionParts('It is _330_ metres.', 'It is 300 metres.'), 0)).toEqual([
      { from: 7, to: 10, insert: '300' },
    ])
    // Dropping the words a mark closes would leave one of a pair: the correction stands as written.
    expect(correctionParts('The **Eiffel Tower** is here.', 'The Eiffel is here.')).toEqual([
      { same: 'The ' },
      { removed: '**', added: '' },
      { same: 'Eiffel ' },
      { removed: 'Tower** ', added: '' },
      { same: 'is here.' },
    ])
    // A mark the correction replaces is its own change.
    expect(correctionParts('5 * 3 is 16', '5 × 3 is 15')).toEqual([
      { same: '5 ' },
      { removed: '*', added: '×' },
      { same: ' 3 is ' },
      { removed: '16', added: '15' },
    ])
  })

  it('turn any text into its correction, emoji and combining marks included', () => {
    const words = fc.constantFrom(
      'The',
      'tower',
      '330',
      'm',
      'metres',
      'e\u0301',
      '😀',
      "don't",
      ',',
      '.',
      ' ',
      '  ',
      '**',
      '_',
    )
    const sentence = fc.array(words, { maxLength: 14 }).map((parts) => parts.join(''))
    const unmarked = (text: string): string => text.replace(/[*_~`]/g, '')
    fc.assert(
      fc.property(sentence, sentence, fc.nat(50), (text, correction, from) => {
        const parts = correctionParts(text, correction)
        const kept = (part: (typeof parts)[number], side: 'removed' | 'added') =>
          'same' in part ? part.same : part[side]
        const result = parts.map((part) => kept(part, 'added')).join('')
        expect(parts.map((part) => kept(part, 'removed')).join('')).toBe(text)
        // The correction's words, and none but the writer's marks besides.
        expect(unmarked(result)).toBe(unmarked(correction))
        if (unmarked(text) === text) expect(result).toBe(correction)
        const edits = correctionEdits(parts, from)
        const shifted = edits.map((edit) => ({ ...edit, from: edit.from - from, to: edit.to - from }))
        expect(applied(text, shifted)).toBe(result)
      }),
      { numRuns: 500 },
    )
  })
})

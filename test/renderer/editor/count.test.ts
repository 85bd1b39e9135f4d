import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countCharacters, countWords } from '../../../src/renderer/src/editor/count'

const words = new Intl.Segmenter(undefined, { granularity: 'word' })
const characters = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

// The same rules applied to the whole text at once, the way `count.ts` avoids for speed.
const referenceWords = (text: string): number => [...words.segment(text)].filter((s) => s.isWordLike).length
const referenceCharacters = (text: string): number =>
  [...characters.segment(text)].filter((s) => s.segment !== '\n').length

describe('countWords', () => {
  it('counts English words, numbers included', () => {
    expect(countWords('The Eiffel Tower is 330 metres tall.')).toBe(7)
    expect(countWords("It's 3.14, not 1,000,000 — don't round.")).toBe(6)
  })

  it('ignores punctuation and Markdown markers', () => {
    expect(countWords('# Notes\n\n- first item\n- second item\n\n> quoted *words* and **more**')).toBe(9)
    expect(countWords('--- ... !!! # - > * ` ~')).toBe(0)
  })

  it('counts Chinese and Japanese word by word', () => {
    expect(countWords('我喜欢学习中文')).toBe(4)
    expect(countWords('東京タワーは333メートルです')).toBeGreaterThan(1)
  })

  it('counts nothing in empty or blank text', () => {
    expect(countWords('')).toBe(0)
    expect(countWords(' \n\t\n ')).toBe(0)
  })

  it('counts long text in pieces exactly as in one go', () => {
    const paragraph = 'The tower, completed in 1889, was the tallest structure in the world. '
    const text = paragraph.repeat(200)
    expect(countWords(text)).toBe(referenceWords(text))
    expect(countWords(text)).toBe(12 * 200)
  })
})

describe('countCharacters', () => {
  it('counts letters, spaces and punctuation, not line breaks', () => {
    expect(countCharacters('The Eiffel Tower is 330 metres tall.')).toBe(36)
    expect(countCharacters('one\ntwo\n')).toBe(6)
  })

  it('counts what a reader sees as one character once', () => {
    expect(countCharacters('e\u0301')).toBe(1) // e with a combining acute accent
    expect(countCharacters('👩‍👩‍👧')).toBe(1) // a family emoji made of five code points
    expect(countCharacters('🇫🇷 中文')).toBe(4)
  })
})

// Letters, marks, emoji, CJK, spaces and breaks, mixed so that texts cross the pieces' length.
const scraps = fc.constantFrom(
  'word ',
  'The ',
  'tall.',
  ' ',
  '  ',
  '\n',
  '\t',
  '330',
  '3.14',
  "don't",
  'e\u0301',
  '中文',
  'メートル',
  '👩‍👩‍👧',
  '🇫🇷',
  '# ',
  '- ',
  '**',
  '\u0600 ',
  'كلمة ',
  'слово ',
  '\u200d',
  '_x_',
)
const texts = fc.array(scraps, { maxLength: 1500, size: 'max' }).map((parts) => parts.join(''))

it('counts any text as the whole-text rules do', () => {
  fc.assert(
    fc.property(texts, (text) => {
      expect(countWords(text)).toBe(referenceWords(text))
      expect(countCharacters(text)).toBe(referenceCharacters(text))
    }),
    { numRuns: 100 },
  )
})

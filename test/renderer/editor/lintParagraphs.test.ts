import { describe, expect, it } from 'vitest'
import type { Finding } from '../../../src/shared/findings'
import {
  paragraphsOf,
  placeFindings,
  toLint,
  touchedBy,
  type Paragraph,
} from '../../../src/renderer/src/editor/lintParagraphs'

// The document's words where each paragraph stands, read back through its offsets.
const placed = (text: string): string[] =>
  paragraphsOf(text).map((paragraph) => text.slice(paragraph.from, paragraph.from + paragraph.prose.length))

const finding = (charStart: number, charEnd: number, rule = 'SpellCheck'): Finding => ({
  charStart,
  charEnd,
  message: 'a finding',
  suggestions: [],
  rule,
  spelling: rule === 'SpellCheck',
})

describe('paragraphsOf', () => {
  it('splits a document at blank lines and places each paragraph at its document offset', () => {
    const text = 'First paragraph here.\n\nSecond one,\nover two lines.\n\n\nThird.'
    const paragraphs = paragraphsOf(text)
    expect(paragraphs.map((paragraph) => paragraph.prose)).toEqual([
      'First paragraph here.',
      'Second one, over two lines.',
      'Third.',
    ])
    expect(placed(text)).toEqual(['First paragraph here.', 'Second one,\nover two lines.', 'Third.'])
  })

  it('skips front matter and fenced code, even with blank lines inside the fence', () => {
    const text = [
      '---',
      'title: Teh draft',
      '---',
      'Intro line.',
      '',
      '```js',
      'const teh = 1',
      '',
      'speling(teh)',
      '```',
      '',
      'Closing words.',
    ].join('\n')
    const prose = paragraphsOf(text).map((paragraph) => paragraph.prose)
    expect(prose).toEqual(['Intro line.', 'Closing words.'])
  })

  it('blanks inline code, URLs, link targets and markup, keeping every offset', () => {
    const text =
      '# A heading\n\n- Run `npm instal` and see https://example.com/teh or [the docs](http://x.io/teh).'
    const paragraphs = paragraphsOf(text)
    expect(paragraphs.map((paragraph) => paragraph.prose.split(/ +/))).toEqual([
      ['A', 'heading'],
      ['Run', 'and', 'see', 'or', 'the', 'docs', '.'],
    ])
    for (const paragraph of paragraphs) {
      const words = paragraph.prose.match(/\S+/g) ?? []
      // Every word left is the document's own word at the same offset.
      let at = 0
      for (const word of words) {
        at = paragraph.prose.indexOf(word, at)
        expect(text.slice(paragraph.from + at, paragraph.from + at + word.length)).toBe(word)
        at += word.length
      }
    }
  })

  it('leaves out indented code and paragraphs with no words', () => {
    expect(
      paragraphsOf('Text.\n\n    code block teh\n\n`only code`\n\n<div>\n\nEnd.').map((p) => p.prose),
    ).toEqual(['Text.', 'End.'])
  })
})

describe('placeFindings', () => {
  it('maps offsets inside a paragraph to document positions, in UTF-16 after emoji', () => {
    const text = 'Intro.\n\nA 🙂 sentance here.'
    const paragraph = paragraphsOf(text)[1] as Paragraph
    const start = paragraph.prose.indexOf('sentance')
    const [found] = placeFindings(paragraph, [finding(start, start + 8)], (from, to) => text.slice(from, to))
    expect(found).toMatchObject({ from: text.indexOf('sentance'), to: text.indexOf('sentance') + 8 })
    expect(text.slice(found?.from, found?.to)).toBe('sentance')
  })

  it('drops findings over blanked markup or joined lines and keeps those in the prose', () => {
    const text = 'Use `npm`  now,\nteh end.'
    const paragraph = paragraphsOf(text)[0] as Paragraph
    const sliceDoc = (from: number, to: number): string => text.slice(from, to)
    const blankedCode = finding(3, 11, 'Spaces')
    const lineBreak = finding(14, 17, 'Spaces')
    const typed = finding(9, 11, 'Spaces')
    const word = finding(16, 19)
    const kept = placeFindings(paragraph, [blankedCode, lineBreak, typed, word], sliceDoc)
    expect(kept.map((f) => text.slice(f.from, f.to))).toEqual(['  ', 'teh'])
    expect(kept.map((f) => f.finding)).toEqual([typed, word])
  })

  it('ignores a finding beyond its paragraph', () => {
    const paragraph: Paragraph = { from: 0, prose: 'Short.' }
    expect(placeFindings(paragraph, [finding(4, 12)], () => '')).toEqual([])
  })
})

describe('toLint', () => {
  const paragraphs: Paragraph[] = [
    { from: 0, prose: 'One.' },
    { from: 10, prose: 'Two.' },
    { from: 20, prose: 'Three.' },
    { from: 30, prose: 'Two.' },
    { from: 40, prose: 'Four.' },
  ]

  it('asks only for texts not known yet, each once, nearest to the visible part first', () => {
    const known = new Set(['Three.'])
    expect(toLint(paragraphs, (text) => known.has(text), { from: 40, to: 45 })).toEqual([
      'Four.',
      'Two.',
      'One.',
    ])
    expect(toLint(paragraphs, (text) => known.has(text), { from: 0, to: 5 })).toEqual([
      'One.',
      'Two.',
      'Four.',
    ])
  })

  it('asks for nothing when every paragraph is known', () => {
    expect(toLint(paragraphs, () => true, { from: 0, to: 50 })).toEqual([])
  })
})

describe('touchedBy', () => {
  const text = 'One two.\n\nThree four.\n\nFive six.'
  const paragraphs = paragraphsOf(text)
  const prose = (touched: Paragraph[]): string[] => touched.map((paragraph) => paragraph.prose)

  it('finds the paragraphs an edit touched, and none for an edit between paragraphs', () => {
    const at = text.indexOf('four')
    expect(prose(touchedBy(paragraphs, [{ from: at, to: at + 1 }]))).toEqual(['Three four.'])
    expect(prose(touchedBy(paragraphs, [{ from: 9, to: 9 }]))).toEqual([])
    expect(
      prose(
        touchedBy(paragraphs, [
          { from: 0, to: 0 },
          { from: text.length, to: text.length },
        ]),
      ),
    ).toEqual(['One two.', 'Five six.'])
  })

  it('finds every paragraph a long edit spans', () => {
    expect(prose(touchedBy(paragraphs, [{ from: 3, to: text.indexOf('Five') }]))).toEqual([
      'One two.',
      'Three four.',
      'Five six.',
    ])
  })
})

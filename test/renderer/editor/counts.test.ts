import { EditorState } from '@codemirror/state'
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { countCharacters, countWords } from '../../../src/renderer/src/editor/count'
import { documentCounts } from '../../../src/renderer/src/editor/counts'

const scraps = fc.constantFrom(
  'word',
  ' ',
  '\n',
  '\n\n',
  'tall.',
  '330',
  '# ',
  '中文',
  'e\u0301',
  '👩‍👩‍👧',
  "don't",
  '-',
)
const text = fc.array(scraps, { maxLength: 40 }).map((parts) => parts.join(''))

// An edit as offsets into the document (scaled to its length when applied) and the text put there.
const edit = fc.record({ from: fc.double({ min: 0, max: 1, noNaN: true }), length: fc.nat(12), insert: text })

it('keeps the counts of a document edited many times equal to counting it afresh', () => {
  fc.assert(
    fc.property(
      text,
      fc.array(fc.array(edit, { minLength: 1, maxLength: 4 }), { maxLength: 12 }),
      (start, steps) => {
        let state = EditorState.create({ doc: start, extensions: documentCounts })
        for (const changes of steps) {
          // Several changes in one transaction, sorted and kept apart as CodeMirror requires.
          let at = 0
          const spec = changes.map(({ from, length, insert }) => {
            const position = Math.min(state.doc.length, at + Math.floor(from * (state.doc.length - at)))
            const to = Math.min(state.doc.length, position + length)
            at = to
            return { from: position, to, insert }
          })
          state = state.update({ changes: spec }).state
          const whole = state.doc.toString()
          expect(state.field(documentCounts)).toEqual({
            words: countWords(whole),
            characters: countCharacters(whole),
          })
        }
      },
    ),
    { numRuns: 300 },
  )
})

it('counts a 50,000-word document, and edits in it (their speed is in the editor bench)', () => {
  const paragraph =
    'The Eiffel Tower is 330 metres tall, and it was completed in 1889 for the fair in Paris.\n\n'
  const doc = paragraph.repeat(50_000 / 18)
  let state = EditorState.create({ doc, extensions: documentCounts })
  expect(state.field(documentCounts).words).toBe(18 * Math.floor(50_000 / 18))

  for (let i = 0; i < 100; i++)
    state = state.update({ changes: { from: paragraph.length, insert: 'word ' } }).state
  expect(state.field(documentCounts).words).toBe(18 * Math.floor(50_000 / 18) + 100)
})

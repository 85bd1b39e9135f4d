import { EditorSelection, EditorState } from '@codemirror/state'
import { describe, expect, it } from 'vitest'
import { sectionAt, selectedPart } from '../../../src/renderer/src/state/part'

const TEXT = [
  'Intro sentence here.',
  '# Methods',
  'We counted the birds.',
  '## Sampling',
  'Every morning at six.',
  '# Results',
  'There were 40 birds.',
].join('\n')

describe('the part of a text a check covers', () => {
  it('is the heading’s section around a position, its subsections included, named by its heading', () => {
    const inSampling = TEXT.indexOf('Every')
    expect(sectionAt(TEXT, inSampling)).toEqual({
      from: TEXT.indexOf('## Sampling'),
      to: TEXT.indexOf('# Results'),
      name: '§ Sampling',
    })
    const methods = sectionAt(TEXT, TEXT.indexOf('We counted'))
    expect(methods && TEXT.slice(methods.from, methods.to)).toBe(
      '# Methods\nWe counted the birds.\n## Sampling\nEvery morning at six.\n',
    )
    expect(methods?.name).toBe('§ Methods')
    expect(sectionAt(TEXT, TEXT.length)).toMatchObject({ to: TEXT.length, name: '§ Results' })
    expect(sectionAt(TEXT, 3)).toEqual({ from: 0, to: TEXT.indexOf('# Methods'), name: '§ Beginning' })
    expect(sectionAt('No headings at all.', 3)).toBeNull()
  })

  it('is the selection, named by its first words, or nothing without one', () => {
    const state = EditorState.create({ doc: TEXT })
    expect(selectedPart(state)).toBeNull()
    const from = TEXT.indexOf('We counted')
    const selected = state.update({ selection: EditorSelection.range(from, TEXT.indexOf('# Results')) }).state
    expect(selectedPart(selected)).toEqual({
      from,
      to: TEXT.indexOf('# Results'),
      name: '“We counted the birds. ## Sampling…”',
    })
  })
})

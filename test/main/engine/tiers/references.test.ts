import { describe, expect, it } from 'vitest'
import { referredIndex, referredIndices } from '../../../../src/main/engine/tiers/references'

const PASSAGES = [
  'The Eiffel Tower was completed in 1889 for the World’s Fair.',
  'The Brooklyn Bridge opened on May 24, 1883.',
  'The tower is 330 metres tall.',
]

describe('a reference as a model writes it', () => {
  it.each([
    ['P2', 1],
    ['p2', 1],
    ['[P2]', 1],
    ['(p2).', 1],
    ['P2.', 1],
    ['Passage 2', 1],
    ['passage #2', 1],
    ['Source 2', 1],
    ['source 2: Wikipedia', 1],
    ['P2: The Brooklyn Bridge opened', 1],
    ['2', 1],
    ['"Q3"', 2],
    ['Result 1', 0],
    ['**R1**', 0],
  ])('%s names the item at %i', (written, index) => {
    expect(referredIndex(written, PASSAGES)).toBe(index)
  })

  it('by the item’s own words, through typography and case', () => {
    expect(referredIndex("completed in 1889 for the World's Fair", PASSAGES)).toBe(0)
    expect(referredIndex('“The tower is 330 metres tall”', PASSAGES)).toBe(2)
    expect(referredIndex('the brooklyn bridge  opened on may 24, 1883.', PASSAGES)).toBe(1)
  })

  it('names nothing when it is out of range, too short to be one item’s words, or shared by several', () => {
    expect(referredIndex('P4', PASSAGES)).toBeNull()
    expect(referredIndex('Passage 0', PASSAGES)).toBeNull()
    expect(referredIndex('tower', PASSAGES)).toBeNull()
    expect(referredIndex('The', PASSAGES)).toBeNull()
    expect(referredIndex('', PASSAGES)).toBeNull()
    expect(referredIndex('3 million visitors a year', PASSAGES)).toBeNull()
  })

  it('reads a list in its order, each once', () => {
    expect(referredIndices(['p3', 'P3', 'Passage 1', 'P7'], PASSAGES)).toEqual([2, 0])
  })
})

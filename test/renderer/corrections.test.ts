import { describe, expect, it } from 'vitest'
import { correctionWords } from '../../src/shared/corrections'

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

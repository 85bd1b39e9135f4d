import { describe, expect, it } from 'vitest'
import {
  clearSpelling,
  englishWord,
  MAX_SUGGESTIONS,
  rankSpellings,
  spellingCandidates,
} from '../../../../../src/shared/spellings'

describe('spelling suggestions', () => {
  it('finds the listed words one edit away, else two, never the word itself', () => {
    const near = spellingCandidates('recieve')
    expect(near).toContain('receive')
    expect(near).not.toContain('recieve')
    // "dont" is in the word list (subtitles misspell it), but is not offered for itself.
    expect(spellingCandidates('dont')).not.toContain('dont')
    // Two edits only when nothing is one away: "accomodate" is one from "accommodate".
    expect(spellingCandidates('acomodate')).toContain('accommodate')
    expect(spellingCandidates('café')).toEqual([])
  })

  it('orders by how common the word is and how likely its slips are, keeping Harper’s order among equals', () => {
    // One slip each; "with" is commoner than "which", "which" than "wish".
    expect(rankSpellings('wich', ['wish', 'which'], ['with'])).toEqual(['with', 'which', 'wish'])
    // A likely slip wins over a commoner word: a double letter written once ("parent" is commoner).
    expect(rankSpellings('aparent', ['a parent'], ['parent', 'apparent'])[0]).toBe('apparent')
    // Two letters swapped are likelier than two letters changed.
    expect(rankSpellings('recieve', ['recipe', 'receive'], ['relieve'])[0]).toBe('receive')
    expect(rankSpellings('abcq', ['zzzy', 'zzzx'], [])).toEqual(['zzzy', 'zzzx'])
    expect(rankSpellings('wich', ['wish', 'which'], ['with', 'witch', 'rich'])).toHaveLength(MAX_SUGGESTIONS)
  })

  it('weighs a split as its two words together, and a contraction as its first word', () => {
    expect(rankSpellings('alot', ['a lot'], ['plot', 'slot'])[0]).toBe('a lot')
    expect(rankSpellings('acount', ['a count'], ['account'])[0]).toBe('account')
    expect(rankSpellings('dont', ['dent', "don't"], ['done'])[0]).toBe("don't")
    // A contraction is a candidate of its own, as the word list has none.
    expect(spellingCandidates('im')).toContain("I'm")
    expect(rankSpellings('im', ['i', 'it', 'in'], spellingCandidates('im'))[0]).toBe("I'm")
  })

  it('gives added words the capitals of the word they correct', () => {
    expect(rankSpellings('Recieve', [], ['receive'])).toEqual(['Receive'])
    expect(rankSpellings('RECIEVE', [], ['receive'])).toEqual(['RECEIVE'])
  })

  it('knows the word a misspelling clearly stands for: the first suggestion, close, the others farther', () => {
    // Harper's suggestions, as t1 ranks them. Swapped letters count half: "receive" before "relieve".
    expect(clearSpelling('recieve', ['receive', 'relieve', 'recipe'])).toBe('receive')
    expect(clearSpelling('occured', ['occurred', 'occur', 'obscured'])).toBe('occurred')
    expect(clearSpelling('Recieve', ['Receive', 'Relieve'])).toBe('Receive')
    // As far from "words" as from "woods"; "grey" is one letter from "grew" and from "gray".
    expect(clearSpelling('wods', ['words', 'woods', 'gods'])).toBeNull()
    expect(clearSpelling('grey', ['grew', 'gray', 'trey'])).toBeNull()
    // The only suggestion, but three edits away: a name more likely than a misspelling.
    expect(clearSpelling('Millbrook', ['Billhook'])).toBeNull()
    expect(clearSpelling('xyz', [])).toBeNull()
  })

  it('knows the common words of every English, and no slip among them', () => {
    // In the frequency list, British spellings included; or the British spelling of a word in it.
    for (const word of [
      'that',
      'grey',
      'colour',
      'Metres',
      'metre',
      'litre',
      'organise',
      'analyse',
      'defence',
    ])
      expect(englishWord(word), word).toBe(true)
    // Misspellings, names, and a contraction without its apostrophe (the list has "youre" from the subtitles).
    for (const word of ['recieve', 'Okafor', 'Natarajan', 'RIVERTON', 'youre', 'poetre', 'yaer', 'a count'])
      expect(englishWord(word), word).toBe(false)
  })
})

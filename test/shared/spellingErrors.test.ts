// The spelling error model (src/shared/spellingErrors.ts) and the ranking it gives Harper's suggestions, with the
// real Harper: none of the misspellings here is one of the pairs the shipped costs were counted in.
import type { LocalLinter } from 'harper.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lintText } from '../../src/shared/harper'
import {
  SHIPPED_COSTS,
  slipChances,
  slipCosts,
  SLIPS,
  slipsBetween,
  type SlipCounts,
} from '../../src/shared/spellingErrors'
import { likelyTypo } from '../../src/shared/typos'
import { harperLinter } from '../helpers/harper'

let linter: LocalLinter
beforeAll(async () => {
  linter = await harperLinter()
}, 60_000)
afterAll(() => linter.dispose())

describe('the slips between a misspelling and the word meant', () => {
  it('names each slip by its kind', () => {
    const slips = (written: string, meant: string) => slipsBetween(written, meant, SHIPPED_COSTS).slips
    expect(slips('recieve', 'receive')).toEqual(['swap'])
    expect(slips('untill', 'until')).toEqual(['doubled'])
    expect(slips('ocasion', 'occasion')).toEqual(['undoubled'])
    expect(slips('seperate', 'separate')).toEqual(['vowel'])
    expect(slips('exersize', 'exercise')).toEqual(['sound', 'sound'])
    expect(slips('qick', 'wick')).toEqual(['key'])
    expect(slips('mick', 'wick')).toEqual(['letter'])
    expect(slips('goverment', 'government')).toEqual(['droppedConsonant'])
    expect(slips('definte', 'definite')).toEqual(['droppedVowel'])
    expect(slips('dont', "don't")).toEqual(['apostrophe'])
    expect(slips('alot', 'a lot')).toEqual(['space'])
    expect(slips('word', 'word')).toEqual([])
  })

  it('costs the sum of its slips, the cheapest way', () => {
    const { cost, slips } = slipsBetween('acommodate', 'accommodate', SHIPPED_COSTS)
    expect(slips).toEqual(['undoubled'])
    expect(cost).toBe(SHIPPED_COSTS.undoubled)
    // Dropping one "c" of a double is cheaper than dropping a consonant of no double.
    expect(SHIPPED_COSTS.undoubled).toBeLessThan(SHIPPED_COSTS.droppedConsonant)
  })

  it('weighs each kind by its count over its chances, a kind never seen as even', () => {
    const counts = Object.fromEntries(SLIPS.map((slip) => [slip, { count: 0, chances: 0 }])) as SlipCounts
    counts.swap = { count: 9.5, chances: 19 }
    const costs = slipCosts(counts)
    expect(costs.swap).toBeCloseTo(Math.log(2))
    expect(costs.space).toBeCloseTo(Math.log(2))
    expect(slipChances('letter')).toMatchObject({ swap: 5, undoubled: 1, doubled: 4, vowel: 2 })
  })
})

describe('suggestions ranked by the error model, with Harper', () => {
  const first = async (text: string, word: string) => {
    const findings = (await lintText(linter, text)).filter((finding) =>
      likelyTypo(finding, text, { document: text, charStart: 0 }),
    )
    const finding = findings.find((each) => text.slice(each.charStart, each.charEnd) === word)
    return finding?.suggestions[0]
  }

  it('prefers the word a likely slip makes over a commoner word an unlikely one makes', async () => {
    // A double letter written once, not a letter left out or changed: "apparent", not "parent"; "addition", not
    // "audition"; "letter", not "later"; "bubble", not "bible"; "beginner", not "begging".
    expect(await first('aparent', 'aparent')).toBe('apparent')
    expect(await first('adition', 'adition')).toBe('addition')
    expect(await first('leter', 'leter')).toBe('letter')
    expect(await first('buble', 'buble')).toBe('bubble')
    expect(await first('begginer', 'begginer')).toBe('beginner')
    // A left-out apostrophe is cheap, and a contraction as common as its first word.
    expect(await first('youre', 'youre')).toBe("you're")
  })

  it('still leaves names and the common words of any English alone', async () => {
    const text = 'Dr Okafor sent a leter about the metre and the grey colour of Riverton.'
    const flagged = (await lintText(linter, text))
      .filter((finding) => finding.spelling && likelyTypo(finding, text, { document: text, charStart: 0 }))
      .map((finding) => text.slice(finding.charStart, finding.charEnd))
    expect(flagged).toEqual(['leter'])
    expect(await first(text, 'leter')).toBe('letter')
  })
})

import { describe, expect, it } from 'vitest'
import { dropped, unresolvedSubject } from '../../../../../src/main/engine/tiers/resolve/faithful'

describe('a statement keeps what its claim says', () => {
  it('keeps it when only a pronoun, a partial name, a thing named by its kind or a relative time was resolved', () => {
    const kept: [string, string][] = [
      ['It was completed in 1889.', 'The Eiffel Tower was completed in 1889.'],
      ['It was completed in 1889.', 'It was completed in 1889.'],
      ['Smith founded it in 1990.', 'Jane Smith founded Acme in 1990.'],
      ['The city is large.', 'Paris is large.'],
      ['The company raised prices last year by 10%.', 'Acme Corp raised prices in 2025 by 10%.'],
      ['Two years later it opened to traffic.', 'In 1885 the Brooklyn Bridge opened to traffic.'],
      // Numbers however they are written, and words inflected.
      ['The bridge is 1,834 metres long.', 'The Brooklyn Bridge is 1834 metres long.'],
      ['It has five towers.', 'The bridge has 5 towers.'],
      ['It has twenty-five towers.', 'The bridge has 25 towers.'],
      ['It was the 3rd tallest tower.', 'The Eiffel Tower was the third tallest tower.'],
      ['Its completion came in 1889.', 'The Eiffel Tower was completed in 1889.'],
      // Typography and a possessive.
      [
        'It wasn’t designed by Gustave Eiffel’s firm.',
        "The bridge wasn't designed by Gustave Eiffel's firm.",
      ],
      ['東京タワーは1958年に完成した。', '東京タワーは1958年に完成した。'],
      // Words that are names of the language's own objects are words like any other.
      ['Its constructor is unknown.', 'The tower’s builder is unknown.'],
    ]
    for (const [claim, statement] of kept)
      expect(dropped(claim, statement), `${claim} → ${statement}`).toBeNull()
  })

  it('says what a statement drops: a number, a name, a negation, most of the claim’s words', () => {
    expect(dropped('It was completed in 1889.', 'The Eiffel Tower was completed in 1898.')).toBe(
      'it leaves out “1889”',
    )
    expect(dropped('The bridge is 1,834 metres long.', 'The bridge is long.')).toBe('it leaves out “1,834”')
    expect(dropped('He visited Paris in May 1920.', 'Hemingway visited Paris in 1920.')).toBe(
      'it leaves out “May”',
    )
    expect(dropped('It was not designed by Eiffel.', 'The bridge was designed by Eiffel.')).toBe(
      'it drops the claim’s negation',
    )
    expect(dropped('It was completed in 1889.', 'Rewrite the claim as one statement.')).toBe(
      'it leaves out “1889”; it keeps 0 of the claim’s 1 content words',
    )
    expect(
      dropped('The bridge carries trains, cars and bicycles daily.', 'The Brooklyn Bridge is a bridge.'),
    ).toBe('it keeps 1 of the claim’s 6 content words')
  })
})

describe('a statement whose subject is still a pronoun', () => {
  it('is found, with the pronoun as written, when nothing before it in the statement names what it refers to', () => {
    expect(unresolvedSubject('It was completed in 1889.')).toBe('It')
    expect(unresolvedSubject('In 1889, it was completed.')).toBe('it')
    expect(unresolvedSubject('They opened the bridge in 1883.')).toBe('They')
    expect(unresolvedSubject('This was the tallest tower in the world.')).toBe('This')
    expect(unresolvedSubject('It seems to be the tallest tower.')).toBe('It')
  })

  it('is not: a named subject, a demonstrative before its noun, an "it" that refers to nothing', () => {
    for (const statement of [
      'The Eiffel Tower was completed in 1889.',
      'The bridge opened in 1883 and it is long.',
      'This bridge was the longest of its time.',
      'It is true that the bridge is long.',
      'It was estimated that 20 workers died.',
      'It rained on the opening day.',
      'It was raining when the bridge opened.',
      'It seems that the bridge opened in 1883.',
      'It takes ten minutes to cross the bridge.',
      '',
    ])
      expect(unresolvedSubject(statement), statement).toBeNull()
  })
})

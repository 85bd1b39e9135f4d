import { describe, expect, it } from 'vitest'
import { extractClaims } from '../../../../src/main/engine/claims'

const texts = (text: string) => extractClaims(text).map((claim) => claim.text)

describe('claims of Markdown', () => {
  it('leave out list markers, with offsets after them', () => {
    const text =
      '- The Eiffel Tower is 330 m tall.\n* It was completed in 1889.\n12. Paris had 2.1 million inhabitants in 2020.'
    const claims = extractClaims(text)
    expect(claims.map((claim) => claim.text)).toEqual([
      'The Eiffel Tower is 330 m tall.',
      'It was completed in 1889.',
      'Paris had 2.1 million inhabitants in 2020.',
    ])
    expect(claims[0]?.charStart).toBe(2)
  })

  it('make no claim of a heading, the title of what follows, and keep it apart from the paragraph under it', () => {
    const text = '## The Eiffel Tower was completed in 1889 ##\nIt is 330 m tall and weighs 7,300 tonnes.'
    expect(texts(text)).toEqual(['It is 330 m tall and weighs 7,300 tonnes.'])
    expect(extractClaims(text)[0]?.charStart).toBe(text.indexOf('It is'))
    expect(texts('Eiffel Tower\n============\nIt is 330 m tall and weighs 7,300 tonnes.')).toEqual([
      'It is 330 m tall and weighs 7,300 tonnes.',
    ])
  })

  it('make no claim of a byline or a date line, and keep a sentence that starts with "By"', () => {
    const text =
      '*By Dana Reporter and Ann Lee | Staff writers*\n\nUpdated: 20 November 2026, 10:15 UTC\n\n' +
      '**November 20, 2026**\n\nBy 2030, the city of Paris had planted 170,000 new trees along its streets.'
    expect(texts(text)).toEqual([
      'By 2030, the city of Paris had planted 170,000 new trees along its streets.',
    ])
  })

  it('leave out blockquote markers and emphasis around a sentence', () => {
    expect(texts('> **The Eiffel Tower is 330 m tall.**')).toEqual(['The Eiffel Tower is 330 m tall.'])
    expect(texts('The tower is *330 m* tall and was completed in 1889.')).toEqual([
      'The tower is *330 m* tall and was completed in 1889.',
    ])
  })

  it('never make claims of code blocks, fenced or indented', () => {
    const fenced =
      '```js\n// The Eiffel Tower is 330 m tall.\nconst height = 330\n```\n~~~\nIt was completed in 1889.\n~~~'
    expect(texts(fenced)).toEqual([])
    const indented =
      'Here is the output:\n\n    The Eiffel Tower is 330 m tall.\n    It was completed in 1889.\n'
    expect(texts(indented)).toEqual([])
    const unclosed = '```\nThe Eiffel Tower is 330 m tall.'
    expect(texts(unclosed)).toEqual([])
  })

  it('keep code spans out of claims', () => {
    const text = 'The `fetch` function was added to Node.js in version 18, released in April 2022.'
    const claims = texts(text)
    expect(claims).toEqual(['function was added to Node.js in version 18, released in April 2022.'])
    expect(texts('`The Eiffel Tower is 330 m tall.`')).toEqual([])
  })

  it('leave out front matter', () => {
    const text =
      '---\ntitle: The Eiffel Tower is 330 m tall.\ndate: 2024-01-01\n---\nParis had 2.1 million inhabitants in 2020.'
    expect(texts(text)).toEqual(['Paris had 2.1 million inhabitants in 2020.'])
    expect(texts('+++\ntitle = "The tower was built in 1889."\n+++\n')).toEqual([])
  })

  it("keep a link's URL out of the claim", () => {
    const text =
      'According to [the WHO](https://www.who.int/report-2020.html), 5 million people died of it in 2020.'
    const claims = extractClaims(text)
    expect(claims.map((claim) => claim.text)).toEqual(['5 million people died of it in 2020.'])
    for (const claim of claims) expect(claim.text).not.toMatch(/https?:|who\.int/)
    const inside = 'The tower is [330 m](https://example.com/height) tall and was completed in 1889.'
    for (const claim of texts(inside)) expect(claim).not.toContain('example.com')
  })

  it('make no claim of a line that is only a URL, an image or a reference definition', () => {
    expect(texts('https://example.com/the-eiffel-tower-is-330-m-tall.html')).toEqual([])
    expect(texts('<https://example.com/tower>')).toEqual([])
    expect(texts('![The Eiffel Tower was completed in 1889](tower.png)')).toEqual([])
    expect(texts('[tower]: https://example.com/tower "The Eiffel Tower is 330 m tall"')).toEqual([])
  })

  it('read table cells apart and skip the delimiter row', () => {
    const text = '| Year | Fact |\n|------|------|\n| 2019 | 6.2 million people visited the tower in 2019 |'
    expect(texts(text)).toEqual(['6.2 million people visited the tower in 2019'])
  })

  it('leave HTML blocks and comments out', () => {
    expect(texts('<div>\n<!-- The tower is 330 m tall. -->\n</div>')).toEqual([])
  })
})

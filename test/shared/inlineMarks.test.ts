import { describe, expect, it } from 'vitest'
import { withoutInlineMarks } from '../../src/shared/markdown'

describe('withoutInlineMarks', () => {
  it('shows a claim without its emphasis, strikethrough and code marks', () => {
    expect(withoutInlineMarks('The **Eiffel Tower** is 330 metres tall.')).toBe(
      'The Eiffel Tower is 330 metres tall.',
    )
    expect(withoutInlineMarks('It was *finished* in __1889__ by _Eiffel_.')).toBe(
      'It was finished in 1889 by Eiffel.',
    )
    expect(withoutInlineMarks('It is ~~300~~ 330 metres tall.')).toBe('It is 300 330 metres tall.')
    expect(withoutInlineMarks('Run `npm test` before ***release***.')).toBe('Run npm test before release.')
  })

  it('drops one mark of a pair the claim cut off', () => {
    // From "**Ottawa** is the capital of Canada.": a claim never starts or ends with a mark.
    expect(withoutInlineMarks('Ottawa** is the capital of Canada.')).toBe('Ottawa is the capital of Canada.')
  })

  it('shows a link as its text and an escaped mark as the character', () => {
    expect(withoutInlineMarks('The [Eiffel Tower](https://example.com/tower_(Paris)) is tall.')).toBe(
      'The Eiffel Tower is tall.',
    )
    expect(withoutInlineMarks('It costs 5 \\* 3 \\_euros\\_.')).toBe('It costs 5 * 3 _euros_.')
  })

  it('keeps what is not a mark', () => {
    for (const text of [
      'It weighs 5 * 3 tonnes.',
      'The snake_case name of a_b_c stays.',
      'It is 2*3 or a*b tonnes.',
      'See https://example.com/a_b_ for more.',
      'Code `a*b*c` is code.',
    ])
      expect(withoutInlineMarks(text)).toBe(text.replace(/`/g, ''))
  })
})

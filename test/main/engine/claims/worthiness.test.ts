import { describe, expect, it } from 'vitest'
import {
  CHECKWORTHY_THRESHOLD,
  checkWorthiness,
  documentRegister,
  extractClaims,
} from '../../../../src/main/engine/claims'
import { ruling } from '../../../../src/main/engine/claims/model'
import { sentenceForm } from '../../../../src/main/engine/claims/statements'

const texts = (text: string) => extractClaims(text).map((claim) => claim.text)

describe('check-worthiness', () => {
  it('finds claims in factual sentences', () => {
    for (const sentence of [
      'The Eiffel Tower was completed in 1889.',
      'Water boils at 100 degrees Celsius at sea level.',
      'Unemployment fell from 7.8 percent to 4.7 percent between 2012 and 2016.',
      'Senator Smith voted against the bill in March, according to the Senate record.',
      'Copper is more reactive than silver, so it displaces silver from its salts.',
      'Marie Curie was the first woman to win a Nobel Prize.',
    ])
      expect(texts(sentence), sentence).toEqual([sentence])
  })

  it('makes no claims of questions, opinions, feelings or instructions', () => {
    for (const sentence of [
      'Is the Eiffel Tower taller than the Statue of Liberty?',
      'What do you think about the new budget?',
      'I love Paris in the spring.',
      'I think we should all visit more often.',
      'We need to do better for our children.',
      'Select the best decorator for your style and budget.',
      'Thank you.',
    ])
      expect(texts(sentence), sentence).toEqual([])
  })

  it('makes no claim of the writer speaking of themselves in prose, but lets talk decide by its words', () => {
    for (const sentence of [
      'As an AI language model, I do not have access to news beyond my knowledge cutoff in September 2021.',
      'For the latest medal counts, I recommend referring to the official Olympic website.',
      "I'm not sure whether the bridge opened in 1932 or in 1933.",
      'I strongly believe that the museum is the finest in the country.',
    ]) {
      expect(sentenceForm(sentence), sentence).toBe('about-the-writer')
      expect(texts(sentence), sentence).toEqual([])
    }
    // What the writer did is a claim like any other; so is a generic "we".
    for (const sentence of [
      'I visited the Hoover Dam in 1998, two years after it was renovated.',
      'The stars we see in the sky are mostly within a few thousand light years of the Sun.',
    ])
      expect(sentenceForm(sentence), sentence).not.toBe('about-the-writer')
    // In a debate "I think the deficit doubled" states a figure worth checking; there the words decide.
    const spoken = 'I think the deficit has doubled since 2008.'
    expect(ruling(sentenceForm(spoken), 'talk')).toBeUndefined()
    expect(ruling(sentenceForm(spoken), 'prose')).toBe(false)
  })

  it('splits a long compound sentence into claims with their own ranges', () => {
    const text =
      'The Eiffel Tower was completed in 1889 and is 330 metres tall, while the Statue of Liberty was dedicated in 1886 in New York Harbor.'
    const claims = extractClaims(text)
    expect(claims.map((claim) => claim.text)).toEqual([
      'The Eiffel Tower was completed in 1889 and is 330 metres tall',
      'the Statue of Liberty was dedicated in 1886 in New York Harbor.',
    ])
    for (const claim of claims) expect(text.slice(claim.charStart, claim.charEnd)).toBe(claim.text)
    expect(claims[1]?.charStart).toBe(text.indexOf('the Statue'))
  })

  it('keeps a sentence whole after an abbreviation or an initial', () => {
    expect(texts('Dr. Jones said the budget grew by 12% in 2019.')).toEqual([
      'Dr. Jones said the budget grew by 12% in 2019.',
    ])
    expect(texts('Justice William O. Douglas served on the Supreme Court from 1939 until 1975.')).toEqual([
      'Justice William O. Douglas served on the Supreme Court from 1939 until 1975.',
    ])
  })

  it('presumes plain statements of prose to be claims, but not in a transcript of talk', () => {
    const plain = 'Love is a complex emotional attachment that involves commitment and intimacy.'
    expect(checkWorthiness(plain, 'prose')).toBeGreaterThanOrEqual(CHECKWORTHY_THRESHOLD)
    expect(checkWorthiness(plain, 'talk')).toBeLessThan(CHECKWORTHY_THRESHOLD)
    expect(documentRegister(['I think so.', 'Well, you know, we tried.', plain])).toBe('talk')
    expect(documentRegister([plain, 'The tower is 330 m tall.'])).toBe('prose')
  })

  it('scores between 0 and 1, the same every time', () => {
    for (const sentence of ['', '?', 'The tower is 330 m tall.', 'I feel great!']) {
      const score = checkWorthiness(sentence)
      expect(score).toBeGreaterThanOrEqual(0)
      expect(score).toBeLessThanOrEqual(1)
      expect(checkWorthiness(sentence)).toBe(score)
    }
  })

  it('reads 100,000 words of prose, two claims per paragraph (its speed is in npm run bench)', () => {
    const paragraph =
      'The Eiffel Tower is 330 m tall and was completed in 1889. I think it is lovely, don’t you? ' +
      'According to the city, about 7 million people visit it every year, making it the most visited paid monument in the world. '
    const words = paragraph.split(/\s+/).length - 1
    const text = `${paragraph}\n\n`.repeat(Math.ceil(100_000 / words))
    const claims = extractClaims(text)
    expect(claims.length).toBeGreaterThan(2 * Math.floor(100_000 / words))
  })
})

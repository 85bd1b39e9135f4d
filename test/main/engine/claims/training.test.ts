import { describe, expect, it } from 'vitest'
import { learnedScore } from '../../../../src/main/engine/claims/model'
import {
  BAG_OF_WORDS,
  bestThreshold,
  DEFAULT_TRAINING,
  measure,
  trainModel,
} from '../../../../eval/training/checkworthiness'

describe('threshold selection', () => {
  it('takes a broad plateau of F1 over a spike one grid step wide', () => {
    // 10 claims at 0.9 and 2 at 0.8, one non-claim at 0.79: only a threshold of exactly 0.8 separates them
    // all (F1 1), while every threshold up to 0.79 keeps all claims and that one non-claim (F1 0.96).
    const scores = [...Array<number>(10).fill(0.9), 0.8, 0.8, 0.79]
    const labels = scores.map((score) => score >= 0.8)
    expect(measure(scores, labels, 0.8).f1).toBe(1)
    const threshold = bestThreshold(scores, labels)
    expect(threshold).toBeLessThan(0.79)
    expect(measure(scores, labels, threshold).f1).toBeCloseTo(0.96, 5)
  })

  it('picks a threshold that separates the classes when one does so broadly', () => {
    const scores = [0.1, 0.2, 0.3, 0.7, 0.8, 0.9]
    const labels = scores.map((score) => score > 0.5)
    const threshold = bestThreshold(scores, labels)
    expect(measure(scores, labels, threshold).f1).toBe(1)
  })
})

describe('the plain bag-of-words baseline', () => {
  // Checkworthy sentences hold a number; the others are opinions.
  const rows = Array.from({ length: 40 }, (_, i) =>
    i % 2 === 0
      ? { text: `Taxes rose by ${i + 3} percent in ${1990 + i}.`, checkworthy: true }
      : { text: `I think we should all do better, friend number ${i}.`, checkworthy: false },
  )

  it('learns from the words alone: no word pairs, hand-built features or characters model', () => {
    const model = trainModel(rows, BAG_OF_WORDS)
    const names = Object.keys(model.words.features)
    expect(names.length).toBeGreaterThan(0)
    expect(names.every((name) => name.startsWith('w:'))).toBe(true)
    expect(model.characters.features).toEqual({})
    expect(model.mix).toBe(0)
    expect(learnedScore(model, 'Taxes rose by 7 percent in 2001.')).toBeGreaterThan(0.5)
    expect(learnedScore(model, 'I think we should all do better.')).toBeLessThan(0.5)
  })

  it('is not the model: the model also learns word pairs and character n-grams', () => {
    const model = trainModel(rows, { ...DEFAULT_TRAINING, wordMinCount: 1, characterMinCount: 1 })
    expect(Object.keys(model.words.features).some((name) => !name.startsWith('w:'))).toBe(true)
    expect(Object.keys(model.characters.features).length).toBeGreaterThan(0)
  })
})

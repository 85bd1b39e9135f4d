import { describe, expect, it } from 'vitest'
import { bestThreshold, measure } from '../../src/main/engine/claims/training'

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

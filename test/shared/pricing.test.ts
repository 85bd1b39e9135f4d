import { describe, expect, it } from 'vitest'
import { DEFAULT_PRICES, quote } from '../../src/shared/pricing'

describe('the pricing function', () => {
  it('prices per claim and tier, with a breakdown that adds up to the total', () => {
    expect(quote(2, ['t1', 't2'], DEFAULT_PRICES)).toEqual({
      total: 10,
      unitPrices: { t1: 1, t2: 4 },
      breakdown: [
        { tier: 't1', claims: 2, unitPrice: 1, subtotal: 2 },
        { tier: 't2', claims: 2, unitPrice: 4, subtotal: 8 },
      ],
    })
  })

  it('follows the configured prices, and no claims cost nothing', () => {
    expect(quote(3, ['t3'], { ...DEFAULT_PRICES, t3: 12 }).total).toBe(36)
    expect(quote(0, ['t1', 't2', 't3'], DEFAULT_PRICES).total).toBe(0)
  })
})

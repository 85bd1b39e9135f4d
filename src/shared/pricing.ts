import type { PriceList, Quote, Tier } from './schemas'

/// Default prices in credits: per claim for each tier, flat for research (api-decisions.md).
export const DEFAULT_PRICES: PriceList = { t1: 1, t2: 4, t3: 10, research: 40 }

/// The one pricing function: the app, the estimate and the charge all call it. `claims` is the number of claims
/// to check, the same in every tier or per tier (a re-check keeps some claims' verdicts in some tiers).
export function quote(
  claims: number | Partial<Record<Tier, number>>,
  tiers: readonly Tier[],
  prices: PriceList,
): Quote {
  const breakdown = tiers.map((tier) => {
    const count = typeof claims === 'number' ? claims : (claims[tier] ?? 0)
    return { tier, claims: count, unitPrice: prices[tier], subtotal: count * prices[tier] }
  })
  return {
    total: breakdown.reduce((sum, line) => sum + line.subtotal, 0),
    unitPrices: Object.fromEntries(tiers.map((tier) => [tier, prices[tier]])),
    breakdown,
  }
}

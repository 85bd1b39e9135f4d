// What the evals that call configured models share: claims run a few at a time, and their tokens counted.
import type { TokenUsage } from '../src/shared/schemas'

/// Claims worked on at once (each model's requests are limited further by `concurrencyPerProvider`).
const CLAIMS_AT_ONCE = 8

/// `work` on every item, `CLAIMS_AT_ONCE` at a time; the results in the items' order.
export async function eachClaim<T, R>(
  items: readonly T[],
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index] as T, index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(CLAIMS_AT_ONCE, items.length) }, worker))
  return results
}

/// The tokens a call spent, in and out.
export const tokensOf = (usage: TokenUsage | null | undefined): number =>
  usage ? usage.inputTokens + usage.outputTokens : 0

import type { Tier } from '../../../shared/schemas'
import { SpellingChecker, t1Outcome } from './t1'
import type { TierChecker } from './tier'

/// t1 as a tier: one unit per claim, checked by Harper, decided at once.
function spellingTier(checker: SpellingChecker): TierChecker {
  return {
    tier: 't1',
    models: () => [''],
    async check({ claim, signal, now }) {
      return t1Outcome(claim, await checker.check(claim.text, signal), now())
    },
    close: () => checker.close(),
  }
}

/// The tiers this engine can run. t2 and t3 join when models are configured.
export function createTiers(): Map<Tier, TierChecker> {
  return new Map([['t1', spellingTier(new SpellingChecker())]])
}

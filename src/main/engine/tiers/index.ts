import type { Config } from '../../../shared/config'
import type { Tier } from '../../../shared/schemas'
import type { Store } from '../store'
import { SpellingChecker, t1Outcome } from './t1'
import type { TierChecker } from './tier'
import { modelTier } from './t2'
import { webTier } from './t3'
import { Web } from '../web'

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

/// The tiers this engine can run: t1 always; t2 and t3 (live web research through `web`) when the config has a
/// panel and a judge. The store keeps t2's vote cache.
export function createTiers(
  config: Config,
  store: Store,
  web: Web = new Web(config),
): Map<Tier, TierChecker> {
  const tiers = new Map<Tier, TierChecker>([['t1', spellingTier(new SpellingChecker())]])
  const t2 = modelTier(config.models, store.voteCache)
  if (t2) tiers.set('t2', t2)
  const t3 = webTier(config.models, web)
  if (t3) tiers.set('t3', t3)
  return tiers
}

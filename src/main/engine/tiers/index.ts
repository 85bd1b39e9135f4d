import type { Config } from '../../../shared/config'
import type { Tier } from '../../../shared/schemas'
import type { CalibrationMap } from './calibration'
import { apiKeys, type ApiKeys } from '../base/keys'
import type { Store } from '../store'
import { SpellingChecker, t1Outcome, type Writing } from './t1'
import { ALL_STEPS, type VerdictSteps } from './steps'
import type { TierChecker } from './tier'
import { calibratedTier } from './calibrated'
import { statementResolver } from './resolve'
import { resolvedTier } from './resolve/parts'
import { modelTier } from './t2'
import { webTier } from './t3'
import { Web } from '../web'

/// t1 as a tier: one unit per claim, checked by Harper in the writer's English (`writing`, read for each claim)
/// with names and repeated words judged in the whole document, decided at once.
function spellingTier(checker: SpellingChecker, writing: () => Writing): TierChecker {
  return {
    tier: 't1',
    models: () => [''],
    async check({ claim, documentText, signal, now }) {
      const placement = { document: documentText, charStart: claim.charStart }
      return t1Outcome(
        claim,
        await checker.check(claim.text, signal, writing(), placement),
        now(),
        documentText,
      )
    },
    warm: () => checker.warm(),
    close: () => checker.close(),
  }
}

/// The tiers this engine can run: t1 always; t2 and t3 (live web research through `web`) when the config has a
/// panel and a judge, both checking claims as resolved statements, their decisions calibrated by `calibration`
/// when there is one. The store keeps t2's vote cache and the claims' statements.
export function createTiers(
  config: Config,
  store: Store,
  web: Web = new Web(config),
  keys: ApiKeys = apiKeys(),
  writing: () => Writing = () => ({ dialect: 'american', dictionary: [] }),
  steps: Readonly<VerdictSteps> = ALL_STEPS,
  calibration: CalibrationMap | null = null,
): Map<Tier, TierChecker> {
  const tiers = new Map<Tier, TierChecker>([['t1', spellingTier(new SpellingChecker(), writing)]])
  setModelTiers(tiers, config, store, web, keys, steps, calibration)
  return tiers
}

/// Puts t2 and t3 as `config` has them in `tiers` (or takes them out when it has no panel and judge): the
/// service and the job runner read the same map, so new work uses them at once; units already running finish
/// on the checkers they started with.
export function setModelTiers(
  tiers: Map<Tier, TierChecker>,
  config: Config,
  store: Store,
  web: Web,
  keys: ApiKeys,
  steps: Readonly<VerdictSteps> = ALL_STEPS,
  calibration: CalibrationMap | null = null,
): void {
  // One resolver for both tiers: a claim is resolved once, whichever tier asks first.
  const resolver = statementResolver(config.models, store.documents, keys)
  const resolved = (tier: TierChecker | null) => (tier && resolver ? resolvedTier(tier, resolver) : tier)
  const made = {
    t2: resolved(modelTier(config.models, store.voteCache, keys, steps)),
    t3: resolved(webTier(config, web, keys, steps)),
  }
  for (const tier of ['t2', 't3'] as const) {
    const checker = made[tier]
    const fitted = calibration?.[tier]
    if (checker) tiers.set(tier, fitted ? calibratedTier(checker, fitted) : checker)
    else tiers.delete(tier)
  }
}

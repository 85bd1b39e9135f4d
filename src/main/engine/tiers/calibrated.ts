// A model tier whose decisions carry their calibrated confidence: how often a verdict given with that confidence
// was right, by the map fitted for these models (../calibration.ts).
import type { Consensus } from '../../../shared/schemas'
import { calibrated, type CalibrationSteps } from './calibration'
import type { TierChecker } from './tier'

/// `inner`, its consensus (and each part's) with `calibratedConfidence` read from `steps`.
export function calibratedTier(inner: TierChecker, steps: CalibrationSteps): TierChecker {
  const judge = inner.judge?.bind(inner)
  const through = (consensus: Consensus): Consensus => ({
    ...consensus,
    calibratedConfidence: calibrated(steps, consensus.confidence),
  })
  return {
    tier: inner.tier,
    models: () => inner.models(),
    check: (input) => inner.check(input),
    unitTimeoutMs: inner.unitTimeoutMs,
    concurrency: inner.concurrency,
    close: inner.close?.bind(inner),
    judge:
      judge &&
      (async (input) => {
        const outcome = await judge(input)
        return {
          ...outcome,
          consensus: outcome.consensus && through(outcome.consensus),
          partConsensus: outcome.partConsensus?.map(through),
        }
      }),
  }
}

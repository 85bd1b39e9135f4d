// The calibration map that `npm run eval -- verification --config FILE --calibrate` fits and saves next to the
// config (FILE.calibration.json): for t2 and t3, how often a verdict of each self-reported confidence was right.
// When the engine runs on that config file, the judge's (or agreeing panel's) confidence is shown through it;
// without it, the views show agreement and sources instead of a confidence nobody calibrated.
import { existsSync, readFileSync } from 'node:fs'
import { isDeepStrictEqual } from 'node:util'
import { z } from 'zod'
import type { Config } from '../../../shared/config'

const share = z.number().min(0).max(1)

/// One tier's map: steps of rising confidence, each the share of verdicts right from its confidence up to the
/// next step's, and the claims it rests on (isotonic regression, so the shares never fall).
const Steps = z
  .array(z.strictObject({ confidence: share, probability: share, claims: z.int().positive() }))
  .min(1)
  .refine(
    (steps) =>
      steps.every((step, i) => i === 0 || (steps[i - 1] as typeof step).confidence < step.confidence),
    'steps must be in rising order of confidence',
  )
export type CalibrationSteps = z.infer<typeof Steps>

/// The map of the model tiers; a tier without enough data to fit (t3 without a search provider) is null.
export const CalibrationMap = z.strictObject({ t2: Steps.nullable(), t3: Steps.nullable() })
export type CalibrationMap = z.infer<typeof CalibrationMap>

/// Where the map of the config file `configPath` is kept.
export const calibrationFile = (configPath: string): string => `${configPath}.calibration.json`

/// The map saved beside `configPath`, or null when there is none or it cannot be used: then `warning` says
/// why in words (the engine starts without it rather than not at all).
export function loadCalibration(configPath: string | undefined): {
  map: CalibrationMap | null
  warning: string | null
} {
  if (!configPath) return { map: null, warning: null }
  const file = calibrationFile(configPath)
  if (!existsSync(file)) return { map: null, warning: null }
  const unused = (why: string) => ({
    map: null,
    warning:
      `The calibration map ${file} ${why}; verdicts show agreement and sources instead of a calibrated ` +
      `confidence. Fit it again with: npm run eval -- verification --config ${configPath} --calibrate`,
  })
  let json: unknown
  try {
    json = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''))
  } catch (error) {
    return unused(`cannot be read as JSON (${(error as Error).message})`)
  }
  const parsed = CalibrationMap.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    return unused(`is not valid (${issue?.path.join('.') || 'top level'}: ${issue?.message})`)
  }
  return { map: parsed.data, warning: null }
}

/// The map in force: `map` fits the models of the config file, so it holds only while the tiers run on those
/// (models chosen in the app's settings instead were never calibrated).
export function calibrationFor(
  map: CalibrationMap | null,
  fitted: Config['models'],
  running: Config['models'],
): CalibrationMap | null {
  const models = (m: Config['models']) => ({ panel: m.panel, judge: m.judge })
  return map && isDeepStrictEqual(models(fitted), models(running)) ? map : null
}

/// How often a verdict given with `confidence` was right: the share of the highest step at or below it (the
/// lowest step's below the first).
export function calibrated(steps: CalibrationSteps, confidence: number): number {
  const at = steps.findLast((step) => step.confidence <= confidence) ?? steps[0]
  return (at as CalibrationSteps[number]).probability
}

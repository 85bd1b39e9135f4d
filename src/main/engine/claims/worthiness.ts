// The check-worthiness of one sentence, by the model that scripts/train-checkworthiness.ts trained.

import shipped from '../../../../resources/checkworthiness.json' with { type: 'json' }
import type { FindClaims } from '../../../shared/schemas'
import { modelScore, type WorthinessModel } from './model'
import type { Register } from './statements'

// JSON gives its [idf, weight] pairs the type number[]; the training script writes them as pairs.
const model = shipped as unknown as WorthinessModel

/// Each "Find claims" setting's threshold and the precision and recall it had in cross-validation.
export const FIND_CLAIMS = model.findClaims

/// Sentences scoring at least this are check-worthy (the balanced setting's threshold).
export const CHECKWORTHY_THRESHOLD = model.threshold

/// How check-worthy a sentence is, from 0 to 1, in a document written as prose (the default) or as talk, the
/// rules of form holding at the threshold of the writer's "Find claims" setting.
export function checkWorthiness(
  sentence: string,
  register: Register = 'prose',
  findClaims: FindClaims = 'balanced',
): number {
  return modelScore(model, sentence, register, FIND_CLAIMS[findClaims].threshold)
}

// The check-worthiness of one sentence, by the model that scripts/train-checkworthiness.ts trained.

import shipped from '../../../../resources/checkworthiness.json' with { type: 'json' }
import { modelScore, type WorthinessModel } from './model'
import type { Register } from './statements'

// JSON gives its [idf, weight] pairs the type number[]; the training script writes them as pairs.
const model = shipped as unknown as WorthinessModel

/// Sentences scoring at least this are check-worthy.
export const CHECKWORTHY_THRESHOLD = model.threshold

/// How check-worthy a sentence is, from 0 to 1, in a document written as prose (the default) or as talk.
export function checkWorthiness(sentence: string, register: Register = 'prose'): number {
  return modelScore(model, sentence, register)
}

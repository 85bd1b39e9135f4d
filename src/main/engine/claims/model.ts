// The check-worthiness model: logistic regression over `sentenceFeatures`, learned from debate sentences,
// and two rules of form that no data taught (see statements.ts): a question or an instruction is no claim,
// and in prose a plain statement is one. Debates are talk, where the words decide which statements matter;
// writers' prose is mostly plain statements, about things the debates never spoke of.

import { sentenceFeatures } from './features'
import { sentenceForm, type Register, type SentenceForm } from './statements'

/// A trained model as shipped in resources/checkworthiness.json.
export interface WorthinessModel {
  /// The logit of a sentence is the bias plus the weights of the features present.
  bias: number
  weights: Record<string, number>
  /// Sentences scoring at least this are check-worthy (chosen by cross-validation on the training data).
  threshold: number
}

/// How check-worthy a sentence of a document in that register is, from 0 to 1.
export function modelScore(model: WorthinessModel, sentence: string, register: Register = 'prose'): number {
  return decide(model.threshold, learnedScore(model, sentence), sentenceForm(sentence), register)
}

/// The logistic regression's probability alone, before the rules of form.
export function learnedScore(model: WorthinessModel, sentence: string): number {
  let logit = model.bias
  for (const name of sentenceFeatures(sentence)) logit += model.weights[name] ?? 0
  return 1 / (1 + Math.exp(-logit))
}

/// What the rules of form say of a sentence: a claim, not a claim, or nothing (the words decide).
export function ruling(form: SentenceForm, register: Register): boolean | undefined {
  if (form === 'question-or-instruction') return false
  if (form === 'plain-statement' && register === 'prose') return true
  return undefined
}

/// The score of a sentence from its learned score and the rules, so that the rules hold at `threshold`.
function decide(threshold: number, learned: number, form: SentenceForm, register: Register): number {
  const ruled = ruling(form, register)
  if (ruled === true) return Math.max(learned, threshold)
  if (ruled === false) return Math.min(learned, threshold / 2)
  return learned
}

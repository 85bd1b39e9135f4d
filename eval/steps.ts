// The steps the verification eval switches off in turn, each with its `--no-…` flag: resolving each claim into
// the self-contained statement (and parts) that is checked, then the verdict steps.
import { ALL_STEPS, type VerdictSteps } from '../src/main/engine/tiers/steps'

export interface EvalSteps extends VerdictSteps {
  /// Each claim is checked as the statement the resolver makes of it, part by part when it states several
  /// facts, as the engine checks it; off, as its bare words.
  statement: boolean
}

export const EVAL_STEPS: Readonly<EvalSteps> = { statement: true, ...ALL_STEPS }

/// The steps of t3 alone (its search and its quotes): t2's rows do not switch them off.
export const WEB_ONLY: ReadonlyArray<keyof EvalSteps> = ['searchLoop', 'stanceCheck']

import { z } from 'zod'

/// The steps a t2 or t3 verdict goes through beyond the panel's vote and the judge's decision. Each is on in
/// the product; the verification eval switches each off in turn to measure what it is worth (a new step adds
/// its name here and its flag appears in the eval).
export interface VerdictSteps {
  /// Every system prompt gives today's date, so "now", "currently" and "the latest" are judged against it.
  date: boolean
  /// A unanimous panel, or a clear majority of it after the debate, decides without the judge.
  panelDecides: boolean
  /// A split panel debates one round (each panelist sees the others' anonymised reasons and votes again)
  /// before its majority or the judge decides.
  debate: boolean
  /// Votes and decisions give their reasons before their verdict, so that the model reasons to it; off, the
  /// verdict comes first and the reasons after it, where they can no longer lead to it.
  reasoningFirst: boolean
  /// t3: the model reading a search's results may ask for another search, up to `research.maxSearches`; off,
  /// one search per claim.
  searchLoop: boolean
  /// t3: each verified quote is judged for its stance toward the claim; off, no quote is (its stance stays
  /// null, not checked).
  stanceCheck: boolean
}

export const ALL_STEPS: Readonly<VerdictSteps> = {
  date: true,
  panelDecides: true,
  debate: true,
  reasoningFirst: true,
  searchLoop: true,
  stanceCheck: true,
}

/// The UTC day of an ISO timestamp from the engine's clock, as the prompts give it ("2026-11-25"); null when
/// the date step is off.
export const todayOf = (now: string, steps: Readonly<VerdictSteps>): string | null =>
  steps.date ? now.slice(0, 10) : null

/// The members an answer states its verdict in, last when the reasons come first.
const VERDICT_MEMBERS = new Set(['confidence', 'detail', 'verdict'])
const verdictFirst = new WeakMap<z.ZodObject, z.ZodObject>()

/// An answer's schema in the order the steps ask for: as written (reasons first, the verdict last), or with
/// reasoning first off, its verdict members first. The same schema object each time (the client keeps each
/// schema's JSON schema).
export function answerOrder<S extends z.ZodObject>(schema: S, steps: Readonly<VerdictSteps>): S {
  if (steps.reasoningFirst) return schema
  let reordered = verdictFirst.get(schema)
  if (!reordered) {
    const members = Object.entries(schema.shape)
    reordered = z.object(
      Object.fromEntries([
        ...members.filter(([name]) => VERDICT_MEMBERS.has(name)),
        ...members.filter(([name]) => !VERDICT_MEMBERS.has(name)),
      ]),
    )
    verdictFirst.set(schema, reordered)
  }
  return reordered as S
}

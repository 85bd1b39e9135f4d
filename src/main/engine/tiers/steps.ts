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
}

export const ALL_STEPS: Readonly<VerdictSteps> = { date: true, panelDecides: true, debate: true }

/// The UTC day of an ISO timestamp from the engine's clock, as the prompts give it ("2026-11-25"); null when
/// the date step is off.
export const todayOf = (now: string, steps: Readonly<VerdictSteps>): string | null =>
  steps.date ? now.slice(0, 10) : null

/// One evaluation: reads its data, measures, and returns the figures: one row of them, or one row per file or
/// method (the first is the headline).
export interface EvalSet {
  /// What is measured, in one line.
  describe: string
  run(options: {
    file?: string
    config?: string
    limit?: number
    /// Verdict steps switched off in every row (verification's `--no-…` flags).
    off?: string[]
    /// Verification: fit and save the calibration map of the panel's and judge's confidence next to the config.
    calibrate?: boolean
  }): Promise<Record<string, unknown>>
}

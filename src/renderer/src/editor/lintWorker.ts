import type { LintPort } from './lintChecker'

/// Starts the worker that runs Harper for the editor (lint.worker.ts, bundled by electron-vite).
export const startLintWorker = (): LintPort =>
  new Worker(new URL('./lint.worker.ts', import.meta.url), { type: 'module', name: 'spelling' })

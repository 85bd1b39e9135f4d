// The messages between SpellingChecker (main thread) and the t1 worker thread.
import type { Finding } from '../../../../shared/findings'
import type { Dialect } from '../../../../shared/schemas'

export type { Finding }

/// Asks the worker to check one text.
export interface CheckRequest {
  id: number
  text: string
  /// The English whose spelling counts as right.
  dialect: Dialect
}

/// The worker's answer to the request with the same id.
export type CheckReply = { id: number; model: string; findings: Finding[] } | { id: number; error: string }

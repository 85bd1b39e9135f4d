// The messages between SpellingChecker (main thread) and the t1 worker thread.

/// One spelling or grammar finding in a checked text: UTF-16 offsets into that text, end exclusive.
export interface Finding {
  charStart: number
  charEnd: number
  message: string
  /// Replacements for text.slice(charStart, charEnd), best first; '' means delete it.
  suggestions: string[]
  /// Harper's rule name, e.g. SpellCheck or AnA.
  rule: string
}

/// Asks the worker to check one text.
export interface CheckRequest {
  id: number
  text: string
}

/// The worker's answer to the request with the same id.
export type CheckReply = { id: number; model: string; findings: Finding[] } | { id: number; error: string }

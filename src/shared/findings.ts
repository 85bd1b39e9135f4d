// Spelling and grammar findings as the engine's t1 and the editor share them (what Harper found; harper.js
// itself stays out of this module, so the page can use it without loading the checker).

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

/// Harper's rule for unknown words: the one a writer's dictionary answers.
export const SPELLING_RULE = 'SpellCheck'

/// Whether a finding of `rule` on `word` is answered by the writer's dictionary (the word is known there).
export const knownToDictionary = (rule: string, word: string, dictionary: ReadonlySet<string>): boolean =>
  rule === SPELLING_RULE && dictionary.has(word)

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
  /// A misspelt or mistyped word ("recieved", "teh"), shown as spelling; anything else is grammar.
  spelling: boolean
}

/// Harper's kinds of lint that are about how a word is spelt: an unknown word, or a known slip of the keys.
export const SPELLING_KINDS: readonly string[] = ['Spelling', 'Typo']

/// Harper's rule for unknown words: the one a writer's dictionary answers.
export const SPELLING_RULE = 'SpellCheck'
/// Harper's rules that flag a word it does not know: unknown words, and ones it would split ("acount" → "a
/// count"); their suggestions are ranked again (spellings.ts).
export const UNKNOWN_WORD_RULES: readonly string[] = [SPELLING_RULE, 'SplitWords']

/// A message cut where it quotes words or commands in backticks (Harper's do): the quoted parts are `code`,
/// shown as such.
export function messageParts(message: string): { text: string; code: boolean }[] {
  return message
    .split('`')
    .map((text, i) => ({ text, code: i % 2 === 1 }))
    .filter((part) => part.text !== '')
}

/// A message as plain text, where code cannot be shown: its backticks left out ("Did you mean to spell yaer
/// this way?").
export const plainMessage = (message: string): string =>
  messageParts(message)
    .map((part) => part.text)
    .join('')

/// Whether a finding of `rule` on `word` is answered by the writer's dictionary: the rule flags a word it does
/// not know (or would split), and the word is known there.
export const knownToDictionary = (rule: string, word: string, dictionary: ReadonlySet<string>): boolean =>
  UNKNOWN_WORD_RULES.includes(rule) && dictionary.has(word)

// Which spelling findings are typos: Harper flags every word it does not know, and in an article most of those
// are names ("Okafor" → "Orator", "RIVERTON" → "Overton") or words of another English ("metre" → "mere"). Shared
// by the engine's t1 and the editor; the writer's dictionary stays the way to teach the checker a word.
import type { Finding } from './findings'
import { clearSpelling, englishWord, sameWordElsewhere } from './spellings'

/// Where a checked text sits: the whole document it is part of, and the offset (UTF-16) at which it starts
/// there. Names and repeated words are judged in the whole document.
export interface Placement {
  document: string
  charStart: number
}

/// Whether the text at `at` begins a sentence: nothing but Markdown's block markers before it on its line, or
/// a sentence's end (. ! ? and any closing quotes or brackets) just before it.
export function startsSentence(text: string, at: number): boolean {
  const before = text.slice(text.lastIndexOf('\n', at - 1) + 1, at)
  return /^[\s#>*+-]*(?:\d+[.)]\s*)?$/.test(before) || /[.!?]["'”’)\]]*\s*$/.test(before)
}

/// Whether a finding of `text` (placed at `placement`) is kept in a check's findings. Every finding but a
/// spelling one is; a spelling finding is dropped when its word is a common word of some English (englishWord:
/// changing it into another word needs more evidence than an edit distance), or is taken for a name or a term
/// of the document's own (takenForName).
export function likelyTypo(finding: Finding, text: string, placement: Placement): boolean {
  if (!finding.spelling) return true
  const word = text.slice(finding.charStart, finding.charEnd)
  return !englishWord(word) && !takenForName(finding, word, placement.document, placement.charStart)
}

/// Whether the editor marks a finding on `word` as the writer types, before the document around it is known: a
/// spelling finding on a common word of some English only when Harper's first suggestion is the same word as
/// the writer's English spells it ("colour" in an American draft, "color" in a British one), which the writer
/// chose to be told. The editor then leaves names and the document's own terms alone as t1 does (takenForName).
export function markedAsWritten(finding: Finding, word: string): boolean {
  if (!finding.spelling || !englishWord(word)) return true
  const first = finding.suggestions[0]
  return first !== undefined && sameWordElsewhere(word, first)
}

/// Whether the misspelt `word` of a spelling finding, in `document` where the finding's text starts at
/// `charStart`, is taken for a name or a term of the text's own: it is capitalised in the middle of a sentence,
/// or capitalised and found more than once in the document; or, in lower case, found more than once, unless it
/// clearly stands for another word (clearSpelling): a writer who misspells "recieve" every time is told every
/// time.
export function takenForName(finding: Finding, word: string, document: string, charStart: number): boolean {
  if (!/^\p{Lu}/u.test(word))
    return occurrences(document, word) >= 2 && clearSpelling(word, finding.suggestions) === null
  return startsSentence(document, charStart + finding.charStart) ? occurrences(document, word) >= 2 : true
}

/// The words of the last document asked about, counted in lower case: a check asks of each of its claims in the
/// same document, which is read once, not once per finding.
let counted: { document: string; words: Map<string, number> } | null = null

/// How many times `word` stands as a word of its own in `document` (not inside a longer run of letters and
/// digits), in any case.
function occurrences(document: string, word: string): number {
  // A word with other characters than letters and digits (an apostrophe) is looked for as it is.
  if (/[^\p{L}\p{N}]/u.test(word)) {
    const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    return document.match(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'giu'))?.length ?? 0
  }
  if (counted?.document !== document) {
    const words = new Map<string, number>()
    for (const [found] of document.matchAll(/[\p{L}\p{N}]+/gu)) {
      const lower = found.toLowerCase()
      words.set(lower, (words.get(lower) ?? 0) + 1)
    }
    counted = { document, words }
  }
  return counted.words.get(word.toLowerCase()) ?? 0
}

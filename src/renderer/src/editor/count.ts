/// Counting words and characters the way a writer means them, with the Unicode rules the browser itself uses.

const wordSegmenter = new Intl.Segmenter(undefined, { granularity: 'word' })
const characterSegmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

// Segmenting takes more than linear time in the length of the string (V8), so long text is segmented in pieces
// of about this length.
const PIECE_LENGTH = 1000

// Pieces are cut just before a space, tab or line break, where nothing joins across the cut: no word continues
// over a space, and a space starts a new character unless a prepended mark (Arabic number signs and the like,
// listed here for the Basic Multilingual Plane; any astral character is passed over) comes right before it.
const CUT = /(?<![\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u0d4e\ud800-\udfff])[ \t\n]/g

// Below U+0300 every character is one user-perceived character (marks start at U+0300, and a CodeMirror
// document holds no carriage returns), so only text with a character from U+0300 up needs segmenting.
const BEYOND_SIMPLE = /[\u0300-\uffff]/

/// Words in `text`: the segments Unicode's word rules call word-like. Numbers count ("330" is one word),
/// punctuation and Markdown markers (`#`, `-`, `>`) do not, and Chinese or Japanese is counted word by word.
export function countWords(text: string): number {
  let words = 0
  for (const piece of pieces(text)) {
    for (const segment of wordSegmenter.segment(piece)) if (segment.isWordLike) words++
  }
  return words
}

/// User-perceived characters in `text` (an emoji or a letter with its accents is one), spaces included,
/// line breaks not.
export function countCharacters(text: string): number {
  let characters = 0
  for (const piece of pieces(text)) {
    if (BEYOND_SIMPLE.test(piece)) {
      for (const { segment } of characterSegmenter.segment(piece)) if (segment !== '\n') characters++
    } else {
      characters += piece.length - lineBreaks(piece)
    }
  }
  return characters
}

function* pieces(text: string): Generator<string> {
  let start = 0
  while (text.length - start > PIECE_LENGTH) {
    CUT.lastIndex = start + PIECE_LENGTH
    const cut = CUT.exec(text)
    if (!cut) break
    yield text.slice(start, cut.index)
    start = cut.index
  }
  yield text.slice(start)
}

function lineBreaks(text: string): number {
  let count = 0
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++
  return count
}

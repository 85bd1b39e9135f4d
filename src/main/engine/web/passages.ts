/// A passage of a page's text: `text === pageText.slice(start, end)`.
export interface Passage {
  text: string
  start: number
  end: number
}

/// Collapses runs of whitespace to one space and trims: the form quotes are compared in.
export function normaliseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

const SENTENCE_END = /[.!?]["')\]]?\s+(?=["'([]?[A-Z0-9])/g

/// Splits a page's text into passages with their offsets: each paragraph (blocks are separated by blank
/// lines), long paragraphs cut at sentence ends into pieces of about `maxChars`.
export function splitPassages(text: string, maxChars = 700): Passage[] {
  const passages: Passage[] = []
  const paragraph = /[^\n]+(?:\n(?!\s*\n)[^\n]*)*/g
  for (let match = paragraph.exec(text); match; match = paragraph.exec(text)) {
    const start = match.index
    const body = match[0]
    if (body.trim() === '') continue
    if (body.length <= maxChars) {
      passages.push(trimmed(text, start, start + body.length))
      continue
    }
    const cuts: number[] = []
    SENTENCE_END.lastIndex = 0
    for (let end = SENTENCE_END.exec(body); end; end = SENTENCE_END.exec(body))
      cuts.push(end.index + end[0].length)
    let from = 0
    let last = 0
    for (const cut of [...cuts, body.length]) {
      if (cut - from > maxChars && last > from) {
        passages.push(trimmed(text, start + from, start + last))
        from = last
      }
      last = cut
    }
    // A sentence longer than maxChars stays whole.
    if (body.length > from) passages.push(trimmed(text, start + from, start + body.length))
  }
  return passages.filter((passage) => passage.text.length > 0)
}

function trimmed(text: string, start: number, end: number): Passage {
  while (start < end && /\s/.test(text.charAt(start))) start++
  while (end > start && /\s/.test(text.charAt(end - 1))) end--
  return { text: text.slice(start, end), start, end }
}

/// A manuscript longer than one check may be (`limits.maxTextChars`) is checked in parts. The parts are cut where
/// the writer's text already breaks: at a heading, else between paragraphs, else between sentences, so that no
/// claim (a sentence, or part of one) is ever cut in two. Used by the editor and by `factdesk check FILE`.

/// The longest text one check takes by default (api-decisions.md, `limits.maxTextChars`).
export const DEFAULT_MAX_TEXT_CHARS = 200_000

/// One part of a manuscript: `from` inclusive, `to` exclusive, UTF-16 offsets into the whole text.
export interface ManuscriptPart {
  from: number
  to: number
}

const HEADING_START = /\n(?=#{1,6}[ \t])/g
const PARAGRAPH_START = /\n[ \t]*\n(?=[ \t]*\S)/g
const sentences = new Intl.Segmenter('en', { granularity: 'sentence' })
// The segmenter slows down quadratically on long strings: only the end of a part is read for its last sentence,
// with a little of what follows (a sentence's end depends on the next words).
const SENTENCE_WINDOW = 4096
const LOOKAHEAD = 256
// A sentence the engine joins to the next one ("Dr. Jones", "William O. Douglas"): no cut after it.
const ABBREVIATION = /(?:^|[\s(])(?:[A-Z][a-z]{0,3}|[a-z]{1,2}|e\.g|i\.e)\.\s*$/

/// Where a part from `from` may end at the latest `most`, best first: the last break before a heading, else
/// before a paragraph, else before a sentence; undefined when the text has none of them there.
function lastCut(text: string, from: number, most: number): number | undefined {
  const window = text.slice(from, most + 1)
  const lastAfter = (pattern: RegExp): number | undefined => {
    const ends = [...window.matchAll(pattern)].map((match) => from + match.index + match[0].length)
    return ends.filter((at) => at > from && at <= most).at(-1)
  }
  return lastAfter(HEADING_START) ?? lastAfter(PARAGRAPH_START) ?? lastSentence(text, from, most)
}

function lastSentence(text: string, from: number, most: number): number | undefined {
  const start = Math.max(from, most - SENTENCE_WINDOW)
  return [...sentences.segment(text.slice(start, most + LOOKAHEAD))]
    .map((segment) => start + segment.index)
    .filter((at) => at > start && at <= most)
    .filter((at) => !ABBREVIATION.test(text.slice(Math.max(from, at - 12), at)))
    .at(-1)
}

/// The parts of `text`, each at most `limit` UTF-16 units long, in order and covering it all. The whole text when
/// it fits. Each part ends at the last heading that keeps it within the limit, else the last paragraph, else the
/// last sentence; only a single sentence longer than the limit is cut inside, between words.
export function manuscriptParts(text: string, limit = DEFAULT_MAX_TEXT_CHARS): ManuscriptPart[] {
  const parts: ManuscriptPart[] = []
  let from = 0
  while (text.length - from > limit) {
    const most = from + limit
    const cut = lastCut(text, from, most) ?? wordCut(text, from, most)
    parts.push({ from, to: cut })
    from = cut
  }
  parts.push({ from, to: text.length })
  return parts
}

/// The last break between words at or before `most`, else `most` itself (never between a surrogate pair).
function wordCut(text: string, from: number, most: number): number {
  const space = text.lastIndexOf(' ', most - 1)
  if (space > from) return space + 1
  const code = text.charCodeAt(most - 1)
  return code >= 0xd800 && code <= 0xdbff ? most - 1 : most
}

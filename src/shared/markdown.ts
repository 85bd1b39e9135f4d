// What of a Markdown text is prose. The result keeps the text's length, so an index into it is an index
// into the text: syntax becomes spaces, a line break inside a paragraph becomes a space and a line break
// between blocks stays a line break (which ends a sentence for Intl.Segmenter).

/// Kinds of characters of the text.
export const PROSE = 0
/// Markup that may sit inside a claim (emphasis, link brackets, inline tags) but never at its ends.
const SOFT_SYNTAX = 1
/// Markup and code that a claim never contains: it cuts a sentence into pieces.
export const HARD_SYNTAX = 2

/// The prose of a text: `view` has the text's length, with markup blanked; `kind[i]` says what text[i] is.
export interface ProseView {
  view: string
  kind: Uint8Array
}

interface Line {
  start: number
  end: number
  /// Index after the line break (equal to `end` on the last line without one).
  next: number
  /// Whether the line is the last of its block (paragraph, heading, list item, table row, code).
  endsBlock: boolean
}

const SPACE = 32
const NEWLINE = 10
/// U+FEFF, which a file's first bytes may hold (a byte-order mark): never part of a sentence.
const BYTE_ORDER_MARK = 0xfeff
const FENCE = /^ {0,3}(`{3,}|~{3,})/
const THEMATIC_BREAK = /^ {0,3}([-*_])(?: *\1){2,} *$/
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+) *$/
const HEADING = /^ {0,3}#{1,6}(?=\s|$)/
const BLOCK_PREFIX = /^(?: {0,3}> ?)*(?: {0,3}(?:[-*+]|\d{1,9}[.)])(?: +\[[ xX]\])?(?= |$))?/
const LIST_ITEM = /^(?: {0,3}> ?)* {0,3}(?:[-*+]|\d{1,9}[.)])(?= |$)/
const HTML_BLOCK = /^ {0,3}<(?:!--|\/?[A-Za-z][A-Za-z0-9-]*(?:\s|\/?>|$)|!?\[CDATA\[|\?)/
const LINK_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*\S/
const TABLE_DELIMITER = /^ *\|? *:?-+:? *(?:\| *:?-+:? *)*\|? *$/
const BARE_URL = /\b(?:https?:\/\/|www\.)[^\s<>`]+/gi
const AUTOLINK = /<(?:[a-z][a-z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>@]+)>/gi
const INLINE_TAG = /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g
const URL_TRAILER = /[.,;:!?'")\]]+$/

/// Marks the syntax, code, front matter and line structure of a Markdown (or plain) text.
export function proseView(text: string): ProseView {
  const kind = new Uint8Array(text.length)
  const lines = splitLines(text)
  const endBlock = (index: number) => {
    const line = lines[index]
    if (line) line.endsBlock = true
  }
  const contentOf = (index: number) => {
    const line = lines[index]
    return line ? text.slice(line.start, line.end) : ''
  }
  let i = skipFrontMatter(text, lines, kind)
  let inTable = false
  let inIndentedCode = false
  while (i < lines.length) {
    const line = lines[i] as Line
    const content = contentOf(i)
    const previous = lines[i - 1]
    const previousBlank = !previous || contentOf(i - 1).trim() === ''
    const fence = FENCE.exec(content)
    if (fence) {
      endBlock(i - 1)
      i = skipFence(text, lines, i, fence[1] as string, kind)
      inTable = false
      continue
    }
    const blank = content.trim() === ''
    // Indented lines are code after a blank line (unless they continue a list item) and while code lasts.
    const indentedCode: boolean =
      /^(?: {4}|\t)/.test(content) && (inIndentedCode || (previousBlank && !inList(text, lines, i)))
    if (!blank) inIndentedCode = indentedCode
    const tableRow: boolean = content.includes('|') && (inTable || isTableDelimiter(contentOf(i + 1)))
    const hard =
      blank ||
      indentedCode ||
      THEMATIC_BREAK.test(content) ||
      HTML_BLOCK.test(content) ||
      LINK_DEFINITION.test(content) ||
      (isTableDelimiter(content) && inTable) ||
      (SETEXT_UNDERLINE.test(content) && !previousBlank && !previous?.endsBlock)
    inTable = tableRow
    if (hard) {
      endBlock(i - 1)
      endBlock(i)
      markLine(line, kind, HARD_SYNTAX)
      i++
      continue
    }
    const heading = HEADING.exec(content)
    if (heading || tableRow || LIST_ITEM.test(content)) endBlock(i - 1)
    if (heading || tableRow) endBlock(i)
    const prefix = heading ? heading[0].length : (BLOCK_PREFIX.exec(content)?.[0].length ?? 0)
    const contentEnd = heading ? line.start + closingHashes(content) : line.end
    for (let p = line.start; p < line.start + prefix; p++) kind[p] = SOFT_SYNTAX
    for (let p = contentEnd; p < line.end; p++) kind[p] = SOFT_SYNTAX
    markInline(text, line.start + prefix, contentEnd, kind)
    if (tableRow) markCellBorders(text, line, kind)
    i++
  }
  const view = new Uint16Array(text.length)
  for (let p = 0; p < text.length; p++) {
    const code = text.charCodeAt(p)
    view[p] = kind[p] === PROSE && code !== BYTE_ORDER_MARK ? code : SPACE
  }
  // A line break inside a paragraph joins its lines; one that ends a block ends any sentence there.
  for (const line of lines) {
    for (let p = line.end; p < line.next; p++) view[p] = SPACE
    if (line.endsBlock && line.next > line.end) view[line.next - 1] = NEWLINE
  }
  // ignoreBOM: a leading U+FEFF is kept (as a space), or every offset after it would be one short.
  return { view: new TextDecoder('utf-16le', { ignoreBOM: true }).decode(view), kind }
}

function isTableDelimiter(content: string): boolean {
  return content.includes('|') && TABLE_DELIMITER.test(content)
}

function splitLines(text: string): Line[] {
  const lines: Line[] = []
  let start = 0
  while (start <= text.length) {
    let end = start
    while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++
    let next = end
    if (text[next] === '\r') next++
    if (text[next] === '\n') next++
    lines.push({ start, end, next, endsBlock: false })
    if (next === end) break
    start = next
  }
  return lines
}

/// YAML (`---`) or TOML (`+++`) front matter at the very start; returns the first line after it.
function skipFrontMatter(text: string, lines: Line[], kind: Uint8Array): number {
  const first = lines[0]
  if (!first) return 0
  const opening = text
    .slice(first.start, first.end)
    .replace(/^\uFEFF/, '')
    .trimEnd()
  if (opening !== '---' && opening !== '+++') return 0
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] as Line
    const closing = text.slice(line.start, line.end).trimEnd()
    if (closing === opening || (opening === '---' && closing === '...')) {
      for (let j = 0; j <= i; j++) {
        markLine(lines[j] as Line, kind, HARD_SYNTAX)
        ;(lines[j] as Line).endsBlock = true
      }
      return i + 1
    }
  }
  return 0
}

/// A fenced code block up to its closing fence (or the end of the text); returns the line after it.
/// The line that closes a code fence opened with `marker`: the same character, at least as many, nothing after.
const fenceCloser = (marker: string): RegExp =>
  new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`)

function skipFence(text: string, lines: Line[], open: number, marker: string, kind: Uint8Array): number {
  const closing = fenceCloser(marker)
  let i = open
  do {
    i++
  } while (i < lines.length && !closing.test(text.slice((lines[i] as Line).start, (lines[i] as Line).end)))
  for (let j = open; j <= i && j < lines.length; j++) {
    markLine(lines[j] as Line, kind, HARD_SYNTAX)
    ;(lines[j] as Line).endsBlock = true
  }
  return i + 1
}

/// An indented line continues a list item when the nearest non-blank line above is in a list.
function inList(text: string, lines: Line[], index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const line = lines[i] as Line
    const content = text.slice(line.start, line.end)
    if (content.trim() === '') continue
    return LIST_ITEM.test(content) || /^\s/.test(content)
  }
  return false
}

function markLine(line: Line, kind: Uint8Array, mark: number): void {
  for (let p = line.start; p < line.end; p++) kind[p] = mark
}

/// The pipes between table cells keep each cell's words to itself.
function markCellBorders(text: string, line: Line, kind: Uint8Array): void {
  for (let p = line.start; p < line.end; p++)
    if (text[p] === '|' && text[p - 1] !== '\\') kind[p] = HARD_SYNTAX
}

/// Where a heading's text ends, before any closing run of `#`.
function closingHashes(content: string): number {
  const match = /\s+#+\s*$/.exec(content)
  return match ? match.index : content.trimEnd().length
}

/// Inline markup of one line's content: code spans, links, URLs, tags and emphasis delimiters. With `hidden`,
/// also which characters are marks a reader does not see (1), for `withoutInlineMarks`.
function markInline(text: string, start: number, end: number, kind: Uint8Array, hidden?: Uint8Array): void {
  const line = text.slice(start, end)
  const mark: Marker = (from, to, mark, seen = mark === HARD_SYNTAX) => {
    for (let p = start + from; p < start + to; p++)
      if (kind[p] !== HARD_SYNTAX) {
        kind[p] = mark
        if (hidden) hidden[p] = seen ? 0 : 1
      }
  }
  markCodeSpans(line, mark)
  for (const match of line.matchAll(AUTOLINK)) mark(match.index, match.index + match[0].length, HARD_SYNTAX)
  markLinks(line, mark)
  for (const match of line.matchAll(BARE_URL)) {
    const url = match[0].replace(URL_TRAILER, '')
    mark(match.index, match.index + url.length, HARD_SYNTAX)
  }
  for (const match of line.matchAll(INLINE_TAG)) mark(match.index, match.index + match[0].length, SOFT_SYNTAX)
  markEmphasis(line, (from, to, inWord) => {
    for (let p = start + from; p < start + to; p++)
      if (kind[p] === PROSE) {
        kind[p] = SOFT_SYNTAX
        if (hidden && !inWord) hidden[p] = 1
      }
  })
}

/// Marks `from`..`to` of a line as `mark`; `seen` says whether a reader sees those characters (code, URLs) or
/// they are marks (link brackets and targets, tags), by default whether they are hard syntax.
type Marker = (from: number, to: number, mark: number, seen?: boolean) => void

/// A run of backticks opens a code span closed by the next run of the same length.
function markCodeSpans(line: string, mark: Marker): void {
  const runs = [...line.matchAll(/`+/g)]
  const waiting = new Map<number, number>()
  for (const run of runs) {
    const length = run[0].length
    const open = waiting.get(length)
    if (open === undefined) {
      waiting.set(length, run.index)
      continue
    }
    waiting.delete(length)
    // Runs of other lengths opened inside this span are code too, not openers.
    for (const [other, at] of waiting) if (at > open) waiting.delete(other)
    mark(open, open + length, HARD_SYNTAX, false)
    mark(run.index, run.index + length, HARD_SYNTAX, false)
    mark(open + length, run.index, HARD_SYNTAX)
  }
}

/// `[text](url)` keeps its text and loses its URL; images, footnote marks and `[text][ref]` labels go whole.
function markLinks(line: string, mark: Marker): void {
  const opens: number[] = []
  for (let i = 0; i < line.length; i++) {
    const char = line[i]
    if (char === '\\') i++
    else if (char === '[') opens.push(i)
    else if (char === ']' && opens.length > 0) {
      const open = opens.pop() as number
      const image = line[open - 1] === '!'
      const from = image ? open - 1 : open
      if (line[open + 1] === '^') {
        mark(open, i + 1, HARD_SYNTAX, false)
        continue
      }
      const target =
        line[i + 1] === '('
          ? closingParen(line, i + 1)
          : line[i + 1] === '['
            ? closingBracket(line, i + 1)
            : -1
      if (target < 0) continue
      if (image) mark(from, target + 1, HARD_SYNTAX, false)
      else {
        mark(open, open + 1, SOFT_SYNTAX)
        mark(i, i + 1, SOFT_SYNTAX)
        mark(i + 1, target + 1, HARD_SYNTAX, false)
      }
      i = target
    }
  }
}

// Link targets are looked for this far only, so that a line of unclosed brackets costs no quadratic time.
const LONGEST_TARGET = 2048

function closingParen(line: string, open: number): number {
  let depth = 0
  for (let i = open; i < Math.min(line.length, open + LONGEST_TARGET); i++) {
    if (line[i] === '(') depth++
    else if (line[i] === ')' && --depth === 0) return i
  }
  return -1
}

function closingBracket(line: string, open: number): number {
  const close = line.indexOf(']', open)
  return close - open <= LONGEST_TARGET ? close : -1
}

/// Runs of `*`, `_` or `~` that touch a word on one side only are emphasis delimiters (snake_case is not), and a
/// backslash before a mark escapes it. `*` or `~~` between two words (`2*3`) is one too for the prose, but is
/// emphasis only with a pair that this does not look for, so it comes with `inWord`.
function markEmphasis(line: string, markSoft: (from: number, to: number, inWord: boolean) => void): void {
  for (const run of line.matchAll(/\*+|_+|~~+|\\[\\`*_{}[\]()#+\-.!|~<>]/g)) {
    if (run[0][0] === '\\') {
      // The escaped mark is the writer's character, not syntax.
      markSoft(run.index, run.index + 1, false)
      continue
    }
    const before = line[run.index - 1] ?? ' '
    const after = line[run.index + run[0].length] ?? ' '
    const wordBefore = /[\p{L}\p{N}]/u.test(before)
    const wordAfter = /[\p{L}\p{N}]/u.test(after)
    const spaceBefore = /\s/.test(before)
    const spaceAfter = /\s/.test(after)
    if (spaceBefore && spaceAfter) continue
    if (run[0][0] === '_' && wordBefore && wordAfter) continue
    markSoft(run.index, run.index + run[0].length, wordBefore && wordAfter)
  }
}

/// A text as a reader sees it, without its inline Markdown marks: emphasis, strikethrough and code marks, escapes,
/// tags, and links shown as their text (`The **Eiffel Tower**` → `The Eiffel Tower`). A claim's text may hold
/// one mark of a pair (`Ottawa** is`, its opening `**` before the claim), so a mark needs no pair; what touches
/// no word (`5 * 3`) and what sits inside a word (`snake_case`, `2*3`) stays, and so do code and URLs.
export function withoutInlineMarks(text: string): string {
  const hidden = new Uint8Array(text.length)
  markInline(text, 0, text.length, new Uint8Array(text.length), hidden)
  let shown = ''
  for (let p = 0; p < text.length; p++) if (!hidden[p]) shown += text[p]
  return shown
}

/// A line without Markdown's heading, quote and list markers at its start ("## 1. Title" → "Title").
export const withoutLineMarkers = (line: string): string =>
  line.replace(/^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)*/, '')

/// A line of a text as its Markdown makes it: a heading (of `level`, its marker and the spaces after it
/// `marker` characters long), a code fence, a line of fenced code, or text.
export type MarkdownLine =
  | { kind: 'heading'; from: number; to: number; level: number; marker: number }
  | { kind: 'fence' | 'code' | 'text'; from: number; to: number }

/// The text's lines (cut at "\n"; `from`/`to` without it) as its Markdown makes them, by the rules of
/// `proseView` for headings and fences; for the exports to style.
export function markdownLines(text: string): MarkdownLine[] {
  const lines: MarkdownLine[] = []
  let closer: RegExp | null = null
  let from = 0
  for (const line of text.split('\n')) {
    const to = from + line.length
    const fence = FENCE.exec(line)?.[1]
    const heading = HEADING.exec(line)?.[0]
    const marker =
      heading === undefined
        ? 0
        : heading.length + (/^[ \t]*/.exec(line.slice(heading.length))?.[0].length ?? 0)
    if (closer !== null) {
      const closes = closer.test(line)
      lines.push({ kind: closes ? 'fence' : 'code', from, to })
      if (closes) closer = null
    } else if (fence !== undefined) {
      lines.push({ kind: 'fence', from, to })
      closer = fenceCloser(fence)
    } else if (heading !== undefined && marker < line.length) {
      lines.push({ kind: 'heading', from, to, level: heading.trim().length, marker })
    } else lines.push({ kind: 'text', from, to })
    from = to + 1
  }
  return lines
}

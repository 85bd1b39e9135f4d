// The report every format renders, read as a newsroom's fact-check memo: the summary, what needs the editor's
// attention, the article rendered from its Markdown with each claim marked, then the notes.

import { GFM, parser as commonMark } from '@lezer/markdown'
import type { SyntaxNode } from '@lezer/common'
import type { ExportComments, Report } from '../../../shared/schemas'
import { BYLINE_WORDS, bylineOrDate } from '../claims/bylines'
import {
  annotate,
  isWebUrl,
  NAMED_FILE,
  needingAttention,
  quietClaims,
  type Annotated,
  type AnnotatedClaim,
} from './annotate'
import type { SpellingFix } from './fixes'

const markdown = commonMark.configure(GFM)

/// A run of the article's words with one style: inside a claim (its number) or not, a link or not; a misspelt
/// word with its fix (the run's text is the whole word).
export interface Run {
  text: string
  claim: number | null
  fix: SpellingFix | null
  link: string | null
  strong: boolean
  emphasis: boolean
  code: boolean
  struck: boolean
}

/// A run of words, or a claim's note mark (after its last words, outside any link).
export type Inline = Run | { note: number }

/// A block of the rendered article. `level` is a heading's level or a list item's depth (1 at the top).
export interface Block {
  kind: 'heading' | 'paragraph' | 'item' | 'quote' | 'code' | 'rule'
  level: number
  ordered: boolean
  /// Written in a right-to-left script (its first letter is): laid out right to left.
  rightToLeft: boolean
  inlines: Inline[]
}

/// What holds a claim, as a reader names it: a paragraph, a list item, a quotation, a heading, or one of the short
/// lines under the headline (its byline, its date).
export type PlaceKind = 'paragraph' | 'item' | 'quote' | 'heading' | 'line'

/// Where a claim is, as a reader counts: in which paragraph, list item or quotation under which heading. The
/// headline's byline and date line are no paragraphs; a list's items are counted within their list.
export interface Place {
  /// The heading the claim is under (or the heading it is in); null before the first heading.
  heading: string | null
  /// Whether the claim comes before the first heading of a text that has headings: in its introduction.
  introduction: boolean
  kind: PlaceKind
  /// A paragraph's number under its heading, an item's in its list, a quotation's under its heading; null for
  /// the only quotation under its heading, a heading and a line under the headline.
  number: number | null
  /// An item's list among the lists under its heading, when there are several; else null.
  list: number | null
}

/// A claim of the memo: its verdict and notes (see AnnotatedClaim) and where it is.
export interface MemoClaim extends AnnotatedClaim {
  place: Place | null
}

export interface Memo extends Annotated {
  /// The report's title (see `reportTitle`).
  title: string
  claims: MemoClaim[]
  /// The claims that need attention, in text order.
  attention: MemoClaim[]
  /// The quiet claims, in text order: the list at the end.
  quiet: MemoClaim[]
  article: Block[]
}

/// The report as a memo: the annotated claims with the article's blocks and each claim's place. `comments`
/// says which claims are noted one by one (see `annotate`).
export function memo(report: Report, comments?: ExportComments): Memo {
  const annotated = annotate(report, comments)
  const placed = annotated.segments.flatMap(({ claim }) => (claim ? [claim] : []))
  const article = new ArticleWriter(report.text, placed, annotated.fixes).write()
  const places = claimPlaces(article)
  const claims = annotated.claims.map((claim): MemoClaim => ({
    ...claim,
    place: places.get(claim.number) ?? null,
  }))
  return {
    ...annotated,
    title: reportTitle(report, article),
    claims,
    attention: needingAttention(claims),
    quiet: quietClaims(claims),
    article,
  }
}

/// The report's title: the check's name, unless it has none or its name is a file's ("climate-review.md"); then
/// the article's headline (its first heading, as a reader reads it), else that name, else "Check chk_…".
function reportTitle({ check }: Report, article: readonly Block[]): string {
  const headline = article.find((block) => block.kind === 'heading')
  const name = check.name?.trim() || null
  if (name !== null && !NAMED_FILE.test(name)) return name
  return (headline && plainText(headline.inlines)) || name || `Check ${check.id}`
}

/// Where a claim is, in words: "paragraph 2 under “Economy”", "list item 3 under “Ice and sea”", "the quotation
/// under “Voices”", "paragraph 1 in the introduction".
export function placeWords(place: Place | null): string {
  if (place === null) return ''
  const { heading, kind, number, list } = place
  if (kind === 'heading') return heading === null ? 'a heading' : `the heading “${heading}”`
  const where = place.introduction ? ' in the introduction' : heading === null ? '' : ` under “${heading}”`
  if (kind === 'line') return `a line${where}`
  if (kind === 'quote') return `${number === null ? 'the quotation' : `quotation ${number}`}${where}`
  if (kind === 'item') return `list item ${number}${list === null ? '' : ` of list ${list}`}${where}`
  return `paragraph ${number}${where}`
}

/// The words of a block's runs, as one line.
const plainText = (inlines: readonly Inline[]): string =>
  inlines
    .map((inline) => ('text' in inline ? inline.text : ''))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()

/// Whether a text is written right to left: its first letter is of a right-to-left script (Hebrew, Arabic,
/// Syriac, Thaana, N'Ko and their presentation forms).
const isRightToLeft = (text: string): boolean =>
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u.test(/\p{L}/u.exec(text)?.[0] ?? '')

/// Whether a block is a byline or a date line: one as the claims find them ("By Dana Reporter", "20 November
/// 2026"), or a short line of emphasis alone ("*Dana Reporter, Riverton*").
function isBylineOrDate(block: Block): boolean {
  if (block.kind !== 'paragraph') return false
  const words = plainText(block.inlines)
  return (
    bylineOrDate(words) ||
    (words.split(' ').length <= BYLINE_WORDS &&
      block.inlines.every(
        (inline) => !('text' in inline) || inline.text.trim() === '' || inline.emphasis || inline.strong,
      ))
  )
}

/// Each claim's place (see `Place`), by its number: where its first words are.
function claimPlaces(article: readonly Block[]): Map<number, Place> {
  const introduction = article.some((block) => block.kind === 'heading')
  // The places of the blocks, then the count of quotations and lists under each heading (by its block's index).
  const placed: ({ place: Place; section: number } | null)[] = []
  const quotes = new Map<number, number>()
  const lists = new Map<number, number>()
  let section = -1
  let heading: string | null = null
  let paragraphs = 0
  // The numbers of the items of the list being read, by depth.
  let items: number[] = []
  // The short lines of emphasis right under the article's first block, its headline, are its byline and date.
  let underHeadline = article[0]?.kind === 'heading'
  article.forEach((block, index) => {
    const previous = article[index - 1]
    const at = { heading, introduction: introduction && section < 0, number: null, list: null }
    let place: Place
    if (block.kind === 'heading') {
      section = index
      heading = plainText(block.inlines)
      paragraphs = 0
      place = { ...at, heading, introduction: false, kind: 'heading' }
    } else if (underHeadline && isBylineOrDate(block)) place = { ...at, kind: 'line' }
    else if (block.kind === 'item') {
      if (previous?.kind !== 'item') {
        lists.set(section, (lists.get(section) ?? 0) + 1)
        items = []
      }
      items = [...items.slice(0, block.level - 1), (items[block.level - 1] ?? 0) + 1]
      place = { ...at, kind: 'item', number: items[block.level - 1] ?? 1, list: lists.get(section) ?? 1 }
    } else if (block.kind === 'quote') {
      if (previous?.kind !== 'quote') quotes.set(section, (quotes.get(section) ?? 0) + 1)
      place = { ...at, kind: 'quote', number: quotes.get(section) ?? 1 }
    } else if (block.kind === 'paragraph') place = { ...at, kind: 'paragraph', number: ++paragraphs }
    else {
      // Code and rules are no paragraphs a reader counts, and hold no claims.
      placed.push(null)
      return
    }
    if (index > 0 && place.kind !== 'line') underHeadline = false
    placed.push({ place, section })
  })
  const places = new Map<number, Place>()
  article.forEach((block, index) => {
    const entry = placed[index]
    if (!entry) return
    const { place, section } = entry
    const only = {
      ...place,
      number: place.kind === 'quote' && quotes.get(section) === 1 ? null : place.number,
      list: place.kind === 'item' && lists.get(section) !== 1 ? place.list : null,
    }
    for (const inline of block.inlines)
      if ('text' in inline && inline.claim !== null && !places.has(inline.claim))
        places.set(inline.claim, only)
  })
  return places
}

// Syntax a reader does not see: its characters are passed over.
const MARKS = new Set([
  'HeaderMark',
  'QuoteMark',
  'ListMark',
  'EmphasisMark',
  'LinkMark',
  'CodeMark',
  'CodeInfo',
  'StrikethroughMark',
  'TableDelimiter',
  'LinkLabel',
  'LinkTitle',
  'HTMLTag',
  'Comment',
  'TaskMarker',
])

type Style = Omit<Run, 'text' | 'claim' | 'fix'>

/// Writes the article's blocks from its Markdown syntax tree (UTF-16 offsets, as the claims'), cutting runs at
/// the claims' ends and putting each claim's note mark after its last words, or after the link they end in.
class ArticleWriter {
  private readonly blocks: Block[] = []
  private inlines: Inline[] | null = null
  private style: Style = { link: null, strong: false, emphasis: false, code: false, struck: false }
  private inLink = false
  /// Note marks waiting for the link they end in to close.
  private waiting: number[] = []
  /// The next claim whose end has not been passed.
  private next = 0
  /// The first claim that does not end before the text being read.
  private cursor = 0
  /// The first spelling fix that does not end before the text being read.
  private fixCursor = 0

  constructor(
    private readonly text: string,
    private readonly claims: readonly AnnotatedClaim[],
    private readonly fixes: readonly SpellingFix[],
  ) {}

  write(): Block[] {
    const top = markdown.parse(this.text).topNode
    for (let child = top.firstChild; child; child = child.nextSibling) this.block(child, 0, false)
    this.passed(this.text.length)
    return this.blocks
  }

  private block(node: SyntaxNode, depth: number, quote: boolean): void {
    const name = node.name
    const heading = /^(?:ATX|Setext)Heading(\d)$/.exec(name)
    if (heading) this.leaf(node, 'heading', Number(heading[1]), false)
    else if (name === 'Paragraph') this.leaf(node, quote ? 'quote' : 'paragraph', depth, false)
    else if (name === 'BulletList' || name === 'OrderedList') {
      for (let item = node.firstChild; item; item = item.nextSibling)
        if (item.name === 'ListItem') this.item(item, depth + 1, name === 'OrderedList', quote)
    } else if (name === 'Blockquote') {
      for (let child = node.firstChild; child; child = child.nextSibling) this.block(child, depth, true)
    } else if (name === 'FencedCode' || name === 'CodeBlock') {
      this.open('code', depth, false)
      for (let child = node.firstChild; child; child = child.nextSibling)
        if (child.name === 'CodeText') this.words(child.from, child.to, true)
      this.close()
    } else if (name === 'HorizontalRule') {
      this.open('rule', 0, false)
      this.close()
    } else if (name === 'Table') {
      for (let row = node.firstChild; row; row = row.nextSibling) {
        if (row.name !== 'TableHeader' && row.name !== 'TableRow') continue
        this.open('paragraph', depth, false)
        let cells = 0
        for (let cell = row.firstChild; cell; cell = cell.nextSibling) {
          if (cell.name !== 'TableCell') continue
          if (cells++ > 0) this.push(' · ')
          this.inline(cell, cell.from, cell.to)
        }
        this.close()
      }
    } else if (name === 'HTMLBlock') {
      this.open('code', depth, false)
      this.words(node.from, node.to, true)
      this.close()
    }
    this.passed(node.to)
  }

  /// A list item: its first paragraph is the item, its other paragraphs join it, its lists nest below it.
  private item(node: SyntaxNode, depth: number, ordered: boolean, quote: boolean): void {
    let opened = false
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.name === 'Paragraph') {
        if (!opened) this.open('item', depth, ordered)
        else this.push(' ')
        opened = true
        this.inline(child, child.from, child.to)
      } else if (!MARKS.has(child.name)) {
        if (opened) this.close()
        opened = false
        this.block(child, depth, quote)
      }
    }
    if (opened) this.close()
  }

  private leaf(node: SyntaxNode, kind: Block['kind'], level: number, ordered: boolean): void {
    this.open(kind, level, ordered)
    this.inline(node, node.from, node.to)
    this.close()
  }

  /// The inline content of `node` from `from` to `to`: the words between its children, and its children.
  private inline(node: SyntaxNode, from: number, to: number): void {
    let at = from
    for (let child = node.firstChild; child && child.from < to; child = child.nextSibling) {
      if (child.from > at) this.words(at, child.from)
      this.span(child)
      at = Math.max(at, child.to)
      this.passed(at)
    }
    if (to > at) this.words(at, to)
    this.passed(to)
  }

  private span(node: SyntaxNode): void {
    const name = node.name
    if (MARKS.has(name)) return
    const styled = (change: Partial<Style>, from = node.from, to = node.to): void => {
      const before = this.style
      this.style = { ...before, ...change }
      this.inline(node, from, to)
      this.style = before
    }
    if (name === 'Emphasis') styled({ emphasis: true })
    else if (name === 'StrongEmphasis') styled({ strong: true })
    else if (name === 'Strikethrough') styled({ struck: true })
    else if (name === 'InlineCode') styled({ code: true })
    else if (name === 'Escape') this.words(node.from + 1, node.to)
    else if (name === 'HardBreak') this.push('\n')
    else if (name === 'Link' || name === 'Image') {
      // The words between `[` and `]`; the address is the URL child's.
      const url = node.getChild('URL')
      const href = url && name === 'Link' ? this.text.slice(url.from, url.to) : null
      const brackets = node.getChildren('LinkMark')
      const end = brackets.find((mark) => this.text[mark.from] === ']')?.from ?? node.to
      this.inLink = true
      styled({ link: href && isWebUrl(href) ? href : null }, node.from, end)
      this.inLink = false
      this.passed(node.to)
      this.flushWaiting()
    } else if (name === 'Autolink' || name === 'URL') {
      const url = name === 'URL' ? node : node.getChild('URL')
      if (!url) return
      const href = this.text.slice(url.from, url.to)
      this.inLink = true
      const before = this.style
      this.style = { ...before, link: isWebUrl(href) ? href : null }
      this.words(url.from, url.to)
      this.style = before
      this.inLink = false
      this.passed(node.to)
      this.flushWaiting()
    } else this.inline(node, node.from, node.to)
  }

  /// The text from `from` to `to` as runs, cut at the claims' edges and around a spelling fix's word (a word
  /// the markup cuts stays as written); a line break inside a paragraph is a space.
  private words(from: number, to: number, keepLines = false): void {
    let at = from
    while (at < to) {
      // The text is read in order: the claims and fixes that end before it are behind for good.
      while (this.claims[this.cursor] && (this.claims[this.cursor] as AnnotatedClaim).claim.charEnd <= at)
        this.cursor++
      while (this.fixes[this.fixCursor] && (this.fixes[this.fixCursor] as SpellingFix).charEnd <= at)
        this.fixCursor++
      const next = this.claims[this.cursor]
      const inside = next !== undefined && next.claim.charStart <= at
      const fix = this.fixes[this.fixCursor]
      const fixEdge = fix === undefined ? to : fix.charStart <= at ? fix.charEnd : fix.charStart
      const edge = Math.min(
        to,
        fixEdge,
        next === undefined ? to : inside ? next.claim.charEnd : next.claim.charStart,
      )
      const piece = this.text.slice(at, edge)
      const fixed = fix !== undefined && fix.charStart === at && fix.charEnd === edge ? fix : null
      this.push(
        keepLines ? piece : piece.replace(/[ \t]*\r?\n[ \t]*/g, ' '),
        inside ? next.number : null,
        fixed,
      )
      at = edge
      this.passed(at)
    }
  }

  private push(text: string, claim: number | null = null, fix: SpellingFix | null = null): void {
    if (!this.inlines || text === '') return
    const last = this.inlines.findLast((inline) => 'text' in inline)
    const previous = last && 'text' in last ? last.text : '\n'
    // Spaces at a line's start (after a heading's or a quote's mark) and doubled by a soft break are not kept.
    const words = /[ \n]$/.test(previous) && this.style.code === false ? text.replace(/^[ \t]+/, '') : text
    if (words !== '') this.inlines.push({ text: words, claim, fix, ...this.style })
  }

  /// Every claim that ends at or before `at` gets its note mark: here, or after the link it ends in.
  private passed(at: number): void {
    while (this.next < this.claims.length && (this.claims[this.next] as AnnotatedClaim).claim.charEnd <= at) {
      const { number } = this.claims[this.next] as AnnotatedClaim
      this.next++
      if (this.inLink) this.waiting.push(number)
      else this.note(number)
    }
  }

  private flushWaiting(): void {
    for (const number of this.waiting.splice(0)) this.note(number)
  }

  private note(number: number): void {
    const inlines = this.inlines ?? this.blocks.at(-1)?.inlines
    inlines?.push({ note: number })
  }

  private open(kind: Block['kind'], level: number, ordered: boolean): void {
    this.inlines = []
    this.blocks.push({ kind, level, ordered, rightToLeft: false, inlines: this.inlines })
  }

  private close(): void {
    this.flushWaiting()
    const block = this.blocks.at(-1)
    if (block) {
      const last = block.inlines.findLast((inline) => 'text' in inline)
      if (last && 'text' in last && !last.code) last.text = last.text.trimEnd()
      block.rightToLeft = isRightToLeft(plainText(block.inlines))
    }
    this.inlines = null
  }
}

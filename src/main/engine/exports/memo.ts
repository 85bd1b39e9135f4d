// The report every format renders, read as a newsroom's fact-check memo: the summary, what needs the editor's
// attention, the article rendered from its Markdown with each claim marked, then the notes.

import { GFM, parser as commonMark } from '@lezer/markdown'
import type { SyntaxNode } from '@lezer/common'
import type { ExportComments, Report } from '../../../shared/schemas'
import {
  annotate,
  isWebUrl,
  needingAttention,
  quietClaims,
  type Annotated,
  type AnnotatedClaim,
} from './annotate'

const markdown = commonMark.configure(GFM)

/// A run of the article's words with one style: inside a claim (its number) or not, a link or not.
export interface Run {
  text: string
  claim: number | null
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

/// Where a claim is: under which heading (null before the first), in which paragraph of that section (from 1).
export interface Place {
  heading: string | null
  paragraph: number
}

/// A claim of the memo: its verdict and notes (see AnnotatedClaim) and where it is.
export interface MemoClaim extends AnnotatedClaim {
  place: Place | null
}

export interface Memo extends Annotated {
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
  const article = new ArticleWriter(report.text, placed).write()
  const places = claimPlaces(article)
  const claims = annotated.claims.map((claim): MemoClaim => ({
    ...claim,
    place: places.get(claim.number) ?? null,
  }))
  return { ...annotated, claims, attention: needingAttention(claims), quiet: quietClaims(claims), article }
}

/// Where a claim is, in words: "under “Economy”, paragraph 2".
export const placeWords = (place: Place | null): string =>
  place === null
    ? ''
    : `${place.heading === null ? 'before the first heading' : `under “${place.heading}”`}, paragraph ${place.paragraph}`

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

function claimPlaces(article: readonly Block[]): Map<number, Place> {
  const places = new Map<number, Place>()
  let heading: string | null = null
  let paragraph = 0
  for (const block of article) {
    if (block.kind === 'heading') {
      heading = plainText(block.inlines)
      paragraph = 0
    } else paragraph++
    for (const inline of block.inlines)
      if ('text' in inline && inline.claim !== null && !places.has(inline.claim))
        places.set(inline.claim, { heading, paragraph: Math.max(paragraph, 1) })
  }
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

type Style = Omit<Run, 'text' | 'claim'>

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

  constructor(
    private readonly text: string,
    private readonly claims: readonly AnnotatedClaim[],
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

  /// The text from `from` to `to` as runs, cut at the claims' edges; a line break inside a paragraph is a space.
  private words(from: number, to: number, keepLines = false): void {
    let at = from
    while (at < to) {
      // The text is read in order: the claims that end before it are behind for good.
      while (this.claims[this.cursor] && (this.claims[this.cursor] as AnnotatedClaim).claim.charEnd <= at)
        this.cursor++
      const next = this.claims[this.cursor]
      const inside = next !== undefined && next.claim.charStart <= at
      const edge = Math.min(to, next === undefined ? to : inside ? next.claim.charEnd : next.claim.charStart)
      const piece = this.text.slice(at, edge)
      this.push(keepLines ? piece : piece.replace(/[ \t]*\r?\n[ \t]*/g, ' '), inside ? next.number : null)
      at = edge
      this.passed(at)
    }
  }

  private push(text: string, claim: number | null = null): void {
    if (!this.inlines || text === '') return
    const last = this.inlines.findLast((inline) => 'text' in inline)
    const previous = last && 'text' in last ? last.text : '\n'
    // Spaces at a line's start (after a heading's or a quote's mark) and doubled by a soft break are not kept.
    const words = /[ \n]$/.test(previous) && this.style.code === false ? text.replace(/^[ \t]+/, '') : text
    if (words !== '') this.inlines.push({ text: words, claim, ...this.style })
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

import {
  AlignmentType,
  Bookmark,
  BookmarkEnd,
  BookmarkStart,
  CommentRangeEnd,
  CommentRangeStart,
  CommentReference,
  DeletedTextRun,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  InsertedTextRun,
  InternalHyperlink,
  LevelFormat,
  Packer,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  UnderlineType,
  WidthType,
  type ICommentOptions,
  type IRunOptions,
  type ParagraphChild,
} from 'docx'
import { citationFacts, stanceWords } from '../../../shared/citations'
import { correctionParts, correctionWords } from '../../../shared/corrections'
import { counted } from '../../../shared/counted'
import { messageParts } from '../../../shared/findings'
import type { Citation, ExportComments, Report } from '../../../shared/schemas'
import { checkedAs } from '../../../shared/verdicts'
import { fillOf, VOCABULARY, type ExportVerdict } from '../../../shared/vocabulary'
import {
  attentionLine,
  checkFacts,
  claimWords,
  isWebUrl,
  otherVerdicts,
  otherVerdictWords,
  QUIET_HEADING,
  quietLine,
  quietWhy,
  reasonLine,
  shortClaim,
  verdictDetails,
  verdictWords,
} from './annotate'
import { memo, placeWords, type Block, type Memo, type MemoClaim, type Run } from './memo'

/// The author Word shows on the comments and the tracked changes.
const AUTHOR = 'Factdesk'
/// The author of a tracked correction no source confirmed: Word shows it on the change itself.
const UNCONFIRMED_AUTHOR = 'Factdesk (unconfirmed)'

/// A `#rrggbb` colour as Word wants it: hex without '#'.
const wordColour = (colour: string): string => colour.slice(1).toUpperCase()

/// The fill behind a claim's words, by verdict, as the HTML export shades them.
const fill = (verdict: ExportVerdict): string => wordColour(fillOf(verdict))

/// How a claim's words are marked: shaded by its verdict, or a quiet claim underlined with dots of its colour.
const claimMark = ({ verdict, quiet }: MemoClaim): IRunOptions =>
  quiet
    ? {
        underline: {
          type: UnderlineType.DOTTED,
          color: wordColour(VOCABULARY[verdict].colour.light),
        },
      }
    : { shading: { type: ShadingType.CLEAR, fill: fill(verdict) } }

/// Space between the paragraphs, in twentieths of a point: 6 pt after a paragraph (a list's items closer),
/// and more before a heading than after it, so that a heading sits with what it heads.
const STYLES = {
  default: {
    document: { paragraph: { spacing: { after: 120, line: 276 } } },
    listParagraph: { paragraph: { spacing: { after: 60 } } },
    ...Object.fromEntries(
      (['heading1', 'heading2', 'heading3', 'heading4', 'heading5', 'heading6'] as const).map((heading) => [
        heading,
        { paragraph: { spacing: { before: 240, after: 80 }, keepNext: true } },
      ]),
    ),
  },
}

/// The bookmark of a claim's words in the article, which the links to its place go to: `claim_3`.
const bookmarkOf = (claim: Pick<MemoClaim, 'number'>): string => `claim_${claim.number}`

/// The bookmark of a claim's words, numbered by its claim: the docx library numbers its bookmarks across every
/// document the process writes, and the same report would not export the same twice.
class ClaimBookmark extends Bookmark {
  constructor(claim: MemoClaim, children: ParagraphChild[]) {
    super({ id: bookmarkOf(claim), children })
    Object.assign(this, {
      start: new BookmarkStart(bookmarkOf(claim), claim.number),
      end: new BookmarkEnd(claim.number),
    })
  }
}

/// Where a claim is, in words, as a link to its words in the article (plain words for a claim the article does
/// not mark: it has no place).
const placeLink = (claim: MemoClaim, style: { size?: number; italics?: boolean } = {}): ParagraphChild[] =>
  claim.place === null
    ? []
    : [
        new InternalHyperlink({
          anchor: bookmarkOf(claim),
          children: [new TextRun({ text: placeWords(claim.place), style: 'Hyperlink', ...style })],
        }),
      ]

/// The font of code: the article's, and the words a spelling or grammar message quotes.
const CODE_FONT = 'Courier New'

/// The numbering of the article's ordered lists.
const ORDERED = 'ordered-list'

/// The report as a Word document, a fact-check memo: the summary, what needs attention, the article with its
/// Markdown as Word's headings, lists and links, each claim shaded by its verdict and carrying a short comment
/// (comment id = the claim's number − 1; its verdict, one line of reason, its sources as links), a correction as
/// a tracked change on the claim's words; then an appendix with every claim's details and votes. A quiet claim
/// (see `AnnotatedClaim.quiet`) has a dotted underline, no comment and no details, and a line in the appendix's
/// list of them.
export async function toDocx(report: Report, comments?: ExportComments): Promise<Uint8Array<ArrayBuffer>> {
  const memoed = memo(report, comments)
  const writer = new ArticleWriter(memoed)
  const article = writer.paragraphs()
  const document = new Document({
    creator: AUTHOR,
    title: memoed.title,
    styles: STYLES,
    numbering: {
      config: [
        {
          reference: ORDERED,
          levels: [0, 1, 2, 3, 4, 5].map((level) => ({
            level,
            format: LevelFormat.DECIMAL,
            text: `%${level + 1}.`,
            alignment: AlignmentType.START,
            style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
          })),
        },
      ],
    },
    comments: {
      children: memoed.claims
        .filter((claim) => !claim.quiet)
        .map((claim) => comment(claim, writer.date(claim))),
    },
    sections: [
      {
        children: [
          new Paragraph({ text: memoed.title, heading: HeadingLevel.TITLE }),
          ...summary(memoed),
          ...attention(memoed),
          new Paragraph({ text: 'Article', heading: HeadingLevel.HEADING_1 }),
          ...article,
          ...appendix(memoed),
          ...quietList(memoed),
        ],
      },
    ],
  })
  return new Uint8Array(await Packer.toBuffer(document))
}

function summary(memoed: Memo): (Paragraph | Table)[] {
  const { report, counts, attention: needing, fixes, quiet } = memoed
  const row = (name: string, value: string, bold = false): TableRow =>
    new TableRow({
      children: [name, value].map(
        (text) => new TableCell({ children: [new Paragraph({ children: [new TextRun({ text, bold })] })] }),
      ),
    })
  return [
    new Paragraph({ text: 'Summary', heading: HeadingLevel.HEADING_1 }),
    new Paragraph({
      children: [
        new TextRun({
          text: `${report.claims.length} claims, ${needing.length} need attention.`,
          bold: true,
        }),
      ],
    }),
    ...(fixes.length > 0
      ? [new Paragraph(`${counted(fixes.length, 'spelling fix')}, tracked in the text.`)]
      : []),
    ...(quiet.length > 0 ? [new Paragraph({ text: `${quietLine(quiet)}.` })] : []),
    new Table({
      width: { size: 60, type: WidthType.PERCENTAGE },
      rows: [
        row('Verdict', 'Claims', true),
        ...counts.map(({ verdict, count }) => row(VOCABULARY[verdict].label, String(count))),
        row('All claims', String(report.claims.length), true),
      ],
    }),
    new Paragraph({
      children: [
        new TextRun({
          text: `Fact-check report by Factdesk · ${checkFacts(report)
            .map(([name, value]) => `${name}: ${value}`)
            .join(' · ')}`,
          size: 18,
          color: '555555',
        }),
      ],
    }),
  ]
}

function attention({ attention: needing }: Memo): Paragraph[] {
  const heading = new Paragraph({ text: 'Needs attention', heading: HeadingLevel.HEADING_1 })
  if (needing.length === 0)
    return [
      heading,
      new Paragraph({ text: 'Nothing: no tier found a claim refuted or misleading, and no claim failed.' }),
    ]
  return [
    heading,
    ...needing.map(
      (claim) =>
        new Paragraph({
          numbering: { reference: ORDERED, level: 0, instance: 0 },
          children: [
            new TextRun({ text: `${verdictWords(claim)}: `, bold: true }),
            new TextRun({ text: `“${claimWords(claim)}” [${claim.number}]`, italics: true }),
            new TextRun(' — '),
            ...placeLink(claim),
            new TextRun({ text: `. ${attentionLine(claim)}` }),
            ...(claim.correction ? [new TextRun({ text: ` ${correctionNote(claim.correction)}` })] : []),
          ],
        }),
    ),
  ]
}

/// Word's heading for a Markdown heading of each level (the report's own headings take the title and level 1).
const HEADINGS = [
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
  HeadingLevel.HEADING_6,
]

/// Lays the article out as Word paragraphs, with the claims' comment ranges and tracked corrections.
class ArticleWriter {
  private readonly claims: Map<number, MemoClaim>
  private readonly started = new Set<number>()
  /// Tracked changes' ids, apart from the comments' (0 to the number of claims − 1).
  private revision: number
  /// Each ordered list's own numbering, so that the next list starts again at 1.
  private lists = 0

  constructor(private readonly memoed: Memo) {
    this.claims = new Map(memoed.claims.map((claim) => [claim.number, claim]))
    this.revision = memoed.claims.length
  }

  /// The date of a claim's verdict (its comment's, its correction's and its spelling fixes'), else the check's.
  date(claim: MemoClaim | undefined): string {
    const { check } = this.memoed.report
    return claim?.consensus?.decidedAt ?? check.completedAt ?? check.updatedAt
  }

  paragraphs(): Paragraph[] {
    let previous: Block | undefined
    return this.memoed.article.map((block) => {
      if (block.kind === 'item' && block.ordered && !(previous?.kind === 'item' && previous.ordered))
        this.lists++
      previous = block
      const children = this.children(block)
      const bidirectional = block.rightToLeft ? { bidirectional: true } : {}
      if (block.kind === 'heading')
        return new Paragraph({ children, heading: HEADINGS[block.level - 1], ...bidirectional })
      if (block.kind === 'item')
        return new Paragraph({
          children,
          ...bidirectional,
          ...(block.ordered
            ? { numbering: { reference: ORDERED, level: block.level - 1, instance: this.lists } }
            : { bullet: { level: block.level - 1 } }),
        })
      if (block.kind === 'quote') return new Paragraph({ children, ...bidirectional, indent: { left: 720 } })
      if (block.kind === 'rule') return new Paragraph({ thematicBreak: true })
      return new Paragraph({ children, ...bidirectional })
    })
  }

  private children(block: Block): ParagraphChild[] {
    const children: ParagraphChild[] = []
    // The words of the claim being read, up to its note mark (or the block's end), bookmarked as its place.
    let bookmarked: { claim: MemoClaim; children: ParagraphChild[] } | null = null
    const bookmark = (): void => {
      if (bookmarked) children.push(new ClaimBookmark(bookmarked.claim, bookmarked.children))
      bookmarked = null
    }
    for (const inline of block.inlines) {
      if ('note' in inline) {
        const id = inline.note - 1
        if (bookmarked?.claim.number === inline.note) bookmark()
        if (this.started.has(inline.note) && !this.claims.get(inline.note)?.quiet)
          children.push(new CommentRangeEnd(id), new TextRun({ children: [new CommentReference(id)] }))
        continue
      }
      const claim = inline.claim === null ? undefined : this.claims.get(inline.claim)
      if (claim && !this.started.has(claim.number)) {
        bookmark()
        this.started.add(claim.number)
        // A quiet claim has no comment of its own: its place alone.
        if (!claim.quiet) children.push(new CommentRangeStart(claim.number - 1))
        bookmarked = { claim, children: [] }
      }
      const runs = this.runs(inline, block, claim)
      const into = bookmarked?.children ?? children
      into.push(...(inline.link ? [new ExternalHyperlink({ link: inline.link, children: runs })] : runs))
    }
    bookmark()
    return children
  }

  /// A run's words; a misspelt word and a claim's corrected words as Word's tracked deletions and insertions,
  /// the correction when the claim is one run of plain words (Accept then applies the fix, the correction).
  private runs(run: Run, block: Block, claim: MemoClaim | undefined): ParagraphChild[] {
    // Only what a run has: Word reads an absent property as its paragraph's.
    const style = {
      ...(run.strong ? { bold: true } : {}),
      ...(run.emphasis ? { italics: true } : {}),
      ...(run.struck ? { strike: true } : {}),
      ...(block.rightToLeft ? { rightToLeft: true } : {}),
      ...(run.code || block.kind === 'code' ? { font: CODE_FONT } : {}),
      ...(run.link ? { style: 'Hyperlink' } : {}),
      ...(claim ? claimMark(claim) : {}),
    }
    const text = (words: string): TextRun[] =>
      words.split('\n').map((line, index) => new TextRun({ text: line, break: index > 0 ? 1 : 0, ...style }))
    if (run.fix) {
      const tracked = { author: AUTHOR, date: this.date(claim), ...style }
      return [
        new DeletedTextRun({ id: this.revision++, text: run.text, ...tracked }),
        new InsertedTextRun({ id: this.revision++, text: run.fix.suggestion, ...tracked }),
      ]
    }
    if (!claim?.correction || run.text !== claim.claim.text) return text(run.text)
    const date = this.date(claim)
    const { words, unverified } = correctionWords(claim.correction)
    const author = unverified ? UNCONFIRMED_AUTHOR : AUTHOR
    return correctionParts(run.text, words).flatMap((part): ParagraphChild[] => {
      if ('same' in part) return text(part.same)
      const changes: ParagraphChild[] = []
      if (part.removed)
        changes.push(new DeletedTextRun({ id: this.revision++, author, date, text: part.removed, ...style }))
      if (part.added)
        changes.push(new InsertedTextRun({ id: this.revision++, author, date, text: part.added, ...style }))
      return changes
    })
  }
}

/// Where a claim's correction is, in words: tracked in the text, unconfirmed when no source confirmed it.
const correctionNote = (correction: string): string =>
  correctionWords(correction).unverified
    ? 'Correction tracked in the text, unconfirmed: no source confirmed it.'
    : 'Correction tracked in the text.'

/// A citation as a link to its page (an address that is not a web page's stays text).
const sourceLink = (citation: Citation): ParagraphChild =>
  isWebUrl(citation.url)
    ? new ExternalHyperlink({
        link: citation.url,
        children: [new TextRun({ text: citation.title || new URL(citation.url).host, style: 'Hyperlink' })],
      })
    : new TextRun(citation.title || citation.url)

/// A claim's comment, one or two paragraphs: "Refuted: <reason> — <first source>", then the other sources.
function comment(claim: MemoClaim, date: string): ICommentOptions {
  const citations = claim.consensus?.citations ?? []
  const reason = reasonLine(claim)
  const first: ParagraphChild[] = [
    new TextRun({ text: verdictWords(claim), bold: true }),
    new TextRun(
      `${reason ? `: ${reason}` : ''}${claim.correction ? ` ${correctionNote(claim.correction)}` : ''}`,
    ),
  ]
  const [lead, ...more] = citations
  if (lead) first.push(new TextRun(' — '), sourceLink(lead))
  const children = [new Paragraph({ children: first })]
  const statement = checkedAs(claim.claim)
  if (statement) children.push(new Paragraph(`Checked as: ${statement}`))
  if (more.length > 0)
    children.push(
      new Paragraph({
        children: more.flatMap((citation, index) => [
          ...(index > 0 ? [new TextRun('; ')] : []),
          sourceLink(citation),
        ]),
      }),
    )
  return { id: claim.number - 1, author: AUTHOR, initials: 'FD', date: new Date(date), children }
}

/// The appendix, under one heading: each claim's full note (what the verdict rests on, the reasoning, the
/// correction, the sources with their quotes and dates, the spelling findings once) and every vote with its
/// reasoning.
function appendix({ claims }: Memo): Paragraph[] {
  if (claims.length === 0) return []
  const small = (text: string, extra: { italics?: boolean; bold?: boolean; font?: string } = {}): TextRun =>
    new TextRun({ text, size: 18, ...extra })
  return [
    new Paragraph({ text: 'Details of each claim', heading: HeadingLevel.HEADING_1 }),
    ...claims.flatMap((claim) => {
      if (claim.quiet) return []
      const { consensus } = claim
      // Each note starts with a run-in heading of its own, not a heading of Word's: the navigation pane lists
      // the report's parts, not every claim.
      const paragraphs = [
        new Paragraph({
          keepNext: true,
          spacing: { before: 200 },
          children: [
            new TextRun({
              text: `${claim.number}. ${verdictWords(claim)} — “${claimWords(claim)}”. `,
              bold: true,
            }),
            small(`${verdictDetails(claim)}. `, { italics: true }),
            ...placeLink(claim, { size: 18, italics: true }),
          ],
        }),
      ]
      if (consensus?.reasoning) paragraphs.push(new Paragraph({ children: [small(consensus.reasoning)] }))
      if (claim.correction)
        paragraphs.push(
          new Paragraph({ children: [small('Correction: ', { bold: true }), small(claim.correction)] }),
        )
      for (const citation of consensus?.citations ?? [])
        paragraphs.push(
          new Paragraph({
            children: [
              sourceLink(citation),
              small(
                ` (${citationFacts(citation)})${citation.quote ? `: “${citation.quote}”` : ''}` +
                  (stanceWords(citation.stance) ? `, ${stanceWords(citation.stance)}` : ''),
              ),
            ],
          }),
        )
      for (const other of otherVerdicts(claim))
        paragraphs.push(new Paragraph({ children: [small(otherVerdictWords(other))] }))
      for (const issue of claim.claim.issues)
        paragraphs.push(
          new Paragraph({
            children: [
              small('Spelling or grammar: '),
              ...messageParts(issue.message).map(({ text, code }) =>
                small(text, code ? { font: CODE_FONT } : {}),
              ),
            ],
          }),
        )
      for (const vote of claim.votes)
        paragraphs.push(
          new Paragraph({
            children: [
              small(`${vote.tier}, round ${vote.round}, ${vote.model}: ${VOCABULARY[vote.verdict].label}`, {
                bold: true,
              }),
              small(vote.rationale.trim() ? ` — ${vote.rationale}` : ''),
            ],
          }),
        )
      return paragraphs
    }),
  ]
}

/// The appendix's list of the quiet claims, one line each: the claim's words, its place and the kind of
/// unverifiable it is.
function quietList({ quiet }: Memo): Paragraph[] {
  if (quiet.length === 0) return []
  return [
    new Paragraph({ text: QUIET_HEADING, heading: HeadingLevel.HEADING_2 }),
    ...quiet.map((claim) => {
      const why = quietWhy(claim)
      return new Paragraph({
        bullet: { level: 0 },
        children: [
          new TextRun({ text: `“${shortClaim(claim)}”`, size: 18, italics: true }),
          ...(claim.place ? [new TextRun({ text: ' — ', size: 18 }), ...placeLink(claim, { size: 18 })] : []),
          new TextRun({ text: why ? `: ${why}` : '', size: 18 }),
        ],
      })
    }),
  ]
}

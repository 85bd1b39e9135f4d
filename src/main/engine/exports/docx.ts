import {
  CommentRangeEnd,
  CommentRangeStart,
  CommentReference,
  Document,
  HeadingLevel,
  Packer,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ICommentOptions,
  type ParagraphChild,
} from 'docx'
import { citationDates } from '../../../shared/citations'
import type { Report } from '../../../shared/schemas'
import { checkedAs } from '../../../shared/verdicts'
import {
  annotate,
  checkFacts,
  VERDICT_LABELS,
  verdictDetails,
  type Annotated,
  type AnnotatedClaim,
  type ExportVerdict,
} from './annotate'
import { markdownLines } from '../../../shared/markdown'

/// The author Word shows on the comments.
const COMMENT_AUTHOR = 'Factdesk'

// Light fills behind a claim's words, by verdict (hex without '#', as Word wants them).
const FILLS: Record<ExportVerdict, string> = {
  supported: 'E3F3EA',
  refuted: 'F9E2DF',
  misleading: 'FBEADB',
  unverifiable: 'EBE8F6',
  issues: 'F8EFDC',
  clean: 'EEF0F3',
  failed: 'EEF0F3',
  unchecked: 'EEF0F3',
}

/// The report as a Word document: a summary table first, then the text, one paragraph per line, with each
/// claim shaded by its verdict and carrying a comment (comment id = the claim's number − 1) with the verdict,
/// confidence, reasoning and sources.
export async function toDocx(report: Report): Promise<Uint8Array<ArrayBuffer>> {
  const annotated = annotate(report)
  const document = new Document({
    creator: COMMENT_AUTHOR,
    title: annotated.title,
    comments: { children: annotated.claims.map(comment) },
    sections: [
      {
        children: [
          new Paragraph({ text: annotated.title, heading: HeadingLevel.TITLE }),
          new Paragraph({ text: 'Fact-check report by Factdesk' }),
          summaryTable(annotated),
          new Paragraph({ text: 'Text', heading: HeadingLevel.HEADING_1 }),
          ...textParagraphs(annotated),
        ],
      },
    ],
  })
  return new Uint8Array(await Packer.toBuffer(document))
}

function summaryTable({ report, counts }: Annotated): Table {
  const row = (name: string, value: string, bold = false): TableRow =>
    new TableRow({
      children: [name, value].map(
        (text) => new TableCell({ children: [new Paragraph({ children: [new TextRun({ text, bold })] })] }),
      ),
    })
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: [
      row('Verdict', 'Claims', true),
      ...counts.map(({ verdict, count }) => row(VERDICT_LABELS[verdict], String(count))),
      row('All claims', String(report.claims.length), true),
      ...checkFacts(report).map(([name, value]) => row(name, value)),
    ],
  })
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

/// Whether a line is written right to left: its first letter is of a right-to-left script (Hebrew, Arabic,
/// Syriac, Thaana, N'Ko and their presentation forms), as `unicode-bidi: plaintext` decides in the HTML.
const rightToLeft = (line: string): boolean =>
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u.test(/\p{L}/u.exec(line)?.[0] ?? '')

/// The text cut into paragraphs at line breaks (CRLF too), with each claim's runs between its comment's range
/// marks; its Markdown headings are Word headings, its fenced code is in a monospace font and a line in a
/// right-to-left script is a right-to-left paragraph, every character kept.
function textParagraphs({ report, segments }: Annotated): Paragraph[] {
  const lines = markdownLines(report.text)
  const rightToLeftLines = lines.map((markdown) => rightToLeft(report.text.slice(markdown.from, markdown.to)))
  const paragraphs: Paragraph[] = []
  let line: ParagraphChild[] = []
  const end = (): void => {
    const markdown = lines[paragraphs.length]
    const heading = markdown?.kind === 'heading' ? HEADINGS[markdown.level - 1] : undefined
    const bidirectional = rightToLeftLines[paragraphs.length] === true
    paragraphs.push(new Paragraph({ children: line, ...(heading ? { heading } : {}), bidirectional }))
    line = []
  }
  for (const { text, claim } of segments) {
    const id = claim ? claim.number - 1 : null
    if (id !== null) line.push(new CommentRangeStart(id))
    text.split('\n').forEach((piece, index) => {
      if (index > 0) end()
      const part = piece.replace(/\r$/, '')
      if (part === '') return
      const kind = lines[paragraphs.length]?.kind
      const font = kind === 'code' || kind === 'fence' ? { font: 'Courier New' } : {}
      line.push(
        new TextRun({
          text: part,
          ...font,
          rightToLeft: rightToLeftLines[paragraphs.length] === true,
          ...(claim ? { shading: { type: ShadingType.CLEAR, fill: FILLS[claim.verdict] } } : {}),
        }),
      )
    })
    if (id !== null) line.push(new CommentRangeEnd(id), new TextRun({ children: [new CommentReference(id)] }))
  }
  end()
  return paragraphs
}

function comment(claim: AnnotatedClaim): ICommentOptions {
  const { consensus } = claim
  const lines = [`${VERDICT_LABELS[claim.verdict]} (${verdictDetails(claim)})`]
  const statement = checkedAs(claim.claim)
  if (statement) lines.push(`Checked as: ${statement}`)
  if (consensus?.reasoning) lines.push(consensus.reasoning)
  if (consensus?.correction) lines.push(`Suggested: ${consensus.correction}`)
  for (const other of claim.otherTiers)
    lines.push(`${other.tier}: ${VERDICT_LABELS[other.consensus.verdict]}`)
  for (const citation of consensus?.citations ?? [])
    lines.push(
      `Source: ${citation.title} <${citation.url}>${citation.quote ? `: “${citation.quote}”` : ''} (${citationDates(citation)})`,
    )
  for (const vote of claim.votes)
    lines.push(`Vote of ${vote.model} (${vote.tier}): ${VERDICT_LABELS[vote.verdict]}. ${vote.rationale}`)
  return {
    id: claim.number - 1,
    author: COMMENT_AUTHOR,
    initials: 'FD',
    ...(consensus ? { date: new Date(consensus.decidedAt) } : {}),
    children: lines.map((text) => new Paragraph({ text: text })),
  }
}

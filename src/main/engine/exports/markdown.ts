import { citationFacts, stanceWords } from '../../../shared/citations'
import { counted } from '../../../shared/counted'
import { messageParts } from '../../../shared/findings'
import { markdownLines, PROSE, proseView } from '../../../shared/markdown'
import type { ExportComments, Report } from '../../../shared/schemas'
import { checkedAs } from '../../../shared/verdicts'
import { VOCABULARY } from '../../../shared/vocabulary'
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
  reasoningRest,
  reasonLine,
  shortClaim,
  verdictDetails,
  verdictWords,
  type AnnotatedClaim,
} from './annotate'
import type { SpellingFix } from './fixes'
import { memo, placeWords, type MemoClaim } from './memo'

/// Text from a model or a web page made literal in Markdown, on one line: no emphasis, code, links, HTML,
/// entities or footnotes of its own. Only what Markdown would read as markup there is escaped.
const escapeMarkdown = (text: string): string => escapeMarkup(text.replace(/\s+/g, ' ').trim())

const escapeMarkup = (text: string): string => text.replace(/[\\`*_[\]<>~]|&(?=#?\w+;)/g, '\\$&')

/// A spelling or grammar message on one line, the words it quotes as code spans and the rest literal.
const message = (text: string): string =>
  messageParts(text.replace(/\s+/g, ' ').trim())
    .map((part) => (part.code ? `\`${part.text}\`` : escapeMarkup(part.text)))
    .join('')

/// Where a claim's footnote reference goes in the text: after the markup that closes around the claim's
/// last words (a link's `](url)`, emphasis), so that it neither breaks the link nor sits inside it; before a
/// backslash that ends the claim (a hard line break), which would make the reference literal text.
function footnotePlace(text: string, kind: Uint8Array, end: number): number {
  let at = end
  while (at < text.length && kind[at] !== PROSE && !/[\s`]/.test(text[at] as string)) at++
  if (at > end) return at
  let backslashes = 0
  while (text[at - 1 - backslashes] === '\\') backslashes++
  return backslashes % 2 === 1 ? at - 1 : at
}

/// The fence that closes a code block the text leaves open at its end (none when every block is closed), so
/// that the footnotes after it are not read as code.
function closingFence(text: string): string | null {
  let opener: string | null = null
  for (const line of markdownLines(text)) {
    if (line.kind !== 'fence') continue
    opener = opener === null ? (/^\s*(`{3,}|~{3,})/.exec(text.slice(line.from, line.to))?.[1] ?? '```') : null
  }
  return opener
}

/// The footnote label of a claim: `[^claim-N]`, apart from any footnotes the document has of its own.
const footnoteLabel = (claim: Pick<AnnotatedClaim, 'number'>): string => `[^claim-${claim.number}]`

/// The report as Markdown: a summary with what needs attention, the document's text as submitted with a footnote reference after each
/// claim (after the line of a heading, never inside it), and a footnote per claim that starts with its verdict.
/// A quiet claim (see `AnnotatedClaim.quiet`) has no footnote: it is a line of the list after the footnotes.
export function toMarkdown(report: Report, comments?: ExportComments): string {
  const annotated = memo(report, comments)
  const summary = annotated.counts.map(({ verdict, count }) => `${VOCABULARY[verdict].label} ${count}`)
  const facts = checkFacts(report).map(([name, value]) => `${name}: ${escapeMarkdown(value)}`)
  const { kind } = proseView(report.text)
  const headings = markdownLines(report.text).filter((line) => line.kind === 'heading')
  let text = ''
  let at = 0
  // The end of the heading line below which notes are being written, on a line of their own.
  let below: number | null = null
  for (const { claim } of annotated.segments) {
    if (!claim || claim.quiet) continue
    const end = claim.claim.charEnd
    const heading = headings.find((line) => line.from <= end && end <= line.to)
    const place = Math.max(at, heading ? heading.to : footnotePlace(report.text, kind, end))
    const newLine = heading !== undefined && below !== heading.to
    text += report.text.slice(at, place) + (newLine ? '\n' : '') + footnoteLabel(claim)
    below = heading ? heading.to : null
    at = place
  }
  text += report.text.slice(at)
  const fence = closingFence(report.text)
  return [
    `> **Fact-check report: ${escapeMarkdown(annotated.title)}** (Factdesk)  `,
    `> ${counted(report.claims.length, 'claim')}: ${summary.join(', ') || 'none'}  `,
    ...(annotated.fixes.length > 0 ? [`> ${spellingFixes(annotated.fixes)}  `] : []),
    ...(annotated.quiet.length > 0 ? [`> ${quietLine(annotated.quiet)}  `] : []),
    `> ${facts.join(' · ')}`,
    '>',
    `> **Needs attention: ${annotated.attention.length === 0 ? 'nothing' : annotated.attention.length}**`,
    ...annotated.attention.map(
      (claim, index) =>
        `> ${index + 1}. **${verdictWords(claim)}** “${escapeMarkdown(claimWords(claim))}” (note ${claim.number}), ` +
        `${escapeMarkdown(placeWords(claim.place))}: ${escapeMarkdown(attentionLine(claim))}` +
        (claim.correction ? ` Correction: ${escapeMarkdown(claim.correction)}` : ''),
    ),
    '',
    '---',
    '',
    text.trimEnd(),
    ...(fence ? [fence] : []),
    '',
    ...annotated.claims.filter((claim) => !claim.quiet).map(footnote),
    ...quietList(annotated.quiet),
  ].join('\n')
}

/// The spelling fixes in words, the text being as the writer wrote it: "2 spelling fixes: seperate → separate,
/// recieve → receive".
const spellingFixes = (fixes: readonly SpellingFix[]): string =>
  `${counted(fixes.length, 'spelling fix')}: ${fixes
    .map(({ word, suggestion }) => `${escapeMarkdown(word)} → ${escapeMarkdown(suggestion)}`)
    .join(', ')}`

/// The list of the quiet claims after the footnotes, one line each: the claim's words, its place and the kind of
/// unverifiable it is (with the blank line that ends the file).
function quietList(quiet: readonly MemoClaim[]): string[] {
  if (quiet.length === 0) return ['']
  return [
    '',
    `**${QUIET_HEADING}**`,
    '',
    ...quiet.map((claim) => {
      const why = quietWhy(claim)
      return (
        `- “${escapeMarkdown(shortClaim(claim))}”` +
        `${claim.place ? `, ${escapeMarkdown(placeWords(claim.place))}` : ''}${why ? `: ${escapeMarkdown(why)}` : ''}`
      )
    }),
    '',
  ]
}

/// A web address as a Markdown link destination in `<…>`: as the URL parser writes it (its escapes kept, not
/// escaped twice), with the characters that would end the destination escaped.
const linkTarget = (url: string): string => new URL(url).href.replace(/[<>\s]/g, (c) => encodeURIComponent(c))

/// A claim's footnote: its verdict first, one line of reason and what the verdict rests on, then the
/// correction, the sources, the full reasoning, the other tiers and every vote with its reasoning.
function footnote(claim: AnnotatedClaim): string {
  const { consensus } = claim
  const reason = reasonLine(claim)
  const lines = [
    `${footnoteLabel(claim)}: **${verdictWords(claim)}**${reason ? `: ${escapeMarkdown(reason)}` : ''} ` +
      `(${escapeMarkdown(verdictDetails(claim))})`,
  ]
  const statement = checkedAs(claim.claim)
  if (statement) lines.push(`Checked as: ${escapeMarkdown(statement)}`)
  if (claim.correction) lines.push(`Correction: ${escapeMarkdown(claim.correction)}`)
  for (const citation of consensus?.citations ?? []) {
    const title = escapeMarkdown(citation.title || citation.url)
    const link = isWebUrl(citation.url) ? `[${title}](<${linkTarget(citation.url)}>)` : title
    lines.push(
      `Source: ${link}${citation.quote ? `: “${escapeMarkdown(citation.quote)}”` : ''} (${citationFacts(citation)})` +
        (stanceWords(citation.stance) ? `, ${stanceWords(citation.stance)}` : ''),
    )
  }
  const rest = reasoningRest(claim)
  if (rest) lines.push(`Reasoning: ${escapeMarkdown(rest)}`)
  for (const other of otherVerdicts(claim)) lines.push(escapeMarkdown(otherVerdictWords(other)))
  for (const issue of claim.claim.issues) lines.push(`Spelling or grammar: ${message(issue.message)}`)
  for (const vote of claim.votes)
    lines.push(
      `Vote (${vote.tier}, round ${vote.round}, ${escapeMarkdown(vote.model)}): ${VOCABULARY[vote.verdict].label}` +
        `${vote.rationale.trim() ? ` — ${escapeMarkdown(vote.rationale)}` : ''}`,
    )
  // Continuation lines of a footnote are indented; a blank line separates the footnotes.
  return `${lines.join('\n\n    ')}\n`
}

import type { Report } from '../../../shared/schemas'
import {
  annotate,
  checkFacts,
  isWebUrl,
  VERDICT_LABELS,
  verdictDetails,
  type AnnotatedClaim,
} from './annotate'

/// Text from a model or a web page made literal in Markdown, on one line: no markup, links, HTML or footnote
/// definitions of its own.
function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_{}[\]()<>#+\-!|~]/g, '\\$&')
}

/// The footnote label of a claim: `[^claim-N]`, apart from any footnotes the document has of its own.
const footnoteLabel = (claim: Pick<AnnotatedClaim, 'number'>): string => `[^claim-${claim.number}]`

/// The report as Markdown: a summary, the document's text as submitted with a footnote reference after each
/// claim, and a footnote per claim with its verdict, reasoning and sources.
export function toMarkdown(report: Report): string {
  const annotated = annotate(report)
  const summary = annotated.counts.map(({ verdict, count }) => `${VERDICT_LABELS[verdict]} ${count}`)
  const facts = checkFacts(report).map(([name, value]) => `${name}: ${escapeMarkdown(value)}`)
  const text = annotated.segments
    .map(({ text: run, claim }) => (claim ? `${run}${footnoteLabel(claim)}` : run))
    .join('')
  return [
    `> **Fact-check report: ${escapeMarkdown(annotated.title)}** (Factdesk)  `,
    `> ${report.claims.length} claims: ${summary.join(', ') || 'none'}  `,
    `> ${facts.join(' · ')}`,
    '',
    '---',
    '',
    text.trimEnd(),
    '',
    ...annotated.claims.map(footnote),
    '',
  ].join('\n')
}

function footnote(claim: AnnotatedClaim): string {
  const { consensus } = claim
  const lines = [`${footnoteLabel(claim)}: **${VERDICT_LABELS[claim.verdict]}** (${verdictDetails(claim)})`]
  if (consensus?.reasoning) lines.push(escapeMarkdown(consensus.reasoning))
  if (consensus?.correction) lines.push(`Suggested: ${escapeMarkdown(consensus.correction)}`)
  for (const other of claim.otherTiers)
    lines.push(`${other.tier}: ${VERDICT_LABELS[other.consensus.verdict]}`)
  for (const citation of consensus?.citations ?? []) {
    const title = escapeMarkdown(citation.title || citation.url)
    const link = isWebUrl(citation.url) ? `[${title}](<${encodeURI(citation.url)}>)` : title
    lines.push(`Source: ${link}${citation.quote ? `: “${escapeMarkdown(citation.quote)}”` : ''}`)
  }
  // Continuation lines of a footnote are indented; a blank line separates the footnotes.
  return `${lines.join('\n\n    ')}\n`
}

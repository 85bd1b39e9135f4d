import { citationDates } from '../../../shared/citations'
import type { Citation, Evaluation, Report } from '../../../shared/schemas'
import { checkedAs } from '../../../shared/verdicts'
import {
  annotate,
  checkFacts,
  isWebUrl,
  percent,
  VERDICT_LABELS,
  verdictDetails,
  type AnnotatedClaim,
  type Annotated,
} from './annotate'
import { markdownLines } from '../../../shared/markdown'

/// Text made inert in HTML, in content and in quoted attribute values alike.
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

// Nothing the page holds may load or run: no scripts, no requests; only its own inline style.
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

const STYLE = `
:root { --supported: #1e7f4f; --refuted: #c0392b; --misleading: #c2610c; --unverifiable: #6b5bb5;
  --issues: #b7791f; --clean: #1e7f4f; --failed: #8a8f98; --unchecked: #8a8f98; color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 52rem; padding: 2rem 1.5rem; font: 11pt/1.55 Georgia, 'Times New Roman', serif;
  color: #1d1f23; background: #fff; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
h1 { font-size: 1.6rem; margin: 0 0 0.3rem; }
h2 { font: 600 0.9rem/1.3 system-ui, sans-serif; text-transform: uppercase; letter-spacing: 0.06em;
  color: #555; border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; margin: 2rem 0 0.8rem; }
table { border-collapse: collapse; font: 0.85rem/1.4 system-ui, sans-serif; }
th, td { border: 1px solid #ddd; padding: 0.25rem 0.5rem; text-align: start; vertical-align: top;
  overflow-wrap: anywhere; }
.summary { display: flex; gap: 2rem; flex-wrap: wrap; align-items: flex-start; }
.facts th { background: #f6f6f4; font-weight: 600; }
.summary-verdicts td:last-child { text-align: right; }
.text { white-space: pre-wrap; overflow-wrap: break-word; unicode-bidi: plaintext; }
.note, .facts { overflow-wrap: anywhere; }
.quoted, .reasoning, .correction, blockquote, td { unicode-bidi: plaintext; }
.md-syntax { color: #9aa0a6; font-weight: 400; }
.md-heading { font: 700 1.05em/1.4 system-ui, sans-serif; }
.md-h1 { font-size: 1.35em; } .md-h2 { font-size: 1.2em; }
.md-code { font: 0.9em/1.5 ui-monospace, 'DejaVu Sans Mono', monospace; background: #f4f4f2; }
.claim { border-radius: 2px; padding: 0 1px; background: #eef0f3; border-bottom: 2px solid var(--verdict); }
.ref { font: 600 0.7rem system-ui, sans-serif; }
.ref a, .back { color: var(--verdict); text-decoration: none; }
.verdict-supported { --verdict: var(--supported); } .verdict-refuted { --verdict: var(--refuted); }
.verdict-misleading { --verdict: var(--misleading); } .verdict-unverifiable { --verdict: var(--unverifiable); }
.verdict-issues { --verdict: var(--issues); } .verdict-clean { --verdict: var(--clean); }
.verdict-failed { --verdict: var(--failed); } .verdict-unchecked { --verdict: var(--unchecked); }
mark.verdict-supported { background: #e3f3ea; } mark.verdict-refuted { background: #f9e2df; }
mark.verdict-misleading { background: #fbeadb; } mark.verdict-unverifiable { background: #ebe8f6; }
mark.verdict-issues { background: #f8efdc; }
.verdict-label { font: 700 0.8rem system-ui, sans-serif; color: var(--verdict); text-transform: uppercase;
  letter-spacing: 0.04em; }
.notes ol { padding-left: 1.6rem; }
.note { margin-bottom: 1.2rem; padding-left: 0.6rem; border-left: 3px solid var(--verdict);
  break-inside: avoid-page; }
.note p { margin: 0.2rem 0; }
.quoted { font-style: italic; }
.sources { margin: 0.2rem 0; padding-left: 1.2rem; font-size: 0.92em; }
blockquote { margin: 0.1rem 0 0.3rem; color: #444; }
.votes { margin-top: 0.4rem; width: 100%; }
.muted { color: #666; font-size: 0.9em; }
a { color: #2b6fd6; }
@page { margin: 18mm 16mm; }
@media print {
  body { max-width: none; padding: 0; }
  .back { display: none; }
  .sources a[href]::after { content: ' <' attr(href) '>'; font-size: 0.85em; color: #555; word-break: break-all; }
}
`

/// The report as one self-contained HTML page: a summary table, the text with each claim highlighted by its
/// verdict (`class="claim verdict-…"`) and a footnote mark, then a note per claim with the reasoning, the
/// sources and the votes. Everything taken from the report is escaped; the page needs no script and loads
/// nothing.
export function toHtml(report: Report): string {
  const annotated = annotate(report)
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${PAGE_POLICY}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="Factdesk">',
    `<title>${escapeHtml(annotated.title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${escapeHtml(annotated.title)}</h1>`,
    '<p class="muted">Fact-check report by Factdesk</p>',
    summary(annotated),
    '<h2>Text</h2>',
    `<div class="text">${text(annotated)}</div>`,
    notes(annotated),
    '</body>',
    '</html>',
    '',
  ].join('\n')
}

function summary({ report, counts }: Annotated): string {
  const rows = counts.map(
    ({ verdict, count }) =>
      `<tr class="verdict-${verdict}" data-verdict="${verdict}"><td><span class="verdict-label">` +
      `${VERDICT_LABELS[verdict]}</span></td><td>${count}</td></tr>`,
  )
  const facts = checkFacts(report).map(
    ([name, value]) => `<tr><th scope="row">${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`,
  )
  return [
    '<h2>Summary</h2>',
    '<div class="summary">',
    '<table class="summary-verdicts">',
    '<thead><tr><th scope="col">Verdict</th><th scope="col">Claims</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody>`,
    `<tfoot><tr><th scope="row">All claims</th><td>${report.claims.length}</td></tr></tfoot>`,
    '</table>',
    `<table class="facts"><tbody>${facts.join('')}</tbody></table>`,
    '</div>',
  ].join('\n')
}

/// A range of the text wrapped in markup: a claim's highlight, or the style of a Markdown line.
interface Wrap {
  from: number
  to: number
  open: string
  close: string
  claim: boolean
}

/// The text as submitted, every character kept, with each claim highlighted and its Markdown styled in place:
/// headings larger with their markers faint, fenced code in monospace with its fences faint. A style that would
/// cut across a claim is left out.
function text({ report, segments }: Annotated): string {
  const claims: Wrap[] = []
  let at = 0
  for (const { text: run, claim } of segments) {
    if (claim) {
      claims.push({
        from: at,
        to: at + run.length,
        open:
          `<mark class="claim verdict-${claim.verdict}" id="claim-${claim.number}" ` +
          `data-claim-id="${escapeHtml(claim.claim.claimId)}" title="${VERDICT_LABELS[claim.verdict]}">`,
        close:
          `</mark><sup class="ref verdict-${claim.verdict}">` +
          `<a href="#note-${claim.number}">${claim.number}</a></sup>`,
        claim: true,
      })
    }
    at += run.length
  }
  const crosses = (style: Wrap): boolean =>
    claims.some(
      (claim) =>
        claim.from < style.to && style.from < claim.to && !(style.from <= claim.from && claim.to <= style.to),
    )
  const wraps = [...claims, ...markdownStyles(report.text).filter((style) => !crosses(style))]
  // At one place: what closes (the innermost first) before what opens (the outermost first).
  const events = wraps.flatMap((wrap) => [
    { at: wrap.from, closing: false, rank: -wrap.to, second: wrap.claim, html: wrap.open },
    { at: wrap.to, closing: true, rank: -wrap.from, second: !wrap.claim, html: wrap.close },
  ])
  events.sort(
    (a, b) =>
      a.at - b.at ||
      Number(!a.closing) - Number(!b.closing) ||
      a.rank - b.rank ||
      Number(a.second) - Number(b.second),
  )
  let html = ''
  let written = 0
  for (const event of events) {
    html += escapeHtml(report.text.slice(written, event.at)) + event.html
    written = event.at
  }
  return html + escapeHtml(report.text.slice(written))
}

/// The Markdown of a text to style: heading lines (their markers apart) and fenced code blocks (their fences
/// apart).
function markdownStyles(text: string): Wrap[] {
  const styles: Wrap[] = []
  const wrap = (from: number, to: number, className: string): void => {
    if (to > from)
      styles.push({ from, to, open: `<span class="${className}">`, close: '</span>', claim: false })
  }
  for (const line of markdownLines(text)) {
    if (line.kind === 'fence') wrap(line.from, line.to, 'md-syntax')
    else if (line.kind === 'code') wrap(line.from, line.to, 'md-code')
    else if (line.kind === 'heading') {
      wrap(line.from, line.from + line.marker, 'md-syntax')
      wrap(line.from + line.marker, line.to, `md-heading md-h${line.level}`)
    }
  }
  return styles
}

function notes({ claims }: Annotated): string {
  if (claims.length === 0) return '<h2>Notes</h2>\n<p class="muted">No claims were found in this text.</p>'
  return ['<h2>Notes</h2>', '<ol class="notes">', ...claims.map(note), '</ol>'].join('\n')
}

function note(claim: AnnotatedClaim): string {
  const { consensus } = claim
  const parts = [
    `<li id="note-${claim.number}" class="note verdict-${claim.verdict}" ` +
      `data-claim-id="${escapeHtml(claim.claim.claimId)}">`,
    `<p><a class="back" href="#claim-${claim.number}" aria-label="Back to the claim">↑</a> ` +
      `<span class="quoted">“${escapeHtml(claim.claim.text)}”</span></p>`,
    `<p><span class="verdict-label">${VERDICT_LABELS[claim.verdict]}</span> ` +
      `<span class="muted">(${verdictDetails(claim)})</span></p>`,
  ]
  const statement = checkedAs(claim.claim)
  if (statement) parts.push(`<p class="checked-as">Checked as: ${escapeHtml(statement)}</p>`)
  if (consensus?.reasoning) parts.push(`<p class="reasoning">${escapeHtml(consensus.reasoning)}</p>`)
  if (consensus?.correction)
    parts.push(`<p class="correction"><strong>Suggested:</strong> ${escapeHtml(consensus.correction)}</p>`)
  for (const other of claim.otherTiers)
    parts.push(
      `<p class="muted">${other.tier}: ${VERDICT_LABELS[other.consensus.verdict]}` +
        `${other.consensus.reasoning ? ` — ${escapeHtml(other.consensus.reasoning)}` : ''}</p>`,
    )
  if (claim.claim.issues.length > 0)
    parts.push(
      '<ul class="sources issues">',
      ...claim.claim.issues.map(
        (issue) =>
          `<li>${escapeHtml(issue.message)}${issue.suggestions[0] ? ` (suggested: “${escapeHtml(issue.suggestions[0])}”)` : ''}</li>`,
      ),
      '</ul>',
    )
  const citations = consensus?.citations ?? []
  if (citations.length > 0)
    parts.push('<p><strong>Sources</strong></p>', '<ul class="sources">', ...citations.map(source), '</ul>')
  if (claim.votes.length > 0) parts.push(votes(claim.votes))
  parts.push('</li>')
  return parts.join('\n')
}

function source(citation: Citation): string {
  const title = escapeHtml(citation.title || citation.url)
  const link = isWebUrl(citation.url) ? `<a href="${escapeHtml(citation.url)}">${title}</a>` : title
  const quote = citation.quote ? `<blockquote>“${escapeHtml(citation.quote)}”</blockquote>` : ''
  return `<li>${link} <small>(${escapeHtml(citationDates(citation))})</small>${quote}</li>`
}

function votes(evaluations: Evaluation[]): string {
  const rows = evaluations.map(
    (vote) =>
      `<tr class="verdict-${vote.verdict}"><td>${vote.tier}</td><td>${escapeHtml(vote.model)}</td>` +
      `<td><span class="verdict-label">${VERDICT_LABELS[vote.verdict]}</span></td>` +
      `<td>${percent(vote.confidence)}</td><td>${escapeHtml(vote.rationale)}</td></tr>`,
  )
  return [
    '<table class="votes">',
    '<thead><tr><th scope="col">Tier</th><th scope="col">Model</th><th scope="col">Vote</th>' +
      '<th scope="col">Confidence</th><th scope="col">Reasoning</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody>`,
    '</table>',
  ].join('\n')
}

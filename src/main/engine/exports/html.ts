import { citationFacts, stanceWords } from '../../../shared/citations'
import { correctionWords } from '../../../shared/corrections'
import { counted } from '../../../shared/counted'
import { messageParts } from '../../../shared/findings'
import type { Citation, Evaluation, ExportComments, Report } from '../../../shared/schemas'
import { checkedAs } from '../../../shared/verdicts'
import { barWords, verdictBar } from '../../../shared/verdictBar'
import { EXPORT_VERDICTS, fillOf, VOCABULARY, type ExportVerdict } from '../../../shared/vocabulary'
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
} from './annotate'
import { memo, placeWords, type Block, type Inline, type Memo, type MemoClaim, type Run } from './memo'

/// Text made inert in HTML, in content and in quoted attribute values alike.
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

// Nothing the page holds may load or run: no scripts, no requests; only its own inline style.
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

/// Each verdict's colour (`--verdict`, for its words, marks and notes) and its claims' fill, from the
/// vocabulary, as the editor shows them on its light page.
const VERDICT_STYLE = EXPORT_VERDICTS.map(
  (verdict) =>
    `.verdict-${verdict} { --verdict: ${VOCABULARY[verdict].colour.light}; } ` +
    `mark.verdict-${verdict} { background: ${fillOf(verdict)}; }`,
).join('\n')

const STYLE = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 52rem; padding: 2rem 1.5rem; font: 11pt/1.55 Georgia, 'Times New Roman', 'Liberation Serif', 'DejaVu Serif Condensed', serif;
  color: #1d1f23; background: #fff; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
h1 { font-size: 1.6rem; margin: 0 0 0.3rem; }
h2.part { font: 600 0.9rem/1.3 system-ui, sans-serif; text-transform: uppercase; letter-spacing: 0.06em;
  color: #555; border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; margin: 2rem 0 0.8rem; break-after: avoid; }
.url { overflow-wrap: anywhere; }
.facts { font: 0.8rem/1.4 system-ui, sans-serif; color: #555; margin: 0.3rem 0; }
.counts { list-style: none; padding: 0; margin: 0.3rem 0; display: flex; flex-wrap: wrap; gap: 0.4rem 1.2rem; }
.count { font: 600 0.9rem system-ui, sans-serif; }
.verdict-bar { display: inline-block; width: 14rem; max-width: 40%; height: 9px; margin-left: 0.8rem; vertical-align: middle;
  border-radius: 2px; }
.attention { padding-left: 1.4rem; }
.attention li { margin-bottom: 0.5rem; }
.nothing { color: #555; }
.article h1, .article h2, .article h3, .article h4, .article h5, .article h6 {
  font-family: system-ui, sans-serif; line-height: 1.3; margin: 1.2rem 0 0.4rem; break-after: avoid; }
.article h1 { font-size: 1.4rem; } .article h2 { font-size: 1.2rem; } .article h3 { font-size: 1.05rem; }
.article p, .article li { margin: 0.4rem 0; }
.article blockquote { border-left: 3px solid #ddd; margin: 0.6rem 0; padding-left: 0.8rem; color: #444; }
.article pre { background: #f4f4f2; padding: 0.5rem; white-space: pre-wrap; }
code { font: 0.9em/1.5 ui-monospace, 'DejaVu Sans Mono', monospace; background: #f4f4f2; }
.claim { border-radius: 2px; padding: 0 1px; border-bottom: 2px solid var(--verdict); }
del.fix { color: #b3261e; text-decoration: line-through; }
ins.fix { color: #1a7f37; text-decoration: underline dotted; }
mark.claim.quiet { background: none; border-bottom: 1px dotted var(--verdict); }
.ref { font: 600 0.7rem system-ui, sans-serif; }
.ref a, .back { color: var(--verdict); text-decoration: none; }
${VERDICT_STYLE}
.verdict-label { font: 700 0.8rem system-ui, sans-serif; color: var(--verdict); text-transform: uppercase;
  letter-spacing: 0.04em; }
.notes { padding-left: 1.6rem; }
.quiet-list { padding-left: 1.6rem; font-size: 0.9em; }
.quiet-list a { color: inherit; }
.note { margin-bottom: 0.5rem; padding-left: 0.5rem; border-left: 3px solid var(--verdict); }
.note p { margin: 0.1rem 0; }
.basis, .place, .dates { color: #666; font: 0.8em system-ui, sans-serif; }
.dates { white-space: nowrap; }
.stance { color: #666; }
.more { font: 0.8em system-ui, sans-serif; }
.quoted { font-style: italic; }
.sources { font-size: 0.92em; }
.sources q { font-style: italic; }
.sources a { overflow-wrap: anywhere; }
.details { font-size: 0.9em; }
.detail { margin: 0 0 0.35rem; }
.num { font: 700 0.9em system-ui, sans-serif; }
.votes b { color: var(--verdict); }
.who { font: 0.85em system-ui, sans-serif; color: #555; white-space: nowrap; }
.quoted, .reasoning, .note { unicode-bidi: plaintext; }
a { color: #2b6fd6; }
@page { margin: 13mm 13mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 9.5pt; }
  .back, .more { display: none; }
  /* The notes and the details flow in two columns, a note free to continue in the next. */
  .notes, .details, .quiet-list { columns: 2; column-gap: 7mm; font-size: 8pt; line-height: 1.3; }
  .details { font-size: 7pt; }
}
`

/// The report as one self-contained HTML page, a fact-check memo: the summary, what needs attention, the
/// article rendered from its Markdown with each claim highlighted by its verdict (`class="claim verdict-…"`)
/// and a note mark, the short notes, then the details (every vote with its reasoning, the spelling findings).
/// A quiet claim (see `AnnotatedClaim.quiet`) has a lighter mark, no note mark, note or details, and a line in
/// the list at the end. Everything taken from the report is escaped; the page needs no script and loads nothing.
export function toHtml(report: Report, comments?: ExportComments): string {
  const memoed = memo(report, comments)
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${PAGE_POLICY}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="Factdesk">',
    `<title>${escapeHtml(memoed.title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${escapeHtml(memoed.title)}</h1>`,
    summary(memoed),
    attention(memoed),
    '<h2 class="part">Article</h2>',
    `<article class="article">${article(memoed.article, memoed)}</article>`,
    notes(memoed),
    details(memoed),
    ...quietList(memoed),
    '</body>',
    '</html>',
    '',
  ].join('\n')
}

const label = (verdict: ExportVerdict, words: string): string =>
  `<span class="verdict-label verdict-${verdict}">${escapeHtml(words)}</span>`

function summary({ report, counts, attention: needing, fixes, quiet }: Memo): string {
  const items = counts.map(
    ({ verdict, count }) =>
      `<li data-verdict="${verdict}">${label(verdict, VOCABULARY[verdict].label)} <span class="count">${count}</span></li>`,
  )
  const facts = checkFacts(report).map(
    ([name, value]) => `${escapeHtml(name)}: <span class="url">${escapeHtml(value)}</span>`,
  )
  return [
    '<h2 class="part">Summary</h2>',
    `<p class="lead"><strong>${report.claims.length} claims, ${needing.length} need attention.</strong>${bar(counts)}</p>`,
    `<ul class="counts">${items.join('')}</ul>`,
    ...(fixes.length > 0
      ? [`<p class="fixes">${counted(fixes.length, 'spelling fix')}, marked in the article.</p>`]
      : []),
    ...(quiet.length > 0
      ? [`<p class="quiet-line"><a href="#quiet">${escapeHtml(quietLine(quiet))}</a></p>`]
      : []),
    `<p class="facts">Fact-check report by Factdesk · ${facts.join(' · ')}</p>`,
  ].join('\n')
}

/// The verdicts as one bar (see verdictBar), in their colours on the light page, as inline SVG: said in words
/// to screen readers and, part by part, on hovering. Nothing when there are no claims.
function bar(counts: Memo['counts']): string {
  const parts = verdictBar(counts.map(({ verdict, count }) => ({ term: verdict, count })))
  if (parts.length === 0) return ''
  const words = escapeHtml(barWords(parts))
  const rects = parts.map(
    ({ term, count, x, width }) =>
      `<rect x="${x}" y="0" width="${width}" height="1" fill="${VOCABULARY[term].colour.light}" ` +
      `stroke="#fff" stroke-width="1" vector-effect="non-scaling-stroke" data-verdict="${term}">` +
      `<title>${escapeHtml(barWords([{ term, count }]))}</title></rect>`,
  )
  return (
    `<svg class="verdict-bar" role="img" aria-label="${words}" viewBox="0 0 100 1" preserveAspectRatio="none">` +
    `<title>${words}</title>${rects.join('')}</svg>`
  )
}

function attention({ attention: claims }: Memo): string {
  if (claims.length === 0)
    return '<h2 class="part">Needs attention</h2>\n<p class="nothing">Nothing: no tier found a claim refuted or misleading, and no claim failed.</p>'
  const items = claims.map(
    (claim) =>
      `<li class="verdict-${claim.verdict}" data-claim-id="${escapeHtml(claim.claim.claimId)}">` +
      `${label(claim.verdict, verdictWords(claim))} <span class="quoted">“${escapeHtml(claimWords(claim))}”</span>` +
      ` <a href="#note-${claim.number}">[${claim.number}]</a><br>` +
      `${place(claim)} ${escapeHtml(attentionLine(claim))}` +
      `${claim.correction ? ` ${correction(claim.correction)}` : ''}</li>`,
  )
  return ['<h2 class="part">Needs attention</h2>', '<ol class="attention">', ...items, '</ol>'].join('\n')
}

/// Where a claim is, in words, as a link to its words in the article (none for a claim the article does not
/// mark: it has no place).
const place = (claim: MemoClaim): string =>
  claim.place === null
    ? ''
    : `<a class="place" href="#claim-${claim.number}">${escapeHtml(placeWords(claim.place))}</a>`

/// The article's blocks as HTML: lists opened and closed by their items' depth.
function article(blocks: readonly Block[], { claims }: Memo): string {
  const verdicts = new Map(claims.map((claim) => [claim.number, claim]))
  const marked = new Set<number>()
  const lists: string[] = []
  let html = ''
  const closeLists = (depth: number): void => {
    while (lists.length > depth) html += `</li></${lists.pop()}>`
  }
  for (const block of blocks) {
    const dir = block.rightToLeft ? ' dir="rtl"' : ''
    const inner = inlines(block.inlines, verdicts, marked)
    if (block.kind !== 'item') closeLists(0)
    if (block.kind === 'item') {
      const tag = block.ordered ? 'ol' : 'ul'
      closeLists(block.level)
      if (lists.length === block.level) html += '</li>'
      while (lists.length < block.level) {
        html += `<${tag}>`
        lists.push(tag)
      }
      html += `<li${dir}>${inner}`
    } else if (block.kind === 'heading') html += `<h${block.level}${dir}>${inner}</h${block.level}>`
    else if (block.kind === 'quote') html += `<blockquote${dir}><p>${inner}</p></blockquote>`
    else if (block.kind === 'code') html += `<pre>${inner}</pre>`
    else if (block.kind === 'rule') html += '<hr>'
    else html += `<p${dir}>${inner}</p>`
    html += '\n'
  }
  closeLists(0)
  return html
}

function inlines(runs: readonly Inline[], claims: Map<number, MemoClaim>, marked: Set<number>): string {
  let html = ''
  for (const inline of runs) {
    if ('note' in inline) {
      const claim = claims.get(inline.note)
      if (claim?.quiet) continue
      html +=
        `<sup class="ref verdict-${claim?.verdict ?? 'unchecked'}">` +
        `<a href="#note-${inline.note}">${inline.note}</a></sup>`
      continue
    }
    let words = run(inline)
    const claim = inline.claim === null ? undefined : claims.get(inline.claim)
    if (claim) {
      const first = !marked.has(claim.number)
      marked.add(claim.number)
      words =
        `<mark class="claim${claim.quiet ? ' quiet' : ''} verdict-${claim.verdict}"${first ? ` id="claim-${claim.number}"` : ''} ` +
        `data-claim-id="${escapeHtml(claim.claim.claimId)}" title="${escapeHtml(verdictWords(claim))}">` +
        `${words}</mark>`
    }
    html += inline.link ? `<a href="${escapeHtml(inline.link)}">${words}</a>` : words
  }
  return html
}

/// A run's words; a misspelt word struck through, followed by its fix.
function run(inline: Run): string {
  if (inline.fix === null) return styled(inline.text, inline)
  return (
    `<del class="fix" title="Spelling fix">${styled(inline.text, inline)}</del>` +
    `<ins class="fix">${styled(inline.fix.suggestion, inline)}</ins>`
  )
}

function styled(text: string, inline: Run): string {
  let html = escapeHtml(text).replace(/\n/g, '<br>')
  if (inline.code) html = `<code>${html}</code>`
  if (inline.emphasis) html = `<em>${html}</em>`
  if (inline.strong) html = `<strong>${html}</strong>`
  if (inline.struck) html = `<del>${html}</del>`
  return html
}

function notes({ claims }: Memo): string {
  if (claims.length === 0)
    return '<h2 class="part">Notes</h2>\n<p class="nothing">No claims were found in this text.</p>'
  const noted = claims.filter((claim) => !claim.quiet)
  if (noted.length === 0) return ''
  return ['<h2 class="part">Notes</h2>', '<ol class="notes">', ...noted.map(note), '</ol>'].join('\n')
}

/// A claim's short note, one run-in paragraph: its verdict, what it rests on and one line of reason, the
/// correction, the sources with their quotes and dates.
function note(claim: MemoClaim): string {
  const reason = reasonLine(claim)
  const statement = checkedAs(claim.claim)
  const citations = claim.consensus?.citations ?? []
  return (
    `<li id="note-${claim.number}" class="note verdict-${claim.verdict}" ` +
    `data-claim-id="${escapeHtml(claim.claim.claimId)}"><p>` +
    `<a class="back" href="#claim-${claim.number}" aria-label="Back to the claim">↑</a> ` +
    `${label(claim.verdict, verdictWords(claim))} <span class="basis">${escapeHtml(verdictDetails(claim))}</span>` +
    (reason ? ` <span class="reasoning">${escapeHtml(reason)}</span>` : '') +
    (statement ? ` <span class="checked-as">Checked as: ${escapeHtml(statement)}</span>` : '') +
    (claim.correction ? ` ${correction(claim.correction)}` : '') +
    (citations.length > 0 ? ` <span class="sources">${citations.map(source).join('; ')}</span>` : '') +
    (detailParts(claim).length > 0 ? ` <a class="more" href="#details-${claim.number}">Votes</a>` : '') +
    '</p></li>'
  )
}

/// A correction in words, "(unverified)" where no source confirmed it.
function correction(suggested: string): string {
  const { words, unverified } = correctionWords(suggested)
  return (
    `<span class="correction"><strong>Correction${unverified ? ' (unverified)' : ''}:</strong> ` +
    `${escapeHtml(words)}</span>`
  )
}

function source(citation: Citation): string {
  const title = escapeHtml(citation.title || citation.url)
  const web = isWebUrl(citation.url)
  const link = web ? `<a href="${escapeHtml(citation.url)}">${title}</a>` : title
  const where = web ? `${escapeHtml(new URL(citation.url).host)}, ` : ''
  const stance = stanceWords(citation.stance)
  const quote = citation.quote
    ? ` <q>${escapeHtml(citation.quote)}</q>${stance ? ` <small class="stance">${stance}</small>` : ''}`
    : ''
  return `<span class="source">${link} <small class="dates">(${where}${escapeHtml(citationFacts(citation))})</small>${quote}</span>`
}

/// What the details add to a claim's note, as HTML pieces (none: the claim has no details): the rest of the
/// reasoning, another tier that says otherwise, the spelling findings (once) and every vote with its reasoning.
function detailParts(claim: MemoClaim): string[] {
  const parts: string[] = []
  const rest = reasoningRest(claim)
  if (rest) parts.push(`<span class="reasoning">${escapeHtml(rest)}</span>`)
  for (const other of otherVerdicts(claim))
    parts.push(
      `${escapeHtml(otherVerdictWords(other))}` +
        `${other.consensus.reasoning ? ` — ${escapeHtml(other.consensus.reasoning)}` : ''}`,
    )
  for (const issue of claim.claim.issues)
    parts.push(
      `<span class="finding">Spelling or grammar: ${message(issue.message)}` +
        `${issue.suggestions[0] ? ` (suggested: “${escapeHtml(issue.suggestions[0])}”)` : ''}</span>`,
    )
  parts.push(...votes(claim.votes))
  return parts
}

/// A spelling or grammar message with the words it quotes as code.
const message = (text: string): string =>
  messageParts(text)
    .map((part) => (part.code ? `<code>${escapeHtml(part.text)}</code>` : escapeHtml(part.text)))
    .join('')

/// The details of every claim that has any, one run-in paragraph each.
function details({ claims }: Memo): string {
  const sections = claims.flatMap((claim) => {
    const parts = claim.quiet ? [] : detailParts(claim)
    if (parts.length === 0) return []
    return [
      `<p class="detail verdict-${claim.verdict}" id="details-${claim.number}">` +
        `<a class="num" href="#note-${claim.number}">${claim.number}</a> ` +
        `<b>${escapeHtml(verdictWords(claim))}.</b> ${parts.join(' · ')}</p>`,
    ]
  })
  if (sections.length === 0) return ''
  return ['<h2 class="part">Details</h2>', '<div class="details">', ...sections, '</div>'].join('\n')
}

/// The list of the quiet claims at the end, one line each: the claim's words (a link to it in the article), its
/// place and the kind of unverifiable it is. No lines when there are none.
function quietList({ quiet }: Memo): string[] {
  if (quiet.length === 0) return []
  const items = quiet.map((claim) => {
    const words = `“${escapeHtml(shortClaim(claim))}”`
    const why = quietWhy(claim)
    return (
      `<li class="verdict-${claim.verdict}" data-claim-id="${escapeHtml(claim.claim.claimId)}">` +
      `${claim.place ? `<a href="#claim-${claim.number}">${words}</a>` : words}` +
      `${claim.place ? ` <span class="place">${escapeHtml(placeWords(claim.place))}</span>` : ''}` +
      `${why ? ` · ${escapeHtml(why)}` : ''}</li>`
    )
  })
  return [`<h2 class="part" id="quiet">${QUIET_HEADING}</h2>`, '<ul class="quiet-list">', ...items, '</ul>']
}

/// The votes, one piece per tier, round and verdict: "t3, round 1, Refuted: panel-a: …; panel-b: …".
function votes(evaluations: readonly Evaluation[]): string[] {
  const groups = new Map<string, Evaluation[]>()
  for (const vote of evaluations) {
    const key = `${vote.tier} ${vote.round} ${vote.verdict}`
    groups.set(key, [...(groups.get(key) ?? []), vote])
  }
  return [...groups.values()].map((group) => {
    const { tier, round, verdict } = group[0] as Evaluation
    const each = group.map(
      (vote) =>
        `<span class="vote" data-model="${escapeHtml(vote.model)}"><i>${escapeHtml(vote.model)}</i>` +
        `${vote.rationale.trim() ? `: ${escapeHtml(vote.rationale)}` : ''}</span>`,
    )
    return `<span class="votes"><span class="who">${tier}, round ${round}</span> <b class="verdict-${verdict}">${VOCABULARY[verdict].label}</b>: ${each.join('; ')}</span>`
  })
}

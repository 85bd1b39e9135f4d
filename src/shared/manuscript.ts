import type { Check, Claim, EstimatedClaim, Report } from './schemas'
import { hasEnded } from './vocabulary'

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

/// Counts per key (tier, verdict) added up.
function sum<K extends string>(counts: readonly Partial<Record<K, number>>[]): Partial<Record<K, number>> {
  const total: Partial<Record<K, number>> = {}
  for (const each of counts)
    for (const [key, count] of Object.entries(each) as [K, number][]) total[key] = (total[key] ?? 0) + count
  return total
}

/// A new manuscript's id (`CheckManuscript`): its parts' checks name it, and it is its check's id.
export const newManuscriptId = (): string => `mns_${crypto.randomUUID()}`

/// The check of the manuscript `id` of `parts` parts: the checks of its parts submitted so far (at least one,
/// in order) as one, named as they are. It has ended once every part's has; then it failed if one failed, else
/// it was cancelled if one was.
export function combinedCheck(id: string, checks: readonly Check[], parts: number): Check {
  const first = checks[0] as Check
  const ended = checks.length === parts && checks.every(hasEnded)
  const status = ended
    ? ((['failed', 'cancelled'] as const).find((each) => checks.some((check) => check.status === each)) ??
      'completed')
    : checks.some((check) => check.status !== 'queued')
      ? 'running'
      : 'queued'
  const latest = (dates: (string | null)[]): string | null =>
    dates.some((date) => date === null) ? null : ((dates as string[]).sort().at(-1) ?? null)
  const total = (count: (check: Check) => number): number =>
    checks.reduce((all, check) => all + count(check), 0)
  return {
    ...first,
    id,
    status,
    documentId: id,
    claimCount: total((check) => check.claimCount),
    credits: {
      charged: total((check) => check.credits.charged),
      refunded: total((check) => check.credits.refunded),
    },
    progress: { claimsDone: sum(checks.map((check) => check.progress.claimsDone)) },
    updatedAt: latest(checks.map((check) => check.updatedAt)) ?? first.updatedAt,
    completedAt: ended ? latest(checks.map((check) => check.completedAt)) : null,
    error: checks.find((check) => check.error)?.error ?? null,
    manuscript: { id, parts },
  }
}

/// A claim of a part that starts at `by`, placed on the whole text (its findings too).
export function shiftedClaim<T extends EstimatedClaim | Claim>(claim: T, by: number): T {
  const moved = { ...claim, charStart: claim.charStart + by, charEnd: claim.charEnd + by }
  return 'issues' in claim
    ? {
        ...moved,
        issues: claim.issues.map((issue) => ({
          ...issue,
          charStart: issue.charStart + by,
          charEnd: issue.charEnd + by,
        })),
      }
    : moved
}

/// The report of a manuscript whose check is `check`: the reports of its parts (in order, from its start) as
/// one, on the offsets of the whole text.
export function combinedReport(check: Check, reports: readonly Report[]): Report {
  const total = (count: (report: Report) => number): number =>
    reports.reduce((all, report) => all + count(report), 0)
  let from = 0
  const claims = reports.flatMap((report) => {
    const shifted = report.claims.map((claim) => shiftedClaim(claim, from))
    from += report.text.length
    return shifted
  })
  return {
    check,
    text: reports.map((report) => report.text).join(''),
    claims,
    summary: {
      claimCount: total((report) => report.summary.claimCount),
      done: sum(reports.map((report) => report.summary.done)),
      // Only the verdicts some part counts are keys.
      verdicts: sum(reports.map((report) => report.summary.verdicts)) as Record<string, number>,
      tokens: {
        input: total((report) => report.summary.tokens.input),
        output: total((report) => report.summary.tokens.output),
      },
    },
    panel: reports[0]?.panel ?? {},
    sources: reports[0]?.sources ?? null,
  }
}

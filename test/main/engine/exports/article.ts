import { readFileSync } from 'node:fs'
import {
  Report,
  type Citation,
  type Claim,
  type Consensus,
  type Evaluation,
} from '../../../../src/shared/schemas'
import { checkResource, decision, evaluation } from '../../../helpers/resources'
import { dataSet } from '../../../../eval/lines'

// A newsroom's article as an editor checks it: about 1,500 words of Markdown (a title with an emoji, a byline
// and a date, sections, a list, a link, a code span, a quote, a Hebrew sentence), its sentences real ones from
// ../shared/data, checked with t1, t2 and t3. Five claims need attention: three refuted, one misleading, and one
// the panel refuted that no source confirmed (t3 downgraded it to unverifiable).

const decided = '2026-11-20T10:15:00.000Z'
const submitted = '2026-11-20T10:00:00.000Z'

/// Clean sentences of climate-fever's evidence: plain prose, 12 to 32 words, no Markdown of their own.
function sentences(): string[] {
  const seen = new Set<string>()
  const found: string[] = []
  for (const line of readFileSync(dataSet('verification', 'climate-fever.jsonl'), 'utf8').split('\n')) {
    if (!line) continue
    for (const { evidence } of JSON.parse(line).evidences as { evidence: string }[]) {
      const words = evidence.split(/\s+/).length
      if (!/^[A-Z][A-Za-z0-9 ,'%-]+\.$/.test(evidence) || words < 12 || words > 32 || seen.has(evidence))
        continue
      seen.add(evidence)
      found.push(evidence)
    }
  }
  return found
}

/// Claims labelled false in Factcheck-Bench, with their gold corrections.
function falseClaims(): { claim: string; revised: string }[] {
  return readFileSync(dataSet('verification', 'factcheckbench-claims.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { claim: string; label: string; revised_claim: string })
    .filter(
      ({ claim, label, revised_claim }) =>
        label === 'false' && /^[A-Z][\w ,'-]+\.$/.test(claim) && revised_claim !== claim,
    )
    .map(({ claim, revised_claim }) => ({ claim, revised: revised_claim }))
}

export const HEBREW = 'תל אביב נוסדה בשנת 1909 על חולות יפו.'
export const LINKED_CLAIM_URL = 'https://example.org/archive/sea-ice'

/// A paragraph added at the article's end on request, under a heading of its own: its claim holds Markdown (it
/// starts inside strong emphasis, holds a link, code and emphasis), which a note quotes without its marks.
export const MARKED_CLAIM =
  'The Water Room**, where the [tide logs](https://example.org/tides) from `1910` are _still_ kept.'
export const MARKED_CLAIM_WORDS = 'The Water Room, where the tide logs from 1910 are still kept.'
const MARKED_SECTION = `## The archive\n\nVisitors call it **${MARKED_CLAIM}\n`

/// Sentences with a misspelt word each, as Harper finds it (its rule, its ranked suggestions), for plain
/// supported claims of the article: five words it clearly stands for one word each, a name, and a word that could
/// be two.
const TYPOS = [
  [
    'Researchers kept seperate records of the winter sea ice for three decades.',
    'seperate',
    ['separate', 'separated', 'sewerage'],
  ],
  [
    'Several coastal towns did not recieve the flood warnings in time.',
    'recieve',
    ['receive', 'relieve', 'recipe'],
  ],
  ['The largest melt on record occured in the summer of 2012.', 'occured', ['occurred', 'occur', 'obscured']],
  [
    'The goverment funded a new network of ocean buoys in 2019.',
    'goverment',
    ['government', 'movement', 'governments'],
  ],
  [
    'Glaciologists say the retreat will definately continue this century.',
    'definately',
    ['definitely', 'delicately', 'defiantly'],
  ],
  ['Ice cores drilled by Zwally show the same warming trend.', 'Zwally', ['Wally', 'Ally', 'Zonally']],
  ['The old survey maps used wods for the forested areas.', 'wods', ['words', 'woods', 'gods']],
] as const

/// What the article's claims are to be, by claim id, for the tests to compare with.
export interface ArticleExpectations {
  attention: string[]
  disputed: string
  corrected: { claimId: string; text: string; correction: string }
  badCorrection: string
  hebrew: string
  linked: string
  withFinding: string
  /// The claim with Markdown marks (see MARKED_CLAIM), misleading; '' without it.
  marked: string
  /// With `typos`: the misspelt words that are spelling fixes, and the two that stay findings (a name, a word
  /// that could be two), with their claims.
  fixes: { claimId: string; word: string; suggestion: string }[]
  unfixed: { claimId: string; word: string }[]
  /// The claims an export lists at the end instead of noting each: unverifiable, with no finding, needing no
  /// attention (in text order).
  quiet: string[]
}

/// Variants of the article: `marked` adds a last paragraph whose claim holds Markdown (see MARKED_CLAIM); with
/// `typos`, seven of its plain supported claims (none the tests pick by position) are sentences with a misspelt
/// word instead (TYPOS), each with its spelling finding; `unconfirmed`, as in a real check of a long article,
/// nothing could confirm most claims (unverifiable, no evidence found), the spelling finding's claim among them;
/// every tenth claim stays supported and the refuted, misleading and disputed claims stay as they are.
export interface ArticleOptions {
  marked?: boolean
  typos?: boolean
  unconfirmed?: boolean
}

export function articleReport({ marked = false, typos = false, unconfirmed = false }: ArticleOptions = {}): {
  report: Report
  expected: ArticleExpectations
} {
  const pool = sentences()
  const [first, second] = falseClaims()
  if (!first || !second) throw new Error('no false claims in the data')
  let next = 0
  const take = (): string => pool[next++] as string
  const paragraph = (count: number): string => Array.from({ length: count }, take).join(' ')
  const sections: string[] = [
    '# The climate in review 🌍',
    '*By Dana Reporter*',
    '*20 November 2026*',
    '## What the record shows',
    `${take()} ${first.claim} ${take()} ${take()}`,
    paragraph(4),
    '## Ice and sea',
    `${take()} Readings come from the \`noaa-co2\` series.`,
    ['- ', '- ', '- '].map((mark) => mark + take()).join('\n'),
    `${take()} See [${take().replace(/\.$/, '')}](${LINKED_CLAIM_URL}).`,
    paragraph(4),
    '## Voices',
    `> ${take()} ${take()}`,
    `${HEBREW} ${take()}`,
    paragraph(3),
    '## Politics',
    `${second.claim} ${paragraph(3)}`,
  ]
  const words = (): number => sections.join(' ').split(/\s+/).length
  while (words() < 1450) sections.push(`## Section ${sections.length}`, paragraph(4), paragraph(4))
  let article = `${sections.join('\n\n')}\n`

  // Every sentence of a paragraph, list item or quote is a claim; headings, byline and date are not.
  const claimTexts: string[] = []
  for (const block of article.split('\n')) {
    if (/^#|^\*/.test(block) || block.trim() === '') continue
    const prose = block.replace(/^(?:- |> )/, '')
    for (const sentence of prose.replace(/See \[.*$/, '').match(/[^.]+\./g) ?? []) {
      const trimmed = sentence.trim()
      if (!trimmed.includes('`')) claimTexts.push(trimmed)
    }
    const linked = /See \[(.+)\]\(/.exec(prose)
    if (linked) claimTexts.push(linked[1] as string)
  }
  // The typos replace every other claim before the last, far from the ones picked by position below; they are
  // put in from the end, so that the offsets before each are still those of the article.
  const typoAt = (index: number): number => claimTexts.length - 2 * (TYPOS.length - index)
  if (typos) {
    const starts: number[] = []
    claimTexts.reduce((from, sentence) => {
      starts.push(article.indexOf(sentence, from))
      return (starts.at(-1) as number) + sentence.length
    }, 0)
    for (const [index, [sentence]] of [...TYPOS.entries()].reverse()) {
      const at = typoAt(index)
      const start = starts[at] as number
      article = article.slice(0, start) + sentence + article.slice(start + (claimTexts[at] as string).length)
      claimTexts[at] = sentence
    }
  }
  const text = marked ? `${article}\n${MARKED_SECTION}` : article
  let from = 0
  const claims: Claim[] = claimTexts.map((sentence, index) => {
    const charStart = text.indexOf(sentence, from)
    if (charStart < 0) throw new Error(`no "${sentence}" in the article`)
    from = charStart + sentence.length
    return judged(
      `clm_${String(index + 1).padStart(3, '0')}`,
      sentence,
      charStart,
      charStart + sentence.length,
    )
  })
  if (marked) {
    const charStart = text.indexOf(MARKED_CLAIM)
    claims.push(judged('clm_marked', MARKED_CLAIM, charStart, charStart + MARKED_CLAIM.length))
  }
  const markedClaim = marked ? (claims.at(-1) as Claim) : null
  const byText = (sentence: string): Claim => claims.find((claim) => claim.text === sentence) as Claim
  const refutedFirst = byText(first.claim)
  const refutedSecond = byText(second.claim)
  const misleading = claims[12] as Claim
  const disputed = claims[24] as Claim
  const unverifiable = claims[30] as Claim
  const badCorrection = claims[40] as Claim
  const withFinding = claims[5] as Claim
  set(refutedFirst, 'refuted', { correction: first.revised })
  set(refutedSecond, 'refuted', { correction: `(unverified) ${second.revised}`, sourced: false, sources: 0 })
  set(misleading, 'misleading', { detail: 'partly_true' })
  if (markedClaim) set(markedClaim, 'misleading', { detail: 'partly_true' })
  set(unverifiable, 'unverifiable', { detail: 'not_checkable', sourced: false, sources: 0 }, 'unverifiable')
  set(badCorrection, 'refuted', {
    correction: '(unverified) The claim is not accurate according to the sources.',
    sourced: false,
    sources: 0,
  })
  // All six votes refuted it; no quote could be verified, so t3 fell to unverifiable.
  set(
    disputed,
    'unverifiable',
    { detail: 'no_evidence', sourced: false, sources: 0, agreement: 0, citations: [] },
    'refuted',
  )
  const quiet = [unverifiable]
  if (unconfirmed) {
    const decided = new Set([refutedFirst, refutedSecond, misleading, disputed, unverifiable, badCorrection])
    claims.forEach((claim, index) => {
      if (decided.has(claim) || index % 10 === 9) return
      set(claim, 'unverifiable', { detail: 'no_evidence', sourced: false, sources: 0, citations: [] })
      if (claim !== withFinding) quiet.push(claim)
    })
  }
  withFinding.issues = [
    {
      charStart: withFinding.charStart,
      charEnd: withFinding.charStart + 4,
      message: 'Possible spelling mistake',
      suggestions: ['That'],
      rule: 'SpellCheck',
    },
  ]
  withFinding.consensus.t1 = consensus('issues', 'One spelling finding.', { sourced: false, sources: 0 })
  withFinding.consensus.t1.decidedBy = null
  const misspelt = (typos ? TYPOS : []).map(([, word, suggestions], index) => {
    const claim = claims[typoAt(index)] as Claim
    const charStart = claim.charStart + claim.text.indexOf(word)
    const message = `Did you mean to spell \`${word}\` this way?`
    claim.issues = [
      {
        charStart,
        charEnd: charStart + word.length,
        message,
        suggestions: [...suggestions],
        rule: 'SpellCheck',
      },
    ]
    claim.consensus.t1 = { ...consensus('issues', message, { sourced: false, sources: 0 }), decidedBy: null }
    return { claimId: claim.claimId, word, suggestion: suggestions[0] }
  })

  const report = Report.parse({
    check: checkResource({
      id: 'chk_article',
      status: 'completed',
      name: 'climate-review.md',
      author: 'Dana Reporter',
      tiers: ['t1', 't2', 't3'],
      documentId: 'doc_article',
      claimCount: claims.length,
      credits: { charged: 900, refunded: 0 },
      progress: { claimsDone: { t1: claims.length, t2: claims.length, t3: claims.length } },
      createdAt: submitted,
      updatedAt: decided,
      completedAt: decided,
    }),
    text,
    claims,
    summary: {
      claimCount: claims.length,
      done: { t1: claims.length, t2: claims.length, t3: claims.length },
      verdicts: {},
      tokens: { input: 0, output: 0 },
    },
    panel: { t2: 3, t3: 3 },
    sources: null,
  })
  return {
    report,
    expected: {
      attention: [
        refutedFirst,
        misleading,
        disputed,
        badCorrection,
        refutedSecond,
        ...(markedClaim ? [markedClaim] : []),
      ]
        .sort((a, b) => a.charStart - b.charStart)
        .map((claim) => claim.claimId),
      disputed: disputed.claimId,
      corrected: { claimId: refutedFirst.claimId, text: refutedFirst.text, correction: first.revised },
      badCorrection: badCorrection.claimId,
      hebrew: byText(HEBREW).claimId,
      linked: claims.find((claim) => text.slice(claim.charStart - 1, claim.charStart) === '[')?.claimId ?? '',
      withFinding: withFinding.claimId,
      marked: markedClaim?.claimId ?? '',
      fixes: misspelt.slice(0, 5),
      unfixed: misspelt.slice(5).map(({ claimId, word }) => ({ claimId, word })),
      quiet: quiet.sort((a, b) => a.charStart - b.charStart).map((claim) => claim.claimId),
    },
  }
}

function consensus(
  verdict: Consensus['verdict'],
  reasoning: string,
  extra: Partial<Consensus> = {},
): Consensus {
  return decision({
    verdict,
    confidence: 0.9,
    reasoning,
    decidedAt: decided,
    decidedBy: 'judge',
    sourced: true,
    sources: 2,
    ...extra,
  })
}

const citation = (claim: string, site: string, stance: Citation['stance']): Citation => ({
  url: `https://${site}/climate/${claim
    .split(' ')
    .slice(0, 3)
    .join('-')
    .toLowerCase()
    .replace(/[^a-z-]/g, '')}`,
  title: `${claim.split(' ').slice(0, 5).join(' ')} — ${site}`,
  quote: claim.split(' ').slice(0, 9).join(' '),
  retrievedAt: decided,
  publishedAt: '2024-05-01T00:00:00.000Z',
  stance,
  preferred: false,
})

// The panels' models, listed out of order: the exports sort them.
const MODELS = ['panel-c', 'panel-a', 'panel-b']

const vote = (tier: 't2' | 't3', model: string, verdict: Evaluation['verdict'], claim: string): Evaluation =>
  evaluation({
    tier,
    model,
    verdict,
    confidence: 0.85,
    rationale: `${model} read "${claim.split(' ').slice(0, 6).join(' ')}" against the record and found it ${verdict}.`,
    createdAt: decided,
  })

/// A supported claim: a clean t1, three t2 and three t3 votes, a t3 consensus with two sources.
function judged(claimId: string, text: string, charStart: number, charEnd: number): Claim {
  const t2 = MODELS.map((model) => vote('t2', model, 'supported', text))
  const t3 = MODELS.map((model) => vote('t3', model, 'supported', text))
  const spelling: Evaluation = { ...vote('t2', 'harper', 'clean', text), tier: 't1', rationale: 'No issues.' }
  return {
    claimId,
    text,
    charStart,
    charEnd,
    carriedFrom: null,
    statement: null,
    parts: null,
    evaluations: [...t3, spelling, ...t2],
    consensus: {
      t1: { ...consensus('clean', 'No issues.', { sourced: false, sources: 0 }), decidedBy: null },
      t2: consensus('supported', 'The panel agrees with the record.', { sourced: false, sources: 0 }),
      t3: consensus('supported', 'Two sources confirm it in the same words. Both are recent.', {
        citations: [citation(text, 'example.org', 'supports'), citation(text, 'example.net', 'supports')],
      }),
    },
    issues: [],
  }
}

/// Gives a claim's t2 and t3 another verdict; its votes say `votes` (by default the verdict).
function set(
  claim: Claim,
  verdict: Consensus['verdict'],
  extra: Partial<Consensus>,
  votes: Evaluation['verdict'] = verdict,
): void {
  const reasoning = `The record contradicts part of it: ${claim.text.split(' ').slice(0, 8).join(' ')}. The figures differ.`
  claim.evaluations = claim.evaluations.map((evaluation) =>
    evaluation.tier === 't1'
      ? evaluation
      : {
          ...evaluation,
          verdict: votes,
          rationale: evaluation.rationale.replace(/found it \w+/, `found it ${votes}`),
        },
  )
  const t3 = claim.consensus.t3 as Consensus
  claim.consensus.t2 = { ...t3, verdict, reasoning, sourced: false, sources: 0, citations: [], ...extra }
  claim.consensus.t3 = {
    ...t3,
    verdict,
    reasoning,
    citations: [citation(claim.text, 'example.org', 'refutes')],
    sources: 1,
    ...extra,
  }
}

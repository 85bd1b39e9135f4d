import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Report, type Claim, type Consensus, type Evaluation } from '../../../../src/shared/schemas'
import { checkResource, decision, evaluation } from '../../../helpers/resources'

/// A PDF's text, as poppler's pdftotext reads it.
export const pdfText = (bytes: Uint8Array): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'factdesk-test-')), 'page.pdf')
  writeFileSync(file, bytes)
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })
}

/// Markup that must stay text in every export: a script, an event handler and a link that runs script.
export const INJECTED = '<script>alert(1)</script><img src=x onerror="alert(2)">'

const at = '2026-01-01T00:00:00.000Z'

const vote = (model: string, verdict: Evaluation['verdict'], rationale: string): Evaluation =>
  evaluation({ tier: 't2', model, verdict, confidence: 0.8, rationale, createdAt: at })

const consensus = (
  verdict: Consensus['verdict'],
  reasoning: string,
  extra: Partial<Consensus> = {},
): Consensus => decision({ verdict, confidence: 0.9, reasoning, decidedAt: at, decidedBy: 'judge', ...extra })

/// A report of a t1 + t2 check over a text with an emoji before its claims (UTF-16 offsets), markup in the
/// document, the rationales and a citation, and one claim the panel never decided.
export function fixtureReport(): Report {
  const text =
    `# Landmarks 🗼 ${INJECTED}\n\n` +
    'The Eiffel Tower is 330 metres tall. It was finished in 1789.\n' +
    'Paris has 40 million residents.\n\n' +
    'Berlin is the capital of Germany.'
  const claim = (
    id: string,
    sentence: string,
    rest: Omit<Claim, 'claimId' | 'text' | 'charStart' | 'charEnd' | 'statement' | 'parts' | 'carriedFrom'>,
    statement: string | null = sentence,
  ) => {
    const charStart = text.indexOf(sentence)
    return {
      claimId: id,
      text: sentence,
      charStart,
      charEnd: charStart + sentence.length,
      statement,
      parts: null,
      carriedFrom: null,
      ...rest,
    }
  }
  const claims: Claim[] = [
    claim('clm_1', 'The Eiffel Tower is 330 metres tall.', {
      evaluations: [
        vote('model-a', 'supported', 'Matches the official height.'),
        vote('model-b', 'supported', 'Yes.'),
      ],
      consensus: {
        t1: consensus('clean', 'No issues.'),
        t2: consensus('supported', `Both sources agree ${INJECTED}`, {
          citations: [
            {
              url: 'https://example.org/eiffel?a=1&b="2"',
              title: `Eiffel facts </a>${INJECTED}`,
              quote: 'The tower is 330 metres (1,083 ft) tall',
              retrievedAt: at,
              publishedAt: null,
              stance: 'supports',
              preferred: false,
            },
            {
              url: 'javascript:alert(3)',
              title: 'Bad link',
              quote: 'quoted words',
              retrievedAt: at,
              publishedAt: null,
              stance: 'supports',
              preferred: false,
            },
          ],
        }),
      },
      issues: [],
    }),
    claim(
      'clm_2',
      'It was finished in 1789.',
      {
        evaluations: [
          vote('model-a', 'refuted', `It opened in 1889 ${INJECTED}`),
          vote('model-b', 'refuted', 'No.'),
        ],
        consensus: {
          t2: consensus('refuted', 'It was finished in 1889.', {
            correction: '(unverified) It was finished in 1889.',
          }),
        },
        issues: [],
      },
      'The Eiffel Tower was finished in 1789.',
    ),
    claim('clm_3', 'Paris has 40 million residents.', {
      evaluations: [vote('model-a', 'misleading', 'The metro area has about 12 million.')],
      consensus: {
        t2: consensus('misleading', 'About 2.1 million in the city, 12 million in the region.', {
          detail: 'missing_context',
          agreement: 0.5,
        }),
      },
      issues: [
        {
          charStart: text.indexOf('Paris'),
          charEnd: text.indexOf('Paris') + 5,
          message: 'Odd word',
          suggestions: ['Parish'],
          rule: 'SpellCheck',
        },
      ],
    }),
    claim('clm_4', 'Berlin is the capital of Germany.', { evaluations: [], consensus: {}, issues: [] }, null),
  ]
  return Report.parse({
    check: checkResource({
      id: 'chk_fixture',
      status: 'completed',
      name: 'landmarks.md',
      author: `Ann <b>Author</b>`,
      tiers: ['t1', 't2'],
      documentId: 'doc_fixture',
      claimCount: claims.length,
      credits: { charged: 20, refunded: 4 },
      progress: { claimsDone: { t1: 1, t2: 3 } },
      createdAt: at,
      updatedAt: at,
      completedAt: at,
    }),
    text,
    claims,
    summary: {
      claimCount: claims.length,
      done: { t1: 1, t2: 3 },
      verdicts: { clean: 1, supported: 1, refuted: 1, misleading: 1 },
      tokens: { input: 0, output: 0 },
    },
    panel: { t2: 2 },
    sources: null,
  })
}

/// The verdict class each fixture claim's export must carry, by claim id.
export const EXPECTED_VERDICTS: Record<string, string> = {
  clm_1: 'supported',
  clm_2: 'refuted',
  clm_3: 'misleading',
  clm_4: 'unchecked',
}

/// The report an editor found wanting (issue 31): a t1 + t2 + t3 check whose second claim two of three t2 models
/// and the t2 judge refuted, with a correction; in t3 the panel split three ways, the judge refuted it too, but
/// the one quote found was judged neutral, so t3's verdict fell to "unverifiable: no evidence" (its evidence
/// chosen by its words: the judge named no passage). The first claim is supported in every tier.
export function splitRefutationReport(): Report {
  const text = 'The Eiffel Tower stands in Paris. It was completed in 1789.'
  const refuted = 'It was completed in 1789.'
  const cast = (tier: 't2' | 't3', model: string, verdict: Evaluation['verdict'], rationale: string) =>
    evaluation({ tier, model, verdict, confidence: 0.8, rationale, createdAt: at })
  const neutral = {
    url: 'https://example.org/eiffel',
    title: 'Eiffel Tower',
    quote: 'The tower is a landmark of Paris.',
    retrievedAt: at,
    publishedAt: null,
    stance: 'neutral' as const,
    preferred: false,
  }
  const claims: Claim[] = [
    {
      claimId: 'clm_paris',
      text: 'The Eiffel Tower stands in Paris.',
      charStart: 0,
      charEnd: 33,
      statement: 'The Eiffel Tower stands in Paris.',
      parts: null,
      carriedFrom: null,
      evaluations: [
        cast('t2', 'model-a', 'supported', 'It does.'),
        cast('t2', 'model-b', 'supported', 'Yes.'),
        cast('t2', 'model-c', 'supported', 'Yes.'),
      ],
      consensus: {
        t2: consensus('supported', 'The panel agreed.', { decidedBy: 'panel' }),
        t3: consensus('supported', 'The page says so.', {
          decidedBy: 'panel',
          sourced: true,
          sources: 1,
          citations: [{ ...neutral, stance: 'supports' }],
        }),
      },
      issues: [],
    },
    {
      claimId: 'clm_split',
      text: refuted,
      charStart: text.indexOf(refuted),
      charEnd: text.indexOf(refuted) + refuted.length,
      statement: 'The Eiffel Tower was completed in 1789.',
      parts: null,
      carriedFrom: null,
      evaluations: [
        cast('t2', 'model-a', 'refuted', 'It was completed in 1889, for the World’s Fair.'),
        cast('t2', 'model-b', 'refuted', 'The tower opened in 1889.'),
        cast('t2', 'model-c', 'supported', 'Sounds right.'),
        cast('t3', 'model-a', 'refuted', 'It opened in 1889.'),
        cast('t3', 'model-b', 'supported', 'The page names Paris.'),
        cast('t3', 'model-c', 'unverifiable', 'The passage gives no date.'),
      ],
      consensus: {
        t2: consensus('refuted', 'The tower was completed in 1889, a century after 1789. Two models agree.', {
          agreement: 0.67,
          correction: '(unverified) It was completed in 1889.',
        }),
        t3: consensus(
          'unverifiable',
          'It opened in 1889. (Unverifiable: no verified quote contradicts the claim.)',
          {
            agreement: 0.33,
            detail: 'no_evidence',
            citations: [neutral],
            fallbacks: ['evidence_ranked_by_words'],
          },
        ),
      },
      issues: [],
    },
  ]
  return Report.parse({
    check: checkResource({
      id: 'chk_split',
      status: 'completed',
      name: 'eiffel.md',
      tiers: ['t1', 't2', 't3'],
      documentId: 'doc_split',
      claimCount: claims.length,
      credits: { charged: 30, refunded: 0 },
      progress: { claimsDone: { t2: 2, t3: 2 } },
      createdAt: at,
      updatedAt: at,
      completedAt: at,
    }),
    text,
    claims,
    summary: {
      claimCount: claims.length,
      done: { t2: 2, t3: 2 },
      verdicts: { supported: 1, unverifiable: 1 },
      tokens: { input: 0, output: 0 },
    },
    panel: { t2: 3, t3: 3 },
    sources: null,
  })
}

/// Why the split-refutation report's second claim needs attention, as every export says it.
export const SPLIT_WHY = 'The t2 judge refuted it, with 2 of 3 models; no source confirmed it: check by hand.'

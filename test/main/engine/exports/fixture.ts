import { Report, type Claim, type Consensus, type Evaluation } from '../../../../src/shared/schemas'
import { checkResource, decision, evaluation } from '../../../helpers/resources'

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

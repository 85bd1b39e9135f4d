// Resources as the API returns them, for tests of what the page, the desktop shell and the exports do with them.
import type { Check, Consensus, Evaluation, Report, Research } from '../../src/shared/schemas'

/// A first-round vote: no citations, usage or detail, not cached, unless given.
export const evaluation = (
  vote: Pick<Evaluation, 'tier' | 'model' | 'verdict' | 'confidence' | 'rationale' | 'createdAt'> &
    Partial<Evaluation>,
): Evaluation => ({ citations: [], cached: false, usage: null, round: 1, detail: null, ...vote })

/// A tier's decision: unanimous, with no citations, correction, detail, sources or calibration, unless given.
export const decision = (
  decided: Pick<Consensus, 'verdict' | 'confidence' | 'reasoning' | 'decidedAt' | 'decidedBy'> &
    Partial<Consensus>,
): Consensus => ({
  agreement: 1,
  citations: [],
  correction: null,
  detail: null,
  sourced: false,
  sources: 0,
  calibratedConfidence: null,
  fallbacks: [],
  ...decided,
})

/// A t2 panel vote of `model`: supported, 90% confident.
export const panelVote = (model: string): Evaluation =>
  evaluation({
    tier: 't2',
    model,
    verdict: 'supported',
    confidence: 0.9,
    rationale: 'Known.',
    createdAt: '2026-01-01T00:00:00.000Z',
  })

/// A running deep-research run on a text, with `over` changed.
export const researchRun = (over: Partial<Research> = {}): Research => ({
  id: 'rsc_1',
  status: 'running',
  claimId: null,
  text: 'Ottawa is the capital of Canada.',
  credits: { charged: 40, refunded: 0 },
  result: null,
  error: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:01.000Z',
  completedAt: null,
  ...over,
})

/// A queued t1 check of one claim, with `over` changed.
export const checkResource = (over: Partial<Check> = {}): Check => ({
  id: 'chk_1',
  status: 'queued',
  name: null,
  author: null,
  sourceUrl: null,
  callbackUrl: null,
  tiers: ['t1'],
  documentId: 'doc_1',
  claimCount: 1,
  credits: { charged: 1, refunded: 0 },
  progress: { claimsDone: {} },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  completedAt: null,
  error: null,
  webhook: null,
  ...over,
})

/// The report of `check`, without claims.
export const reportResource = (check: Check): Report => ({
  check,
  text: '',
  claims: [],
  summary: { claimCount: 0, done: {}, verdicts: {}, tokens: { input: 0, output: 0 } },
  panel: {},
  sources: null,
})

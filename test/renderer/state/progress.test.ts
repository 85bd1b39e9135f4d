import { describe, expect, it } from 'vitest'
import type { ReportUpdate } from '../../../src/shared/api'
import type { Evaluation } from '../../../src/shared/schemas'
import {
  applyUpdate,
  deltaOf,
  headlineTier,
  stageOf,
  type ClaimProgress,
} from '../../../src/renderer/src/state/progress'
import { decision, panelVote } from '../../helpers/resources'

const update = (
  evaluation: Evaluation | null,
  verdict?: 'refuted',
): Extract<ReportUpdate, { type: 'claim' }> => ({
  type: 'claim',
  checkId: 'chk_1',
  claimId: 'clm_1',
  tier: 't2',
  evaluation,
  consensus: verdict
    ? decision({
        verdict,
        confidence: 0.8,
        reasoning: 'No.',
        decidedAt: '2026-01-01T00:00:00.000Z',
        decidedBy: 'judge',
      })
    : null,
  issues: [],
})
const EMPTY: ClaimProgress = { claimId: 'clm_1', charStart: 10, votes: {}, consensus: {}, issues: [] }
const RUNNING = { tiers: ['t1', 't2'] as const, status: 'running' as const }

describe('claim progress', () => {
  it('shows the deepest tier of the check', () => {
    expect(headlineTier(['t1'])).toBe('t1')
    expect(headlineTier(['t2', 't1'])).toBe('t2')
    expect(headlineTier(['t1', 't3'])).toBe('t3')
  })

  it('goes from waiting to voting to the verdict, counting each model once', () => {
    const check = { ...RUNNING, tiers: [...RUNNING.tiers] }
    expect(stageOf(EMPTY, check)).toBe('waiting')
    let progress = applyUpdate(EMPTY, update(panelVote('a')))
    progress = applyUpdate(progress, update(panelVote('a')))
    progress = applyUpdate(progress, update(panelVote('b')))
    expect(deltaOf(progress, check)).toMatchObject({ stage: 'voting', votes: 2 })
    progress = applyUpdate(progress, update(null, 'refuted'))
    expect(stageOf(progress, check)).toBe('refuted')
  })

  it('marks claims without an outcome failed, or not checked when the check was cancelled', () => {
    expect(stageOf(EMPTY, { tiers: ['t2'], status: 'failed' })).toBe('failed')
    expect(stageOf(EMPTY, { tiers: ['t2'], status: 'cancelled' })).toBe('unchecked')
  })

  it('places t1 issues relative to the claim, spelling told from grammar', () => {
    const withIssue = applyUpdate(EMPTY, {
      ...update(null),
      tier: 't1',
      issues: [
        { charStart: 14, charEnd: 18, message: 'Typo', suggestions: [], rule: 'SpellCheck' },
        { charStart: 20, charEnd: 22, message: 'Use "an"', suggestions: ['an'], rule: 'AnA' },
      ],
    })
    // Underlined as the live check does: an unknown word as spelling, any other finding as grammar.
    expect(deltaOf(withIssue, { tiers: ['t1'], status: 'running' }).issues).toEqual([
      { from: 4, to: 8, message: 'Typo', spelling: true },
      { from: 10, to: 12, message: 'Use "an"', spelling: false },
    ])
  })
})

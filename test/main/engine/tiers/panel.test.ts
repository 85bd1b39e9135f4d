import { describe, expect, it } from 'vitest'
import { juryConsensus, majority, withoutJudge } from '../../../../src/main/engine/tiers/panel'
import type { Evaluation } from '../../../../src/shared/schemas'

const AT = '2026-11-28T00:00:00.000Z'

/// Final votes of a panel, one per verdict given, in order.
const votes = (...verdicts: Array<Evaluation['verdict']>): Evaluation[] =>
  verdicts.map((verdict, index) => ({
    tier: 't2',
    model: `panel-${index}`,
    verdict,
    detail: null,
    confidence: 0.8,
    rationale: `Panelist ${index} says ${verdict}.`,
    citations: [],
    createdAt: AT,
    cached: false,
    usage: null,
    round: 2,
  }))

describe('a clear majority of the final votes', () => {
  it.each([
    [['refuted', 'refuted', 'supported'], 2 / 3, 'refuted'],
    [['refuted', 'refuted', 'refuted', 'supported'], 2 / 3, 'refuted'],
    [['refuted', 'refuted', 'supported', 'supported'], 2 / 3, null],
    [['refuted', 'refuted', 'supported', 'misleading'], 2 / 3, null],
    [['refuted', 'refuted', 'refuted', 'supported', 'supported'], 2 / 3, null],
    [['refuted', 'refuted', 'refuted', 'supported', 'supported'], 0.6, 'refuted'],
    [['refuted', 'refuted', 'supported'], 1, null],
    [['supported', 'refuted', 'misleading'], 2 / 3, null],
    // One vote is no majority, nor are two that disagree.
    [['supported'], 2 / 3, null],
    [['supported', 'refuted'], 2 / 3, null],
  ] as const)('%j at a share of %d: %s', (given, share, verdict) => {
    expect(majority(votes(...given), share)).toBe(verdict)
  })

  it('decides without the judge after the debate, unanimous or by a clear majority, else leaves it to the judge', () => {
    expect(juryConsensus(votes('supported', 'supported', 'supported'), AT, 2 / 3)).toMatchObject({
      verdict: 'supported',
      decidedBy: 'panel',
      agreement: 1,
    })
    const decided = juryConsensus(votes('refuted', 'supported', 'refuted'), AT, 2 / 3)
    expect(decided).toMatchObject({
      verdict: 'refuted',
      decidedBy: 'majority',
      agreement: 0.67,
      correction: null,
      fallbacks: [],
      reasoning:
        '2 of the 3 panelists found it refuted. Panelist 0 says refuted. Panelist 2 says refuted. ' +
        'Dissent: (supported) Panelist 1 says supported.',
    })
    expect(juryConsensus(votes('refuted', 'supported', 'misleading'), AT, 2 / 3)).toBeNull()
  })

  it('stands in for a judge whose answer could not be used only where more than half agree, labelled', () => {
    expect(withoutJudge(votes('refuted', 'refuted', 'refuted', 'supported', 'supported'), AT)).toMatchObject({
      verdict: 'refuted',
      decidedBy: 'majority',
      fallbacks: ['judge_unusable'],
    })
    expect(withoutJudge(votes('refuted', 'refuted', 'supported', 'supported'), AT)).toBeNull()
    expect(withoutJudge(votes('refuted'), AT)).toBeNull()
  })
})

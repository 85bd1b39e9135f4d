// What stands behind a verdict, as the claim panel, the badges' titles and the exports say it
// (src/shared/verdicts.ts): agreement and sources, or the calibrated confidence when a map gave one.
import { describe, expect, it } from 'vitest'
import type { Check, Claim, Evaluation } from '../../src/shared/schemas'
import { attentionOf, verdictBasis, verdictNote } from '../../src/shared/verdicts'
import { decision, evaluation } from '../helpers/resources'

const decided = decision({
  verdict: 'supported',
  confidence: 0.95,
  agreement: 0.67,
  reasoning: 'Both sources say so.',
  decidedAt: '2026-01-01T00:00:00.000Z',
  sourced: true,
  sources: 2,
  decidedBy: 'judge',
})

describe('verdictBasis', () => {
  it('without a calibration map: the sources, who decided and the agreement; never the judge’s confidence', () => {
    expect(verdictBasis(decided)).toBe('2 distinct sources · decided by the judge · agreement 67%')
    expect(verdictBasis(decided)).not.toMatch(/95|confidence/)
  })

  it('with one: the calibrated confidence in place of the agreement', () => {
    const calibrated = { ...decided, calibratedConfidence: 0.814 }
    expect(verdictBasis(calibrated)).toBe(
      '2 distinct sources · decided by the judge · calibrated confidence 81%',
    )
    expect(
      verdictNote({ ...calibrated, verdict: 'misleading', detail: 'missing_context', sourced: false }),
    ).toBe(
      'missing context · Unsourced: the models’ judgement · decided by the judge · calibrated confidence 81%',
    )
  })

  it('says nothing for t1, whose rules have no panel', () => {
    expect(verdictBasis({ ...decided, decidedBy: null, calibratedConfidence: 0.5 })).toBeNull()
  })
})

describe('verdictBasis: agreement only where it means something', () => {
  it('says none for a verdict no vote gave: the judge’s own, or one set for want of evidence', () => {
    const own = { ...decided, sourced: false, agreement: 0 }
    expect(verdictBasis(own)).toBe('Unsourced: the models’ judgement · decided by the judge')
    // A unanimous panel refuted it; no verified quote did, so t3 made it unverifiable: no vote said that.
    const notBorneOut = { ...own, decidedBy: 'panel' as const }
    expect(verdictBasis(notBorneOut)).toBe(
      'Unsourced: the models’ judgement · the sources did not bear out the verdict of the agreeing panel',
    )
    expect(verdictBasis(notBorneOut)).not.toMatch(/agreement|decided by the agreeing panel/)
  })

  it('says the steps that fell back, in words, after what the verdict rests on', () => {
    expect(verdictBasis({ ...decided, fallbacks: ['quotes_not_stance_checked', 'search_top_results'] })).toBe(
      '2 distinct sources · decided by the judge · agreement 67% · quotes not stance-checked; ' +
        'top search results read (the model named none)',
    )
  })
})

const at = '2026-01-01T00:00:00.000Z'
const vote = (tier: 't2' | 't3', model: string, verdict: Evaluation['verdict'], round = 1): Evaluation =>
  evaluation({
    tier,
    model,
    verdict,
    confidence: 0.8,
    rationale: `${model} says ${verdict}.`,
    createdAt: at,
    round,
  })
const decidedAs = (verdict: Evaluation['verdict'], more: Partial<Parameters<typeof decision>[0]> = {}) =>
  decision({
    verdict,
    confidence: 0.8,
    reasoning: `Judged ${verdict}. More.`,
    decidedAt: at,
    decidedBy: 'judge',
    ...more,
  })
const T23: Pick<Check, 'tiers' | 'status'> = { tiers: ['t1', 't2', 't3'], status: 'completed' }
const claimWith = (evaluations: Evaluation[], consensus: Claim['consensus']) => ({ evaluations, consensus })

describe('attentionOf: every problem a tier found', () => {
  it('a refuted or misleading headline verdict: who found it, the reasoning and the correction', () => {
    const claim = claimWith([vote('t3', 'a', 'refuted'), vote('t3', 'b', 'refuted')], {
      t3: decidedAs('refuted', { decidedBy: 'panel', correction: 'It was 1889.' }),
    })
    expect(attentionOf(claim, T23)).toEqual({
      disputed: false,
      why: 'The t3 panel refuted it.',
      reason: 'Judged refuted. More.',
      correction: 'It was 1889.',
    })
  })

  it('t2’s judge and most of its panel refuted it, t3 found no source: check by hand, with t2’s correction', () => {
    const claim = claimWith(
      [
        vote('t2', 'a', 'refuted'),
        vote('t2', 'b', 'refuted'),
        vote('t2', 'c', 'supported'),
        vote('t3', 'a', 'refuted'),
        vote('t3', 'b', 'supported'),
        vote('t3', 'c', 'unverifiable'),
      ],
      {
        t2: decidedAs('refuted', { correction: '(unverified) It was 1889.' }),
        t3: decidedAs('unverifiable', { detail: 'no_evidence' }),
      },
    )
    expect(attentionOf(claim, T23)).toEqual({
      disputed: true,
      why: 'The t2 judge refuted it, with 2 of 3 models; no source confirmed it: check by hand.',
      reason: 'Judged refuted. More.',
      correction: '(unverified) It was 1889.',
    })
  })

  it('most of a tier’s latest votes are enough, its debate votes counting over its first', () => {
    const changed = claimWith(
      [
        vote('t3', 'a', 'supported'),
        vote('t3', 'b', 'supported'),
        vote('t3', 'c', 'misleading'),
        vote('t3', 'a', 'refuted', 2),
        vote('t3', 'b', 'misleading', 2),
      ],
      { t3: decidedAs('unverifiable', { detail: 'no_evidence' }) },
    )
    const found = attentionOf(changed, T23)
    expect(found?.why).toBe('The t3 panel found it misleading; no source confirmed it: check by hand.')
    expect(found?.reason).toBe('b says misleading.')
    // Before the debate only one of three had found a problem: nothing to look at.
    expect(attentionOf(claimWith(changed.evaluations.slice(0, 3), changed.consensus), T23)).toBeNull()
  })

  it('whatever the headline verdict: a sourced "supported" does not clear what t2 refuted', () => {
    const claim = claimWith([vote('t2', 'a', 'refuted'), vote('t2', 'b', 'refuted')], {
      t2: decidedAs('refuted', { decidedBy: 'panel' }),
      t3: decidedAs('supported', { sourced: true, sources: 1 }),
    })
    expect(attentionOf(claim, T23)?.why).toBe(
      'The t2 panel refuted it; t3 found it supported: check by hand.',
    )
    // Before t3 decides, the same.
    expect(attentionOf(claimWith(claim.evaluations, { t2: claim.consensus.t2 }), T23)?.why).toBe(
      'The t2 panel refuted it; t3 has not decided it: check by hand.',
    )
  })

  it('nothing when no tier found a problem, and the failure when the check failed before a verdict', () => {
    const fine = claimWith([vote('t2', 'a', 'supported'), vote('t2', 'b', 'refuted')], {
      t2: decidedAs('supported'),
      t3: decidedAs('unverifiable'),
    })
    expect(attentionOf(fine, T23)).toBeNull()
    expect(attentionOf(claimWith([], {}), { ...T23, status: 'failed' })?.why).toBe(
      'The check failed before this claim was decided.',
    )
  })
})

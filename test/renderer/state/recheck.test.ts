import { describe, expect, it } from 'vitest'
import type { Claim } from '../../../src/shared/schemas'
import { keptSince, keptWords } from '../../../src/renderer/src/state/recheck'
import { checkResource, decision } from '../../helpers/resources'

const EARLIER = '2026-11-27T10:00:00.000Z'
const NOW = '2026-11-28T02:11:49.000Z'

/// A claim carried from chk_0 whose t1 verdict was reached then, and whose t3 verdict `t3At` (if any).
const claim = (t3At: string | null): Claim => ({
  claimId: 'clm_1',
  text: 'The tower is 330 metres tall.',
  charStart: 0,
  charEnd: 29,
  statement: null,
  parts: null,
  carriedFrom: 'chk_0',
  evaluations: [],
  issues: [],
  consensus: {
    t1: decision({ verdict: 'clean', confidence: 1, reasoning: '', decidedAt: EARLIER, decidedBy: null }),
    ...(t3At
      ? {
          t3: decision({
            verdict: 'supported',
            confidence: 0.9,
            reasoning: '',
            decidedAt: t3At,
            decidedBy: 'judge',
          }),
        }
      : {}),
  },
})

describe('what a re-checked claim says it kept', () => {
  it('only the tiers carried from the earlier check, never the one its own check just decided', () => {
    const check = checkResource({ id: 'chk_1', tiers: ['t1', 't3'], createdAt: '2026-11-28T02:10:00.000Z' })
    expect(keptSince(claim(NOW), check)).toMatchObject({ tiers: ['t1'] })
    expect(keptSince({ ...claim(NOW), carriedFrom: null }, check)).toBeNull()
    // Shown from the report of the check it is kept from (before the re-check runs): all it has.
    expect(keptSince(claim(null), checkResource({ id: 'chk_0', createdAt: EARLIER }))).toMatchObject({
      tiers: ['t1'],
    })
  })

  it('a re-check that keeps t1 but checks every claim with t2 says so, never "0 to check"', () => {
    const estimate = {
      documentId: 'doc_1',
      claimCount: 11,
      claims: Array.from({ length: 11 }, (_, i) => ({
        claimId: `clm_${i}`,
        text: 'x',
        charStart: 0,
        charEnd: 1,
        carriedFrom: 'chk_0',
      })),
      credits: {
        total: 44,
        unitPrices: { t1: 1, t2: 4 },
        breakdown: [
          { tier: 't1' as const, claims: 0, unitPrice: 1, subtotal: 0 },
          { tier: 't2' as const, claims: 11, unitPrice: 4, subtotal: 44 },
        ],
      },
      balance: 1000,
      sufficient: true,
      unavailable: [],
    }
    expect(keptWords(estimate)).toBe('11 claims unchanged, kept for t1 · 11 to check: 44 credits')
  })
})

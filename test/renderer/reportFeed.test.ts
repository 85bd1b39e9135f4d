import { describe, expect, it, vi } from 'vitest'
import type { ReportUpdate } from '../../src/shared/api'
import type { ClaimDelta } from '../../src/renderer/src/editor/claims'
import { ReportFeed } from '../../src/renderer/src/state/reportFeed'
import { checkResource } from '../helpers/resources'

const claimUpdate = (checkId: string, claimId: string): ReportUpdate => ({
  type: 'claim',
  checkId,
  claimId,
  tier: 't1',
  evaluation: null,
  consensus: null,
  issues: [],
})

describe('the report feed', () => {
  it('shows the changes of one frame in one call, a claim changed twice merged into one change', async () => {
    const shown: ClaimDelta[][] = []
    const feed = new ReportFeed((deltas) => shown.push(deltas))
    feed.schedule({ claimId: 'a', stage: 'voting', votes: 1 })
    feed.schedule({ claimId: 'b', stage: 'waiting' })
    feed.schedule({ claimId: 'a', votes: 2 })
    expect(shown).toEqual([])
    await vi.waitFor(() => expect(shown).toHaveLength(1))
    expect(shown[0]).toEqual([
      { claimId: 'a', stage: 'voting', votes: 2 },
      { claimId: 'b', stage: 'waiting' },
    ])
  })

  it('drops the changes not shown yet when it follows another check', async () => {
    const shown: ClaimDelta[][] = []
    const feed = new ReportFeed((deltas) => shown.push(deltas))
    feed.schedule({ claimId: 'old', stage: 'voting' })
    feed.restart([{ claimId: 'new', charStart: 0, votes: {}, consensus: {}, issues: [] }], { t2: 3 })
    feed.schedule({ claimId: 'new', stage: 'waiting' })
    await vi.waitFor(() => expect(shown).toHaveLength(1))
    expect(shown[0]).toEqual([{ claimId: 'new', stage: 'waiting' }])
    expect([...feed.progress.keys()]).toEqual(['new'])
    expect(feed.panel).toEqual({ t2: 3 })
  })

  it('hands over the early updates of one check, in order, and forgets the others', () => {
    const feed = new ReportFeed(() => undefined)
    const started = { type: 'check', check: checkResource({ id: 'chk_2' }) } as const
    feed.keepEarly(claimUpdate('chk_2', 'a'))
    feed.keepEarly(claimUpdate('chk_9', 'b'))
    feed.keepEarly(started)
    expect(feed.takeEarly('chk_2')).toEqual([claimUpdate('chk_2', 'a'), started])
    expect(feed.takeEarly('chk_9')).toEqual([])
  })
})

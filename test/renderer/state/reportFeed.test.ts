import { describe, expect, it, vi } from 'vitest'
import type { ReportUpdate } from '../../../src/shared/api'
import type { Claim } from '../../../src/shared/schemas'
import type { ClaimDelta } from '../../../src/renderer/src/editor/claims'
import { ReportFeed } from '../../../src/renderer/src/state/reportFeed'
import { checkResource, panelVote, reportResource } from '../../helpers/resources'

const claimUpdate = (checkId: string, claimId: string): Extract<ReportUpdate, { type: 'claim' }> => ({
  type: 'claim',
  checkId,
  claimId,
  tier: 't1',
  evaluation: null,
  consensus: null,
  issues: [],
})

const vote = (claimId: string, model: string): Extract<ReportUpdate, { type: 'claim' }> => ({
  type: 'claim',
  checkId: 'chk_1',
  claimId,
  tier: 't2',
  evaluation: panelVote(model),
  consensus: null,
  issues: [],
})
const RUNNING = { tiers: ['t2' as const], status: 'running' as const }

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

  it('drops the changes not shown yet when it follows another check, and shows only its claims', async () => {
    const shown: ClaimDelta[][] = []
    const feed = new ReportFeed((deltas) => shown.push(deltas))
    feed.schedule({ claimId: 'old', stage: 'voting' })
    feed.restart([{ claimId: 'new', charStart: 0, votes: {}, consensus: {}, issues: [] }], { t2: 3 })
    feed.claimChanged(claimUpdate('chk_1', 'old'), RUNNING)
    feed.claimChanged(vote('new', 'a'), RUNNING)
    await vi.waitFor(() => expect(shown).toHaveLength(1))
    // One vote of the panel of three.
    expect(shown[0]).toMatchObject([{ claimId: 'new', stage: 'voting', votes: 1, panel: 3 }])
  })

  it('replays the updates heard while a report was read over it, and keeps none once it is dealt with', async () => {
    const shown: ClaimDelta[][] = []
    const feed = new ReportFeed((deltas) => shown.push(deltas))
    const claim = { claimId: 'clm_1', charStart: 0, evaluations: [], consensus: {}, issues: [] }
    const report = {
      ...reportResource(checkResource({ status: 'running', tiers: ['t2'] })),
      claims: [claim as unknown as Claim],
      panel: { t2: 3 },
    }
    const heard = feed.startReading()
    // Heard while the report was read, which was made before it.
    feed.heardOf(vote('clm_1', 'a'), true)
    feed.caughtUp(report, heard, report.check)
    feed.doneReading(heard)
    expect(feed.startReading()).toEqual([])
    await vi.waitFor(() => expect(shown).toHaveLength(1))
    expect(shown[0]).toMatchObject([{ claimId: 'clm_1', stage: 'voting', votes: 1, panel: 3 }])
  })

  it('hands over the early updates of one check, in order, and forgets the others', () => {
    const feed = new ReportFeed(() => undefined)
    const started = { type: 'check', check: checkResource({ id: 'chk_2' }) } as const
    feed.heardOf(claimUpdate('chk_2', 'a'), false)
    feed.heardOf(claimUpdate('chk_9', 'b'), false)
    feed.heardOf(claimUpdate('chk_1', 'c'), true)
    feed.heardOf(started, false)
    expect(feed.takeEarly('chk_2')).toEqual([claimUpdate('chk_2', 'a'), started])
    expect(feed.takeEarly('chk_9')).toEqual([])
  })
})

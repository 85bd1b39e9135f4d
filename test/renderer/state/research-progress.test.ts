import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FactdeskApi, ReportUpdate } from '../../../src/shared/api'
import type { Research, ResearchRequest } from '../../../src/shared/schemas'
import { stageLabel } from '../../../src/renderer/src/editor/claims'
import { applyUpdate, deltaOf, stageOf, type ClaimProgress } from '../../../src/renderer/src/state/progress'
import { currentStep, foldRun, stepDone, type ResearchRun } from '../../../src/renderer/src/state/research'
import { Desk } from '../../../src/renderer/src/state/desk'
import { decision, panelVote, researchRun } from '../../helpers/resources'

const vote = (model: string): Extract<ReportUpdate, { type: 'claim' }> => ({
  type: 'claim',
  checkId: 'chk_1',
  claimId: 'clm_1',
  tier: 't2',
  evaluation: panelVote(model),
  consensus: null,
  issues: [],
})
const EMPTY: ClaimProgress = { claimId: 'clm_1', charStart: 0, votes: {}, consensus: {}, issues: [] }
const RUNNING = { tiers: ['t1' as const, 't2' as const], status: 'running' as const }

describe("a claim badge's stages with the panel's size", () => {
  it('counts votes out of the panel, then shows it deciding once every vote is in', () => {
    const panel = { t2: 3 }
    expect(stageOf(EMPTY, RUNNING, panel)).toBe('waiting')
    let progress = applyUpdate(EMPTY, vote('panel-a'))
    progress = applyUpdate(progress, vote('panel-b'))
    const voting = deltaOf(progress, RUNNING, panel)
    expect(voting).toMatchObject({ stage: 'voting', votes: 2, panel: 3 })
    expect(stageLabel({ stage: 'voting', votes: 2, panel: 3, stale: false })).toBe('voting 2/3')
    progress = applyUpdate(progress, vote('panel-c'))
    expect(deltaOf(progress, RUNNING, panel)).toMatchObject({ stage: 'judging', votes: 3, panel: 3 })
    expect(stageLabel({ stage: 'judging', votes: 3, panel: 3, stale: false })).toBe('deciding')
    // A debate round's second votes count no panelist twice.
    progress = applyUpdate(progress, {
      ...vote('panel-c'),
      evaluation: { ...panelVote('panel-c'), round: 2 },
    })
    expect(deltaOf(progress, RUNNING, panel)).toMatchObject({ stage: 'judging', votes: 3 })
  })

  it('keeps counting without a known panel size, and the panel of the headline tier is the one used', () => {
    const progress = applyUpdate(applyUpdate(EMPTY, vote('panel-a')), vote('panel-b'))
    expect(deltaOf(progress, RUNNING)).toMatchObject({ stage: 'voting', votes: 2, panel: null })
    expect(stageOf(progress, { tiers: ['t2', 't3'], status: 'running' }, { t2: 2, t3: 3 })).toBe('waiting')
  })

  it('a verdict, a failed or a cancelled check win over the deciding', () => {
    const all = applyUpdate(EMPTY, vote('panel-a'))
    expect(stageOf(all, { tiers: ['t2'], status: 'failed' }, { t2: 1 })).toBe('failed')
    expect(stageOf(all, { tiers: ['t2'], status: 'cancelled' }, { t2: 1 })).toBe('unchecked')
    const decided = applyUpdate(all, {
      ...vote('panel-a'),
      evaluation: null,
      consensus: decision({
        verdict: 'misleading',
        confidence: 0.7,
        reasoning: 'Partly.',
        decidedAt: '2026-01-01T00:00:01.000Z',
        detail: 'partly_true',
        decidedBy: 'judge',
      }),
    })
    expect(stageOf(decided, RUNNING, { t2: 1 })).toBe('misleading')
    // The badge's title says what stands behind it: t2 is the models' unsourced judgement.
    expect(deltaOf(decided, RUNNING, { t2: 1 }).basis).toBe(
      'partly true · Unsourced: the models’ judgement · decided by the judge · agreement 100%',
    )
  })
})

describe('the steps of a research run', () => {
  const run = (step: ResearchRun['step'], over: Partial<Research> = {}): ResearchRun => ({
    research: researchRun(over),
    step,
    sourcesRead: 0,
  })

  it('marks the steps that ended and the one under way', () => {
    expect(currentStep(run(null, { status: 'queued' }))).toBeNull()
    expect(currentStep(run(null))).toBe('plan')
    expect(currentStep(run('search-support'))).toBe('search-contradiction')
    expect(stepDone(run('search-support'), 'plan')).toBe(true)
    expect(stepDone(run('search-support'), 'search-support')).toBe(true)
    expect(stepDone(run('search-support'), 'map')).toBe(false)
    // Votes land one model at a time: the step stays under way until the judge's.
    expect(currentStep(run('votes'))).toBe('votes')
    expect(stepDone(run('votes'), 'votes')).toBe(false)
    expect(currentStep(run('verdict', { status: 'completed' }))).toBeNull()
    expect(stepDone(run(null, { status: 'completed' }), 'verdict')).toBe(true)
  })

  it('never goes back: a late or repeated update keeps the later step, pages read and an ended run', () => {
    const at = run('map', { updatedAt: '2026-01-01T00:00:05.000Z' })
    const stale = foldRun(at, { research: researchRun(), step: 'plan', sourcesRead: 2 })
    expect(stale).toMatchObject({ step: 'map', research: { updatedAt: '2026-01-01T00:00:05.000Z' } })
    const done = researchRun({ status: 'completed', updatedAt: '2026-01-01T00:00:06.000Z' })
    const ended = foldRun({ ...at, sourcesRead: 6 }, { research: done, step: null, sourcesRead: 6 })
    expect(ended).toMatchObject({ step: 'map', sourcesRead: 6, research: { status: 'completed' } })
    // A read of the run (no step) after the end changes nothing.
    expect(foldRun(ended, { research: researchRun({ updatedAt: '2026-01-01T00:00:09.000Z' }) })).toEqual(
      ended,
    )
  })
})

/// A bridge that answers credits and research, records what was asked and lets the test push updates.
function fakeApi(balance: number, read: Research = researchRun()) {
  const asked: ResearchRequest[] = []
  const listeners = new Set<(update: ReportUpdate) => void>()
  const api = {
    me: async () => ({
      organization: { id: 'org_1', name: 'Default', createdAt: '2026-01-01T00:00:00.000Z' },
      token: { id: 'tok_1', name: null, scope: 'write', createdAt: '2026-01-01T00:00:00.000Z' },
    }),
    credits: async () => ({ balance, prices: { t1: 1, t2: 4, t3: 10, research: 40 } }),
    research: async (request: ResearchRequest) => {
      asked.push(request)
      // The stream tells of the run before the answer arrives.
      for (const listener of listeners) {
        listener({
          type: 'research',
          research: researchRun({ status: 'running' }),
          step: 'plan',
          sourcesRead: 0,
        })
      }
      return researchRun({ status: 'queued', updatedAt: '2026-01-01T00:00:00.000Z' })
    },
    getResearch: async () => read,
    subscribe: (listener: (update: ReportUpdate) => void) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  } as unknown as FactdeskApi
  const push = (update: ReportUpdate): void => {
    for (const listener of listeners) listener(update)
  }
  return { api, asked, push }
}

describe('the research panel', () => {
  let stop: (() => void) | null = null
  let desk: Desk | null = null
  afterEach(() => {
    stop?.()
    desk?.research.getState().dismiss()
    vi.useRealTimers()
  })
  const target = { claimId: null, text: 'Ottawa is the capital of Canada.' }

  it('quotes the flat price and sends nothing when the balance is short', async () => {
    const { api, asked } = fakeApi(39)
    desk = new Desk(api)
    const { research, checks } = desk
    stop = research.getState().connect()
    await research.getState().ask(target)
    expect(checks.getState().panel).toBe('research')
    expect(research.getState().view).toMatchObject({ phase: 'confirm', price: 40, balance: 39 })
    await research.getState().confirm()
    expect(asked).toEqual([])
    expect(research.getState().view?.phase).toBe('confirm')
  })

  it('starts on confirmation and follows the run from the pushed updates, early ones included', async () => {
    const { api, asked, push } = fakeApi(1000)
    desk = new Desk(api)
    const { research } = desk
    stop = research.getState().connect()
    await research.getState().ask(target)
    await research.getState().confirm()
    expect(asked).toEqual([{ text: target.text }])
    expect(research.getState().view).toMatchObject({ phase: 'run', run: { step: 'plan' } })
    push({
      type: 'research',
      research: researchRun({ updatedAt: '2026-01-01T00:00:02.000Z' }),
      step: 'search-support',
      sourcesRead: 3,
    })
    push({ type: 'research', research: researchRun({ id: 'rsc_other' }), step: 'map', sourcesRead: 9 })
    expect(research.getState().view).toMatchObject({
      phase: 'run',
      run: { step: 'search-support', sourcesRead: 3, research: { id: 'rsc_1' } },
    })
  })

  it('reads the run itself when the stream falls quiet, until it has ended', async () => {
    vi.useFakeTimers()
    const done = researchRun({ status: 'completed', updatedAt: '2026-01-01T00:01:00.000Z' })
    const { api } = fakeApi(1000, done)
    desk = new Desk(api)
    const { research } = desk
    // No listener: the stream has dropped.
    await research.getState().ask(target)
    await research.getState().confirm()
    expect(research.getState().view).toMatchObject({ run: { research: { status: 'queued' } } })
    await vi.runOnlyPendingTimersAsync()
    expect(research.getState().view).toMatchObject({ run: { research: { status: 'completed' } } })
    expect(vi.getTimerCount()).toBe(0)
  })
})

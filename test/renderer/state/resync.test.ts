import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FactdeskApi, ReportUpdate } from '../../../src/shared/api'
import type { Check } from '../../../src/shared/schemas'
import { useAccount } from '../../../src/renderer/src/state/account'
import { Desk } from '../../../src/renderer/src/state/desk'
import { checkResource, reportResource, researchRun } from '../../helpers/resources'

const ME = {
  organization: { id: 'org_1', name: 'Default organization', createdAt: '2026-01-01T00:00:00.000Z' },
  token: { id: 'tok_1', name: 'browser session', scope: 'write', createdAt: '2026-01-01T00:00:00.000Z' },
}

/// The page's API as far as a `resync` leads: what the service holds now is `now`; every call is recorded.
function fakeApi(now: Check) {
  const asked: string[] = []
  const listeners = new Set<(update: ReportUpdate) => void>()
  const api = {
    report: async (id: string) => {
      asked.push(`report ${id}`)
      return reportResource(now)
    },
    me: async () => ME,
    credits: async () => {
      asked.push('credits')
      return { balance: 999, prices: { t1: 1, t2: 4, t3: 10, research: 40 } }
    },
    listChecks: async () => {
      asked.push('listChecks')
      return { data: [now], nextCursor: null }
    },
    listPendingChecks: async () => {
      asked.push('listPendingChecks')
      return { data: [] }
    },
    listResearch: async () => ({ data: [] }),
    getResearch: async (id: string) => {
      asked.push(`getResearch ${id}`)
      return researchRun({ status: 'completed', updatedAt: '2026-01-01T00:00:09.000Z' })
    },
    subscribe: (listener: (update: ReportUpdate) => void) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  } as unknown as FactdeskApi
  const resync = (): void => {
    for (const listener of listeners) listener({ type: 'resync' })
  }
  return { api, asked, resync }
}

describe('when the event stream came back without what it missed', () => {
  const stops: (() => void)[] = []
  afterEach(() => {
    for (const stop of stops.splice(0)) stop()
  })

  it('reads the running check again and takes its end as if it had been heard', async () => {
    const running = checkResource({ status: 'running', updatedAt: '2026-01-01T00:00:01.000Z' })
    const ended = { ...running, status: 'completed' as const, updatedAt: '2026-01-01T00:00:05.000Z' }
    const { api, asked, resync } = fakeApi(ended)
    // A window without an editor, for the stores that follow one.
    const { checks } = new Desk(api)
    checks.setState({ check: running, panel: 'history', history: [running] })
    stops.push(checks.getState().connect())
    resync()
    await vi.waitFor(() => expect(checks.getState().check?.status).toBe('completed'))
    await vi.waitFor(() => expect(useAccount.getState().account).toMatchObject({ balance: 999 }))
    expect(checks.getState().history.map((check) => check.status)).toEqual(['completed'])
    expect(asked).toEqual(expect.arrayContaining(['report chk_1', 'credits', 'listChecks']))
  })

  it('leaves an ended check as it is, and reads the waiting checks and the open research run again', async () => {
    const ended = checkResource({ status: 'completed' })
    const { api, asked, resync } = fakeApi(ended)
    const { checks, pending, research } = new Desk(api)
    checks.setState({ check: ended })
    research.setState({
      view: { phase: 'run', run: { research: researchRun(), step: 'plan', sourcesRead: 1 } },
    })
    stops.push(checks.getState().connect(), pending.getState().connect(), research.getState().connect())
    stops.push(() => research.getState().dismiss())
    await vi.waitFor(() => expect(asked).toEqual(['listPendingChecks']))
    resync()
    await vi.waitFor(() =>
      expect(research.getState().view).toMatchObject({ run: { research: { status: 'completed' } } }),
    )
    // The run's end refreshes the balance, as when it is heard.
    expect(asked).toEqual(['listPendingChecks', 'listPendingChecks', 'getResearch rsc_1', 'credits'])
  })
})

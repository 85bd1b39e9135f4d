import { rmSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Config } from '../../../../../src/shared/config'
import { Check, ErrorEnvelope, PendingCheck, PendingCheckList } from '../../../../../src/shared/schemas'
import { openEngine, type Engine } from '../../../../../src/main/engine/engine'
import { appPage } from '../../../../../src/main/desktop/appPage'
import { createDispatch, type Dispatch } from '../../../../../src/main/desktop/dispatch'
import { announceInBackground } from '../../../../../src/main/desktop/notify'
import { tempDir } from '../../../../helpers/server'
import { Relay } from './relay'
import { databaseOf } from '../../../../helpers/database'

const page = appPage(undefined)
const APP = `${page.href}#/`
const TEXT = 'The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World Fair in Paris.'

let dataDir: string
let engine: Engine
let dispatch: Dispatch
let models: Relay

beforeEach(async () => {
  dataDir = tempDir()
  models = await Relay.reserve()
  const model = (id: string) => ({ id, provider: 'openai-compatible', baseURL: models.url('/v1'), model: id })
  engine = await openEngine({
    dataDir,
    ...(await databaseOf(dataDir)),
    runJobs: false,
    config: Config.parse({ models: { panel: [model('a')], judge: model('judge') } }),
  })
  dispatch = createDispatch(engine, page)
})

afterEach(async () => {
  await engine.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function ok(operation: Parameters<Dispatch>[0], ...args: unknown[]): Promise<unknown> {
  const result = await dispatch(operation, args, APP)
  if (!result.ok) throw new Error(JSON.stringify(result))
  return result.data
}

describe('check when online in the desktop app', () => {
  it('refuses submit over IPC as providers_unreachable, then queues, lists and cancels the check', async () => {
    const refused = await dispatch('submit', [{ text: TEXT, tiers: ['t2'] }], APP)
    expect(ErrorEnvelope.parse(refused).error.code).toBe('providers_unreachable')

    const queued = PendingCheck.parse(await ok('queueCheck', { text: TEXT, tiers: ['t2'] }))
    expect(queued.status).toBe('waiting')
    expect(queued.label).toBe(TEXT.slice(0, 59).trimEnd() + '…')
    const waiting = PendingCheckList.parse(await ok('listPendingChecks', { status: 'waiting' }))
    expect(waiting.data.map((each) => each.id)).toEqual([queued.id])
    const cancelled = PendingCheck.parse(await ok('cancelPendingCheck', queued.id))
    expect(cancelled.status).toBe('cancelled')
    expect(PendingCheckList.parse(await ok('listPendingChecks', { status: 'waiting' })).data).toEqual([])
    expect(PendingCheckList.parse(await ok('listPendingChecks', {})).data).toHaveLength(1)
    expect((await dispatch('listPendingChecks', ['yes'], APP)).ok).toBe(false)
  })

  it('announces a started check through the system only while the window is in the background', async () => {
    const shown: string[] = []
    let focused = true
    const window = { isFocused: () => focused, isDestroyed: () => false }
    const organizationId = (await engine.localPrincipal()).organizationId
    const stop = announceInBackground(engine.events, organizationId, window, (_title, body) =>
      shown.push(body),
    )
    const pending = (status: PendingCheck['status']): PendingCheck => ({
      id: 'pnd_1',
      status,
      label: 'Tower piece',
      tiers: ['t2'],
      documentId: null,
      idempotencyKey: 'k',
      attempts: 2,
      nextAttemptAt: null,
      lastError: null,
      checkId: status === 'submitted' ? 'chk_1' : null,
      error: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    })
    engine.events.emit({ type: 'pending', organizationId, pending: pending('submitted'), check: null })
    focused = false
    engine.events.emit({ type: 'pending', organizationId, pending: pending('waiting'), check: null })
    engine.events.emit({
      type: 'pending',
      organizationId: 'org_other',
      pending: pending('submitted'),
      check: null,
    })
    engine.events.emit({ type: 'pending', organizationId, pending: pending('submitted'), check: null })
    stop()
    engine.events.emit({ type: 'pending', organizationId, pending: pending('submitted'), check: null })
    expect(shown).toEqual(['Your check of “Tower piece” started.'])
  })

  it('announces a long check that ended while the window is in the background, and no short one', async () => {
    const shown: string[] = []
    let focused = false
    const window = { isFocused: () => focused, isDestroyed: () => false }
    const organizationId = (await engine.localPrincipal()).organizationId
    const stop = announceInBackground(engine.events, organizationId, window, (_title, body) =>
      shown.push(body),
    )
    const check = Check.parse(await ok('submit', { text: 'Paris is the capital of France.', tiers: ['t1'] }))
    const ended = (seconds: number, status: Check['status'] = 'completed'): Check => ({
      ...check,
      name: 'Tower piece',
      status,
      completedAt: new Date(Date.parse(check.createdAt) + seconds * 1000).toISOString(),
    })
    engine.events.emit({ type: 'check', organizationId, check: ended(3) })
    engine.events.emit({ type: 'check', organizationId, check: ended(40, 'running') })
    engine.events.emit({ type: 'check', organizationId: 'org_other', check: ended(40) })
    engine.events.emit({ type: 'check', organizationId, check: ended(40) })
    focused = true
    engine.events.emit({ type: 'check', organizationId, check: ended(50, 'failed') })
    stop()
    expect(shown).toEqual(['Check “Tower piece” completed: 1 claim.'])
  })
})

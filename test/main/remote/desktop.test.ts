import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ReportUpdate } from '../../../src/shared/api'
import type { ConfigInput } from '../../../src/shared/config'
import {
  Check,
  Credits,
  Estimate,
  Me,
  PendingCheck,
  ServiceTest,
  Settings,
} from '../../../src/shared/schemas'
import { ManualClock } from '../../../src/main/engine/base/clock'
import { appPage } from '../../../src/main/desktop/appPage'
import { createDispatch, type Dispatch } from '../../../src/main/desktop/dispatch'
import { announceInBackground } from '../../../src/main/desktop/notify'
import { openEngine, type Engine } from '../../../src/main/engine/engine'
import type { Principal } from '../../../src/main/engine/checks/access'
import { ServiceSwitch } from '../../../src/main/remote/switch'
import { startFakeOpenAI, type FakeOpenAI } from '../../helpers/fakeOpenAI'
import { startServer, tempDir, type TestServer } from '../../helpers/server'
import { Relay } from '../engine/checks/pending/relay'

const page = appPage(undefined)
const APP = `${page.href}#/`
const TEXT = 'The Eiffel Tower is 330 metres tall.'

let engine: Engine | undefined
let services: ServiceSwitch | undefined
let server: TestServer | undefined
const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  services?.close()
  await engine?.close()
  await server?.close()
  for (const close of closers.splice(0)) await close()
  engine = services = server = undefined
})

/// The desktop app's engine and dispatch, with the remote service offered; and a service (started with
/// `options`) with an organization "Newsroom" (500 credits) and a write token of it.
async function setUp(options: Parameters<typeof startServer>[0] = {}): Promise<{
  dispatch: Dispatch
  engine: Engine
  server: TestServer
  token: string
  newsroom: Principal
}> {
  engine = await openEngine({ dataDir: tempDir(), runJobs: true })
  engine.settings.switches.offerRemoteService()
  services = new ServiceSwitch(engine.settings.switches, { poll: { intervalMs: 20 }, retryDelayMs: 5 })
  server = await startServer(options)
  const newsroom = await server.engine.admin.createOrganization('Newsroom', 500)
  const token = (await server.engine.admin.createToken('write', newsroom.id, 'desktop')).value
  const { id: tokenId } = (await server.engine.admin.listTokens(newsroom.id))[0]!
  return {
    dispatch: createDispatch(engine, page, services),
    engine,
    server,
    token,
    newsroom: { organizationId: newsroom.id, tokenId, scope: 'read', owner: false },
  }
}

/// The data of a successful call, or the thrown envelope's error.
async function data(
  dispatch: Dispatch,
  operation: Parameters<Dispatch>[0],
  ...args: unknown[]
): Promise<any> {
  const result = await dispatch(operation, args, APP)
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
  return result.data
}

describe('Settings > Service in the desktop app', () => {
  it('tests a connection by GET /me: the organization, or the token refused', async () => {
    const { dispatch, server, token } = await setUp()
    const ok = ServiceTest.parse(await data(dispatch, 'testService', { baseURL: server.api, token }))
    expect(ok).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^Connected to Newsroom in \d+ ms\.$/),
    })
    const refused = ServiceTest.parse(
      await data(dispatch, 'testService', { baseURL: server.api, token: 'fdk_no' }),
    )
    expect(refused).toMatchObject({ ok: false, latencyMs: null })
    expect(refused.message).toMatch(/^The token was refused: /)
    const plain = await dispatch(
      'testService',
      [{ baseURL: 'http://factdesk.example.org/api/v1', token }],
      APP,
    )
    expect(plain).toMatchObject({ ok: false, error: { code: 'bad_request' } })
  })

  it('switches the editor to the remote service and back without a restart; the token never comes out', async () => {
    const { dispatch, engine, server, token, newsroom } = await setUp()
    const local = Me.parse(await data(dispatch, 'me'))

    // Remote needs its URL and a token.
    const incomplete = await dispatch(
      'updateSettings',
      [{ service: { mode: 'remote', baseURL: server.api } }],
      APP,
    )
    expect(incomplete).toMatchObject({ ok: false, error: { code: 'unprocessable' } })

    const saved = Settings.parse(
      await data(dispatch, 'updateSettings', { service: { mode: 'remote', baseURL: server.api, token } }),
    )
    expect(saved.service).toEqual({
      available: true,
      mode: 'remote',
      baseURL: server.api,
      token: { hasKey: true, last4: token.slice(-4) },
      tokenRefused: null,
    })
    expect(JSON.stringify(saved)).not.toContain(token)
    // The token stays with the service it was saved for: another URL needs it given again, to test or to save.
    const elsewhereTest = ServiceTest.parse(
      await data(dispatch, 'testService', { baseURL: 'http://127.0.0.1:9/api/v1' }),
    )
    expect(elsewhereTest).toEqual({
      ok: false,
      latencyMs: null,
      message: 'Enter a token of this service first.',
    })
    expect(ServiceTest.parse(await data(dispatch, 'testService', { baseURL: server.api })).message).toMatch(
      /^Connected to Newsroom/,
    )
    const elsewhere = await dispatch(
      'updateSettings',
      [{ service: { baseURL: 'http://127.0.0.1:9/api/v1' } }],
      APP,
    )
    expect(elsewhere).toMatchObject({
      ok: false,
      error: { code: 'unprocessable', details: [{ field: 'service.token' }] },
    })
    expect(Settings.parse(await data(dispatch, 'settings')).service).toMatchObject({
      baseURL: server.api,
      token: { hasKey: true },
    })
    for (const file of ['factdesk.db', 'factdesk.db-wal'].map((name) => join(engine.dataDir, name))) {
      if (existsSync(file)) expect(readFileSync(file).includes(token)).toBe(false)
    }

    // The spec's operations go to the service; settings stay with this computer.
    expect(Me.parse(await data(dispatch, 'me')).organization.name).toBe('Newsroom')
    expect(Credits.parse(await data(dispatch, 'credits')).balance).toBe(500)
    expect(Settings.parse(await data(dispatch, 'settings')).service.mode).toBe('remote')

    // A check runs there, and its updates reach the window's forwarder by polling.
    const updates: ReportUpdate[] = []
    const stop = services!.events(local.organization.id).subscribe((event) => updates.push(event))
    const check = Check.parse(await data(dispatch, 'submit', { text: TEXT, tiers: ['t1'] }))
    expect((await server.engine.service.getCheck(newsroom, check.id)).id).toBe(check.id)
    while (!updates.some((u) => u.type === 'check' && u.check.status === 'completed')) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    stop()
    expect(updates.at(-1)).toMatchObject({ type: 'check', check: { id: check.id, status: 'completed' } })

    // Back to the embedded engine, at once.
    await data(dispatch, 'updateSettings', { service: { mode: 'embedded' } })
    expect(Me.parse(await data(dispatch, 'me')).organization.id).toBe(local.organization.id)
    const mine = await data(dispatch, 'listChecks', {})
    expect(mine.data).toEqual([])
  })

  it('queues a check the service cannot start on the service, which starts it once its models answer', async () => {
    // The service's model is behind a port that refuses connections until the relay opens.
    const fake: FakeOpenAI = await startFakeOpenAI({
      '*': { overrides: { verdict: 'supported', confidence: 0.9 } },
    })
    const models = await Relay.reserve()
    closers.push(
      () => models.close(),
      () => fake.close(),
    )
    const model = (id: string) => ({
      id,
      provider: 'openai-compatible' as const,
      baseURL: models.url('/v1'),
      model: `model-${id}`,
    })
    const config: ConfigInput = { models: { panel: [model('a')], judge: model('judge'), maxRetries: 0 } }
    const clock = new ManualClock(new Date())
    const { dispatch, engine, server, token, newsroom } = await setUp({ config, clock })
    await data(dispatch, 'updateSettings', { service: { mode: 'remote', baseURL: server.api, token } })
    const local = await engine.localPrincipal()
    const updates: ReportUpdate[] = []
    const stop = services!.events(local.organizationId).subscribe((event) => updates.push(event))
    // The shell announces the remote service's updates too while its window is in the background.
    const announced: string[] = []
    const background = { isFocused: () => false, isDestroyed: () => false }
    const stopAnnouncing = announceInBackground(
      services!.events(local.organizationId),
      local.organizationId,
      background,
      (_title, body) => announced.push(body),
    )

    const estimate = Estimate.parse(await data(dispatch, 'estimate', { text: TEXT, tiers: ['t2'] }))
    const request = { documentId: estimate.documentId, tiers: ['t2'] }
    const refused = await dispatch('submit', [request], APP)
    expect(refused).toMatchObject({ ok: false, error: { code: 'providers_unreachable' } })

    const queued = PendingCheck.parse(await data(dispatch, 'queueCheck', request))
    expect(queued).toMatchObject({ status: 'waiting', documentId: estimate.documentId, checkId: null })
    expect((await server.engine.pending.get(newsroom, queued.id)).status).toBe('waiting')
    expect((await engine.pending.list(local)).data).toEqual([])
    const listed = await data(dispatch, 'listPendingChecks', { status: 'waiting' })
    expect(listed.data.map((each: PendingCheck) => each.id)).toEqual([queued.id])

    await models.open(fake.baseURL)
    clock.advance(10 * 60_000)
    await server.engine.pending.runDue()
    const submitted = await server.engine.pending.get(newsroom, queued.id)
    expect(submitted.status).toBe('submitted')

    // The poller passes the start on with its check, then follows that check to its end.
    const ended = (update: ReportUpdate) =>
      update.type === 'check' && update.check.id === submitted.checkId && update.check.status === 'completed'
    while (!updates.some(ended)) await new Promise((resolve) => setTimeout(resolve, 20))
    stop()
    stopAnnouncing()
    expect(announced).toContain('Your check of “The Eiffel Tower is 330 metres tall.” started.')
    const started = updates.find((update) => update.type === 'pending')
    expect(started).toMatchObject({
      type: 'pending',
      pending: { id: queued.id, status: 'submitted', checkId: submitted.checkId },
      check: { id: submitted.checkId },
    })
    expect((await server.engine.service.listChecks(newsroom, 10, null)).data).toHaveLength(1)
    expect((await engine.service.listChecks(local, 10, null)).data).toEqual([])
    expect((await data(dispatch, 'listPendingChecks', { status: 'waiting' })).data).toEqual([])
  })

  it('is not offered where the page talks to its own server (factdesk web)', async () => {
    engine = await openEngine({ dataDir: tempDir(), runJobs: false })
    const owner = await engine.localPrincipal()
    expect(engine.settings.view(owner).service).toMatchObject({ available: false, mode: 'embedded' })
    await expect(
      engine.settings.update(owner, {
        service: { mode: 'remote', baseURL: 'https://x.example.org/api/v1', token: 'fdk_1' },
      }),
    ).rejects.toThrow(/desktop app/)
    expect(engine.settings.switches.remoteService()).toBeNull()
  })
})

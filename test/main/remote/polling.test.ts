import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { ReportUpdate } from '../../../src/shared/api'
import { hasEnded } from '../../../src/shared/vocabulary'
import { ResearchEvents } from '../../../src/main/remote/events'
import { RemoteService } from '../../../src/main/remote/remoteService'
import { ServiceSwitch } from '../../../src/main/remote/switch'
import { answer, OTTAWA, RESEARCH_STEPS, researchSteps } from '../contract/suite'
import {
  startFakeOpenAI,
  type Behaviour,
  type FakeOpenAI,
  type RecordedRequest,
} from '../../helpers/fakeOpenAI'
import { FakeWiki } from '../../helpers/fakeWiki'
import { call, startServer, waitForEnd, type TestServer } from '../../helpers/server'
import { GatedTier } from '../../helpers/tiers'
import { schemaName, startResearchServer } from '../engine/research/setup'
import { startT2Server, t2Config } from '../engine/tiers/t2/setup'
import { startProxy, type Proxy, type SeenRequest } from './proxy'

const TEXT = 'The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World Fair in Paris.'

let models: FakeOpenAI | undefined
let server: TestServer | undefined
let proxy: Proxy | undefined
let remote: RemoteService | undefined
afterEach(async () => {
  remote?.close()
  await proxy?.close()
  await server?.close()
  await models?.close()
  models = server = proxy = remote = undefined
})

/// A t2 service behind a proxy, and a RemoteService whose poller records the waits it asks for and spends
/// only a few milliseconds on each.
async function setUp(): Promise<{
  server: TestServer
  proxy: Proxy
  remote: RemoteService
  waits: number[]
}> {
  models = await startFakeOpenAI()
  server = await startT2Server(t2Config(models, ['a', 'b']))
  proxy = await startProxy(server.origin)
  const waits: number[] = []
  const wait = (ms: number): Promise<void> => {
    waits.push(ms)
    return new Promise((resolve) => setTimeout(resolve, 5))
  }
  remote = new RemoteService({ baseURL: proxy.api, token: server.write, retries: 0, poll: { wait } })
  return { server, proxy, remote, waits }
}

/// Collects the updates until one shows the check ended.
function updatesUntilEnd(remote: RemoteService): { updates: ReportUpdate[]; ended: Promise<void> } {
  const updates: ReportUpdate[] = []
  let stop = (): void => undefined
  const ended = new Promise<void>((resolve) => {
    stop = remote.subscribe((update) => {
      updates.push(update)
      if (update.type === 'check' && hasEnded(update.check)) {
        stop()
        resolve()
      }
    })
  })
  return { updates, ended }
}

const reportReads = (proxy: Proxy): number => proxy.seen.filter((r) => r.path.endsWith('/report')).length
const isStream = (request: SeenRequest): boolean => request.path.endsWith('/events')
const streams = (proxy: Proxy): number => proxy.seen.filter(isStream).length

/// `expect.poll` with time for a few rounds of backoff.
const until = <T>(value: () => T) => expect.poll(value, { timeout: 10_000 })

/// A promise the test settles when it chooses.
function gate(): { opened: Promise<void>; open(): void } {
  let open = (): void => undefined
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { opened, open }
}

describe('RemoteService updates by polling', () => {
  it("a t2 check's votes, consensus and end arrive as updates, polled every 2.5 s; polling stops at the end", async () => {
    const { proxy, remote, waits } = await setUp()
    const { updates, ended } = updatesUntilEnd(remote)
    const check = await remote.submit({ text: TEXT, tiers: ['t2'] })
    await ended
    const reads = reportReads(proxy)
    expect(waits).toHaveLength(reads)

    const report = await remote.report(check.id)
    const votes = updates.flatMap((u) => (u.type === 'claim' && u.evaluation ? [u.evaluation.model] : []))
    expect(votes.sort()).toEqual(report.claims.flatMap(() => ['panel-a', 'panel-b']).sort())
    const decided = updates.filter((u) => u.type === 'claim' && u.consensus?.verdict)
    expect(decided).toHaveLength(report.claims.length)
    expect(updates.at(-1)).toMatchObject({ type: 'check', check: { id: check.id, status: 'completed' } })
    expect(waits.length).toBeGreaterThan(0)
    expect(waits.every((ms) => ms === 2_500)).toBe(true)

    // The ended check is not read again (but for the read above).
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(reportReads(proxy)).toBe(reads + 1)
    expect(waits).toHaveLength(reads)
  })

  it('backs off while the reports cannot be read, then polls at the interval again', async () => {
    const { proxy, remote, waits } = await setUp()
    // Slow models keep the check running past the failures.
    models?.behave('*', { latencyMs: 200 })
    let failing = 3
    proxy.plan = (request) =>
      request.path.endsWith('/report') && failing-- > 0 ? { status: 503, body: 'busy' } : 'forward'
    const { updates, ended } = updatesUntilEnd(remote)
    const check = await remote.submit({ text: TEXT, tiers: ['t2'] })
    await ended
    expect(waits.slice(0, 5)).toEqual([2_500, 5_000, 10_000, 20_000, 2_500])
    expect(updates.at(-1)).toMatchObject({ type: 'check', check: { id: check.id, status: 'completed' } })
  })

  it('polls only while someone listens, and never a check it was shown ended', async () => {
    const { proxy, remote, waits } = await setUp()
    const check = await remote.submit({ text: TEXT, tiers: ['t2'] })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(waits).toEqual([])
    const { ended } = updatesUntilEnd(remote)
    await ended
    const reads = reportReads(proxy)
    expect(waits).toHaveLength(reads)
    // Read again once ended, the check is not followed any more.
    await remote.getCheck(check.id)
    const stop = remote.subscribe(() => undefined)
    await new Promise((resolve) => setTimeout(resolve, 50))
    stop()
    expect(reportReads(proxy)).toBe(reads)
  })
})

describe('RemoteService research steps from the service’s GET /events', () => {
  let wiki: FakeWiki | undefined
  let services: ServiceSwitch | undefined
  afterEach(async () => {
    services?.close()
    await wiki?.close()
    wiki = services = undefined
  })

  /// A service that can research (its models holding the requests `hold` picks), behind a proxy, and a
  /// RemoteService polling every 50 ms.
  async function setUpResearch(
    hold?: Behaviour['hold'],
  ): Promise<{ server: TestServer; proxy: Proxy; remote: RemoteService }> {
    models = await startFakeOpenAI({ '*': { answer, hold } })
    wiki = await new FakeWiki().start()
    wiki.article('Ottawa', OTTAWA)
    wiki.search = () => [{ title: 'Ottawa' }]
    // A held request is not a model that timed out.
    const config = t2Config(models, ['a', 'b'], { requestTimeoutMs: 15_000 })
    server = await startResearchServer(
      { ...config, search: { baseURL: wiki.apiUrl }, web: { allowLocalTargets: true } },
      {},
    )
    proxy = await startProxy(server.origin)
    remote = new RemoteService({
      baseURL: proxy.api,
      token: server.write,
      retries: 0,
      poll: { intervalMs: 50, maxBackoffMs: 400 },
    })
    return { server, proxy, remote }
  }

  /// Starts a run and collects its updates until one shows it ended.
  async function research(remote: RemoteService): Promise<ReportUpdate[]> {
    const updates: ReportUpdate[] = []
    let stop = (): void => undefined
    const ended = new Promise<void>((resolve) => {
      stop = remote.subscribe((update) => {
        updates.push(update)
        if (update.type === 'research' && update.research.status === 'completed') resolve()
      })
    })
    await remote.research({ text: 'Ottawa is the capital of Canada.' })
    await ended
    stop()
    return updates
  }

  it('tells every step, then the end once, when the stream lags behind the rounds (as a team server’s may)', async () => {
    const { proxy, remote } = await setUpResearch()
    // The rounds read the run ended while the stream is still telling its last steps.
    proxy.plan = (request) => (isStream(request) ? { lagMs: 300 } : 'forward')
    const updates = await research(remote)
    const mine = updates.filter((update) => update.type === 'research')
    expect(researchSteps(mine)).toEqual(RESEARCH_STEPS)
    expect(mine.filter((update) => update.research.status === 'completed')).toHaveLength(1)
    expect(mine.at(-1)).toMatchObject({ step: null, research: { status: 'completed' } })
  })

  it('reads them again after the stream fails', async () => {
    const { proxy, remote } = await setUpResearch()
    let failing = 1
    proxy.plan = (request) =>
      request.path.endsWith('/events') && failing-- > 0 ? { status: 503, body: 'busy' } : 'forward'
    const stop = remote.subscribe(() => undefined)
    while (streams(proxy) < 2) await new Promise((resolve) => setTimeout(resolve, 10))
    const updates = await research(remote)
    stop()
    expect(streams(proxy)).toBe(2)
    expect(researchSteps(updates)).toEqual(RESEARCH_STEPS)
  })

  it('reads them again for a listener that comes right after the last one left', async () => {
    const { proxy, remote } = await setUpResearch()
    const stopFirst = remote.subscribe(() => undefined)
    await expect.poll(() => streams(proxy)).toBe(1)
    // A window closes and another opens at once, before the first stream's read has unwound.
    stopFirst()
    const stop = remote.subscribe(() => undefined)
    await expect.poll(() => streams(proxy)).toBe(2)
    const updates = await research(remote)
    stop()
    expect(researchSteps(updates)).toEqual(RESEARCH_STEPS)
  })

  it('asks a service without them once, and follows its runs by polling alone', async () => {
    const { proxy, remote } = await setUpResearch()
    proxy.plan = (request) =>
      request.path.endsWith('/events') ? { status: 404, body: '{"error":{"code":"not_found"}}' } : 'forward'
    const updates = await research(remote)
    expect(researchSteps(updates)).toEqual([])
    expect(updates.filter((u) => u.type === 'research' && u.research.status === 'completed')).toHaveLength(1)
    // A second listener does not ask again.
    remote.subscribe(() => undefined)()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(streams(proxy)).toBe(1)
  })

  it('goes on from the last event it read (Last-Event-ID) and hears the steps it missed, though polled past them', async () => {
    // The first vote waits for the stream to be cut, the second for a round to read the run after the
    // first, the judge's finding for the missed steps to be heard.
    const [cut, firstRead, caughtUp] = [gate(), gate(), gate()]
    const hold = (request: RecordedRequest) =>
      request.model === 'model-a'
        ? cut.opened
        : request.model === 'model-b'
          ? firstRead.opened
          : schemaName(request) === 'research_finding'
            ? caughtUp.opened
            : undefined
    const { server, proxy, remote } = await setUpResearch(hold)
    const updates: ReportUpdate[] = []
    const stop = remote.subscribe((update) => updates.push(update))
    const { id } = await remote.research({ text: 'Ottawa is the capital of Canada.' })
    /// Waits until a round has read the run as the service has it now.
    const polled = async (): Promise<void> => {
      const { updatedAt } = (await call(server, 'GET', `/research/${id}`)).json
      const read = (u: ReportUpdate) =>
        u.type === 'research' && u.step === null && u.research.updatedAt === updatedAt
      await until(() => updates.some(read)).toBe(true)
    }

    // The steps before the votes are heard on the stream; then the network cuts it and refuses it a while.
    await until(() => researchSteps(updates)).toEqual(RESEARCH_STEPS.slice(0, 4))
    await until(() => models!.of('model-a').length).toBe(1)
    proxy.plan = (request) => (isStream(request) ? { status: 503, body: 'unreachable' } : 'forward')
    proxy.cut(isStream)
    // Both votes end meanwhile, each read by a round.
    cut.open()
    await until(() => models!.of('model-b').length).toBe(1)
    await polled()
    firstRead.open()
    await until(() => models!.requests.filter((r) => schemaName(r) === 'research_finding').length).toBe(1)
    await polled()

    // The stream comes back, from where it was left: the service first sends both votes.
    const before = proxy.seen.length
    proxy.plan = () => 'forward'
    await until(() => researchSteps(updates)).toEqual(RESEARCH_STEPS.slice(0, 6))
    const resumed = proxy.seen.slice(before).find(isStream)
    expect(resumed?.headers['last-event-id']).toMatch(/^[0-9a-f]{8}-\d+$/)
    caughtUp.open()
    await until(() => updates.some((u) => u.type === 'research' && u.research.status === 'completed')).toBe(
      true,
    )
    stop()
    expect(researchSteps(updates)).toEqual(RESEARCH_STEPS)
  })

  it('goes on from the last event read when the token of the same service changes, and hears the steps ended meanwhile', async () => {
    // The first vote waits for the switch, the judge's finding for the missed steps to be heard.
    const [switched, caughtUp] = [gate(), gate()]
    const hold = (request: RecordedRequest) =>
      request.model === 'model-a'
        ? switched.opened
        : schemaName(request) === 'research_finding'
          ? caughtUp.opened
          : undefined
    const { server, proxy } = await setUpResearch(hold)
    const second = (await server.engine.admin.createToken('write', server.organizationId, 'second')).value
    let wanted = { baseURL: proxy.api, token: server.write }
    services = new ServiceSwitch(
      { remoteService: () => wanted, serviceToken: () => wanted.token },
      { retries: 0, poll: { intervalMs: 50, maxBackoffMs: 400 } },
    )
    const updates: ReportUpdate[] = []
    services.events(server.organizationId).subscribe((update) => updates.push(update))
    await services.current()?.research({ text: 'Ottawa is the capital of Canada.' })
    await until(() => researchSteps(updates)).toEqual(RESEARCH_STEPS.slice(0, 4))
    await until(() => models!.of('model-a').length).toBe(1)

    // Settings > Service saves another token; its stream is refused a while, and both votes end meanwhile.
    const withSecond = (request: SeenRequest) =>
      isStream(request) && request.headers.authorization === `Bearer ${second}`
    proxy.plan = (request) => (withSecond(request) ? { status: 503, body: 'unreachable' } : 'forward')
    wanted = { baseURL: proxy.api, token: second }
    services.refresh()
    switched.open()
    await until(() => models!.requests.filter((r) => schemaName(r) === 'research_finding').length).toBe(1)

    // The new token's stream goes on from the old one's last event: the service first sends both votes.
    proxy.plan = () => 'forward'
    await until(() => researchSteps(updates)).toEqual(RESEARCH_STEPS.slice(0, 6))
    const resumed = proxy.seen.filter(withSecond).at(-1)
    expect(resumed?.headers['last-event-id']).toMatch(/^[0-9a-f]{8}-\d+$/)
    caughtUp.open()
    await until(() => updates.some((u) => u.type === 'research' && u.research.status === 'completed')).toBe(
      true,
    )
    expect(researchSteps(updates)).toEqual(RESEARCH_STEPS)
  })
})

describe('RemoteService after a resync', () => {
  it('reads what it follows at once when the stream comes back without what it missed (resync)', async () => {
    const tier = new GatedTier(false)
    server = await startServer({ tiers: new Map([['t1', tier]]) })
    proxy = await startProxy(server.origin)
    // The rounds wait for good: only a resync cuts the wait short.
    const forever = (): Promise<void> => new Promise(() => undefined)
    remote = new RemoteService({
      baseURL: proxy.api,
      token: server.write,
      retries: 0,
      poll: { intervalMs: 20, wait: forever },
    })
    const statuses: string[] = []
    const stop = remote.subscribe((update) => {
      if (update.type === 'check') statuses.push(update.check.status)
    })
    const check = await remote.submit({ text: TEXT, tiers: ['t1'] })
    await until(() => tier.started.length).toBeGreaterThan(0)
    tier.releaseAll()
    await waitForEnd(server, check.id)
    expect(reportReads(proxy)).toBe(0)

    // The stream is cut, and the service can no longer tell what it missed (it restarted, say).
    proxy.plan = (request) =>
      isStream(request)
        ? {
            status: 200,
            headers: { 'Content-Type': 'text/event-stream' },
            body: 'data: {"type":"resync"}\n\n',
          }
        : 'forward'
    proxy.cut(isStream)
    await until(() => statuses).toContain('completed')
    stop()
    expect(reportReads(proxy)).toBe(1)
  })
})

describe('ServiceSwitch', () => {
  let services: ServiceSwitch | undefined
  afterEach(() => services?.close())

  it('goes on following a running check when the token of the same service changes', async () => {
    const tier = new GatedTier(false)
    server = await startServer({ tiers: new Map([['t1', tier]]) })
    const second = (await server.engine.admin.createToken('write', server.organizationId, 'second')).value
    let wanted = { baseURL: server.api, token: server.write }
    services = new ServiceSwitch(
      { remoteService: () => wanted, serviceToken: () => wanted.token },
      { poll: { intervalMs: 20 }, retryDelayMs: 5 },
    )
    const statuses: string[] = []
    services.events(server.organizationId).subscribe((update) => {
      if (update.type === 'check') statuses.push(update.check.status)
    })
    await services.current()?.submit({ text: TEXT, tiers: ['t1'] })
    await expect.poll(() => tier.started.length).toBeGreaterThan(0)
    await expect.poll(() => statuses).toContain('running')

    // Settings > Service saves another token of the same organization while the check runs.
    wanted = { baseURL: server.api, token: second }
    services.refresh()
    tier.releaseAll()
    await expect.poll(() => statuses).toContain('completed')
  })
})

describe('RemoteService.takeOver', () => {
  it("goes on from the last event id the same service's stream read, and not from another service's", async () => {
    // Every stream sends one event and ends; the client reads it again, sending the id back.
    const asked: { token: string | undefined; lastEventId: string | undefined }[] = []
    const service = createServer((request, response) => {
      asked.push({
        token: request.headers.authorization?.replace('Bearer ', ''),
        lastEventId: request.headers['last-event-id'] as string | undefined,
      })
      response.writeHead(200, { 'Content-Type': 'text/event-stream' }).end('id: 3f9a02c1-7\n\n')
    })
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(service.address() as AddressInfo).port}`
    const connect = (baseURL: string, token: string) =>
      new RemoteService({ baseURL, token, retries: 0, poll: { intervalMs: 20 } })
    const first = connect(`${origin}/api/v1`, 'first')
    const sameService = connect(`${origin}/api/v1`, 'second')
    const otherService = connect(`${origin}/other/api/v1`, 'third')
    const stops: (() => void)[] = []
    try {
      stops.push(first.subscribe(() => undefined))
      await until(() => asked.some((each) => each.token === 'first' && each.lastEventId)).toBe(true)
      first.close()
      for (const next of [sameService, otherService]) {
        next.takeOver(first)
        stops.push(next.subscribe(() => undefined))
      }
      await until(() => asked.filter((each) => each.token !== 'first').length).toBeGreaterThanOrEqual(2)
      expect(asked.find((each) => each.token === 'second')?.lastEventId).toBe('3f9a02c1-7')
      expect(asked.find((each) => each.token === 'third')?.lastEventId).toBeUndefined()
    } finally {
      for (const stop of stops) stop()
      for (const each of [first, sameService, otherService]) each.close()
      service.closeAllConnections()
      await new Promise((resolve) => service.close(resolve))
    }
  })
})

describe('ResearchEvents', () => {
  it('gives up on an event longer than any research update, and skips events it cannot read', async () => {
    const heard: ReportUpdate[] = []
    const endless = createServer((request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/event-stream' })
      if (request.url === '/short') {
        response.end('data: {"type":"research"}\n\ndata: not json\n\n: a comment\n\n')
        return
      }
      response.write(`data: ${'x'.repeat(4_100_000)}`)
    })
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(endless.address() as AddressInfo).port}`
    const listener = { hear: (update: ReportUpdate) => void heard.push(update), resync: () => undefined }
    try {
      const signal = new AbortController().signal
      await expect(new ResearchEvents(`${origin}/short`, 'token').read(listener, signal)).resolves.toBe(true)
      expect(heard).toEqual([])
      await expect(new ResearchEvents(`${origin}/long`, 'token').read(listener, signal)).rejects.toThrow(
        'GET /events sent an event of over 4000000 characters',
      )
    } finally {
      endless.closeAllConnections()
      await new Promise((resolve) => endless.close(resolve))
    }
  })
  it('reads events whose lines end in CR or CRLF, a CRLF cut between two chunks', async () => {
    const chunks = [
      'id: 3f9a02c1-7\r',
      '\ndata: {"type":"resync"}\r\n\r',
      '\nid: 3f9a02c1-8\rdata: {"type":"resync"}\r\r',
    ]
    const { url, asked, close } = await eventService((response) => {
      response.writeHead(200, { 'Content-Type': 'text/event-stream' }).flushHeaders()
      const next = (): void => {
        const chunk = chunks.shift()
        if (chunk === undefined) response.end()
        else response.write(chunk, () => setTimeout(next, 20))
      }
      next()
    })
    let resyncs = 0
    const listener = { hear: () => undefined, resync: () => void resyncs++ }
    try {
      const events = new ResearchEvents(url, 'token')
      const signal = new AbortController().signal
      for (let stream = 0; stream < 2; stream++) await events.read(listener, signal)
      expect(resyncs).toBe(2)
      expect(asked).toEqual([undefined, '3f9a02c1-8'])
    } finally {
      await close()
    }
  })

  it('sends the id it read last back as Last-Event-ID, and asks for a resync when it has none to send', async () => {
    const answers = [
      // As the SSE specification says: an event without data sets the id too, an id with NUL in it is ignored.
      'id: 3f9a02c1-7\ndata: {"type":"check"}\n\nid: 3f9a02c1-8\n\nid: 3f9a02c1\0-9\n\n',
      // The service cannot tell what was missed; an empty id forgets the last one.
      'data: {"type":"resync"}\n\nid\n\n',
      '',
    ]
    const { url, asked, close } = await eventService((response) =>
      response.writeHead(200, { 'Content-Type': 'text/event-stream' }).end(answers.shift()),
    )
    let resyncs = 0
    const listener = { hear: () => undefined, resync: () => void resyncs++ }
    try {
      const events = new ResearchEvents(url, 'token')
      const signal = new AbortController().signal
      for (let stream = 0; stream < 3; stream++) await events.read(listener, signal)
      expect(asked).toEqual([undefined, '3f9a02c1-8', undefined])
      // The service's resync, and the stream opened again without an id.
      expect(resyncs).toBe(2)
    } finally {
      await close()
    }
  })
})

/// An event stream on 127.0.0.1 that answers each request with `respond`, and the `Last-Event-ID` each one sent.
async function eventService(respond: (response: ServerResponse) => void) {
  const asked: unknown[] = []
  const service = createServer((request, response) => {
    asked.push(request.headers['last-event-id'])
    respond(response)
  })
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(service.address() as AddressInfo).port}/events`,
    asked,
    close: () => new Promise((resolve) => service.close(resolve)),
  }
}

import { describe, expect, it, vi } from 'vitest'
import type { FactdeskIpc, IpcResult } from '../../../src/shared/api'
import { ApiError } from '../../../src/shared/errors'
import type { Credits, Me } from '../../../src/shared/schemas'
import { httpApi } from '../../../src/renderer/src/bridge/http'
import { ipcApi } from '../../../src/renderer/src/bridge/ipc'
import type { Page } from '../../../src/renderer/src/bridge/session'
import { FakeEventStream } from '../../helpers/eventStream'
import { memoryStorage } from '../../helpers/storage'
import { checkResource } from '../../helpers/resources'

const ME: Me = {
  organization: { id: 'org_1', name: 'Default organization', createdAt: '2026-01-01T00:00:00.000Z' },
  token: { id: 'tok_1', name: 'browser session', scope: 'write', createdAt: '2026-01-01T00:00:00.000Z' },
}
const CREDITS: Credits = { balance: 1000, prices: { t1: 1, t2: 4, t3: 10, research: 40 } }
const UNAUTHORIZED = { error: { code: 'unauthorized', message: 'Sign in first.', details: null } } as const

/// A browser window at `url` whose requests `answer` serves; it records the requests and the address bar. Tabs
/// of one origin share `storage`.
function fakePage(
  url: string,
  answer: (path: string, init?: RequestInit) => Response,
  storage: Storage = memoryStorage(),
) {
  const requests: { path: string; init?: RequestInit }[] = []
  let address = new URL(url)
  const page: Page = {
    localStorage: storage,
    fetch: async (input, init) => {
      requests.push({ path: String(input), init })
      return answer(String(input), init)
    },
    get location() {
      return address as unknown as Location
    },
    history: {
      state: null,
      replaceState: (_state: unknown, _unused: string, to?: string | URL | null) => {
        address = new URL(String(to), address)
      },
    } as History,
  }
  return { page, requests, address: () => address.href }
}

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

const serve = (path: string): Response =>
  path === '/auth/session'
    ? json({ pageKey: 'page-key-1' })
    : path === '/api/v1/me'
      ? json(ME)
      : path === '/api/v1/credits'
        ? json(CREDITS)
        : json({ error: { code: 'not_found', message: 'No such route.', details: null } }, 404)

describe('the HTTP bridge', () => {
  it('trades the one-time token for a session first and takes it out of the address bar', async () => {
    const { page, requests, address } = fakePage('http://127.0.0.1:4000/#token=secret-1', serve)
    const api = httpApi(page)
    expect(address()).toBe('http://127.0.0.1:4000/')
    expect(await api.credits()).toEqual(CREDITS)
    expect(requests.map((r) => r.path)).toEqual(['/auth/session', '/api/v1/credits'])
    expect(requests[0]?.init).toMatchObject({ method: 'POST', credentials: 'same-origin' })
    expect(JSON.parse(String(requests[0]?.init?.body))).toEqual({ token: 'secret-1' })
    expect(requests[1]?.init).toMatchObject({
      credentials: 'same-origin',
      headers: { 'X-Factdesk-Page-Key': 'page-key-1' },
    })
  })

  it('keeps the rest of the fragment, and without a token sends the key another tab of its origin kept', async () => {
    const storage = memoryStorage()
    const withOther = fakePage('http://127.0.0.1:4000/?a=1#token=secret-2&view=notes', serve, storage)
    await httpApi(withOther.page).me()
    expect(withOther.address()).toBe('http://127.0.0.1:4000/?a=1#view=notes')

    const { page, requests } = fakePage('http://127.0.0.1:4000/', serve, storage)
    expect(await httpApi(page).me()).toEqual(ME)
    expect(requests.map((r) => r.path)).toEqual(['/api/v1/me'])
    expect(requests[0]?.init?.headers).toMatchObject({ 'X-Factdesk-Page-Key': 'page-key-1' })

    // A link used before: the key kept stays.
    const used = fakePage('http://127.0.0.1:4000/#token=old', () => json(UNAUTHORIZED, 401), storage)
    await httpApi(used.page)
      .me()
      .catch(() => undefined)
    expect(storage.getItem('factdesk.pageKey')).toBe('page-key-1')
  })

  it('rejects with the ApiError of the error envelope', async () => {
    const { page } = fakePage('http://127.0.0.1:4000/', () => json(UNAUTHORIZED, 401))
    const error = await httpApi(page)
      .me()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ code: 'unauthorized', message: 'Sign in first.' })
  })

  it('names a failure without an envelope by its status, and an unreachable server as such', async () => {
    const proxy = fakePage(
      'http://127.0.0.1:4000/',
      () => new Response('<h1>Bad gateway</h1>', { status: 502 }),
    )
    await expect(httpApi(proxy.page).me()).rejects.toMatchObject({ code: 'internal_error' })
    const gone = fakePage('http://127.0.0.1:4000/', () => {
      throw new TypeError('Failed to fetch')
    })
    await expect(httpApi(gone.page).credits()).rejects.toThrow(/Cannot reach Factdesk/)
  })

  it('refuses an answer that does not match the contract', async () => {
    const { page } = fakePage('http://127.0.0.1:4000/', () => json({ balance: 'lots' }))
    await expect(httpApi(page).credits()).rejects.toMatchObject({ code: 'internal_error' })
  })
})

describe('the IPC bridge', () => {
  const answering = (result: IpcResult<unknown>): FactdeskIpc =>
    ({ me: async () => result, credits: async () => result }) as FactdeskIpc

  it('resolves with the data of a successful result', async () => {
    expect(await ipcApi(answering({ ok: true, data: CREDITS })).credits()).toEqual(CREDITS)
  })

  it('rejects a failed result as the ApiError it was, code and details included', async () => {
    const details = [{ field: 'args.0', message: 'Expected nothing.' }]
    const failed: IpcResult<unknown> = { ok: false, error: { code: 'bad_request', message: 'Bad.', details } }
    const error = await ipcApi(answering(failed))
      .me()
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ code: 'bad_request', message: 'Bad.', details })
  })
})

describe('the bridges for checks and pushed updates', () => {
  const CHECK = checkResource()

  it('sends each check operation to its route with its method and JSON body', async () => {
    const { page, requests } = fakePage('http://127.0.0.1:4000/', () => json(CHECK))
    const api = httpApi(page)
    await api.submit({ documentId: 'doc_1', tiers: ['t1'] })
    await api.patch('chk/1', { name: 'Piece' })
    await api.cancel('chk_1')
    await api.getCheck('chk_1')
    expect(requests.map((r) => `${r.init?.method} ${r.path}`)).toEqual([
      'POST /api/v1/checks',
      'PATCH /api/v1/checks/chk%2F1',
      'POST /api/v1/checks/chk_1/cancel',
      'GET /api/v1/checks/chk_1',
    ])
    expect(JSON.parse(String(requests[0]?.init?.body))).toEqual({ documentId: 'doc_1', tiers: ['t1'] })
    expect(requests[0]?.init?.headers).toMatchObject({ 'Content-Type': 'application/json' })
    expect(requests[2]?.init?.body).toBeUndefined()
  })

  it('pages the check list by query', async () => {
    const { page, requests } = fakePage('http://127.0.0.1:4000/', () =>
      json({ data: [CHECK], nextCursor: null }),
    )
    await httpApi(page).listChecks({ limit: 5, cursor: 'c1' })
    expect(requests[0]?.path).toBe('/api/v1/checks?limit=5&cursor=c1')
  })

  it('opens one event stream for every listener, after the session, and closes it with the last', async () => {
    const { page } = fakePage('http://127.0.0.1:4000/#token=t', serve)
    const opened: string[] = []
    const stream = new FakeEventStream()
    const api = httpApi(page, (url, headers) => {
      opened.push(url)
      expect(headers()).toEqual({ 'X-Factdesk-Page-Key': 'page-key-1' })
      return stream
    })
    const first: unknown[] = []
    const second: unknown[] = []
    const stopFirst = api.subscribe((update) => first.push(update))
    const stopSecond = api.subscribe((update) => second.push(update))
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(opened).toEqual(['/api/v1/events'])
    stream.send({ type: 'check', check: CHECK })
    stream.send('not json')
    expect(first).toEqual([{ type: 'check', check: CHECK }])
    expect(second).toEqual(first)
    stopFirst()
    expect(stream.closed).toBe(false)
    stopSecond()
    expect(stream.closed).toBe(true)
  })

  it('opens the stream again when it gives up, later each time, and tells the listeners to read again', async () => {
    vi.useFakeTimers()
    try {
      const { page } = fakePage('http://127.0.0.1:4000/#token=t', serve)
      const streams: FakeEventStream[] = []
      const api = httpApi(page, () => {
        streams.push(new FakeEventStream())
        return streams.at(-1)!
      })
      const heard: unknown[] = []
      const stop = api.subscribe((update) => heard.push(update))
      await vi.advanceTimersByTimeAsync(0)
      streams[0]!.open()
      // A dropped connection is the browser's to mend: it reconnects, and the server sends what was missed.
      streams[0]!.drop()
      await vi.advanceTimersByTimeAsync(60_000)
      expect(streams).toHaveLength(1)
      streams[0]!.open()
      expect(heard).toEqual([])

      // A 502 of a proxy: the browser gives up; a new stream comes 2 s later, then 4 s after the next failure.
      streams[0]!.giveUp()
      expect(streams[0]!.closed).toBe(true)
      await vi.advanceTimersByTimeAsync(1_999)
      expect(streams).toHaveLength(1)
      await vi.advanceTimersByTimeAsync(1)
      expect(streams).toHaveLength(2)
      streams[1]!.giveUp()
      await vi.advanceTimersByTimeAsync(3_999)
      expect(streams).toHaveLength(2)
      await vi.advanceTimersByTimeAsync(1)
      expect(streams).toHaveLength(3)
      streams[2]!.open()
      expect(heard).toEqual([{ type: 'resync' }])
      streams[2]!.send({ type: 'check', check: CHECK })
      expect(heard).toHaveLength(2)

      // Once it opened, the next failure waits 2 s again; the last listener leaving stops the waiting.
      streams[2]!.giveUp()
      await vi.advanceTimersByTimeAsync(2_000)
      expect(streams).toHaveLength(4)
      streams[3]!.giveUp()
      stop()
      await vi.advanceTimersByTimeAsync(120_000)
      expect(streams).toHaveLength(4)
    } finally {
      vi.useRealTimers()
    }
  })

  it('passes the preload subscription through in the desktop app', () => {
    const heard: unknown[] = []
    let stopped = false
    const ipc = {
      onReport: (listener: (update: unknown) => void) => {
        listener({ type: 'check', check: CHECK })
        return () => (stopped = true)
      },
    } as unknown as FactdeskIpc
    const stop = ipcApi(ipc).subscribe((update) => heard.push(update))
    stop()
    expect(heard).toEqual([{ type: 'check', check: CHECK }])
    expect(stopped).toBe(true)
  })

  it("hands the page the drafts of files the system asked to open, and a file's failure as its ApiError", () => {
    let forward: (opened: unknown) => void = () => undefined
    const ipc = {
      onOpenedFile: (listener: (opened: unknown) => void) => {
        forward = listener
        return () => undefined
      },
    } as unknown as FactdeskIpc
    const opened: string[] = []
    const failed: unknown[] = []
    ipcApi(ipc).onOpenedFile?.(
      (id) => opened.push(id),
      (error) => failed.push(error),
    )
    forward({ ok: true, data: 'drf_1' })
    forward({ ok: false, error: { code: 'unprocessable', message: 'Not a text file.', details: null } })
    expect(opened).toEqual(['drf_1'])
    expect(failed).toEqual([new ApiError('unprocessable', 'Not a text file.')])
    expect(failed[0]).toBeInstanceOf(ApiError)
    expect(httpApi(fakePage('http://127.0.0.1:4000/', serve).page).onOpenedFile).toBeNull()
  })
})

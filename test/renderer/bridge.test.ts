import { describe, expect, it } from 'vitest'
import type { FactdeskIpc, IpcResult } from '../../src/shared/api'
import { ApiError } from '../../src/shared/errors'
import type { Credits, Me } from '../../src/shared/schemas'
import { httpApi } from '../../src/renderer/src/bridge/http'
import { ipcApi } from '../../src/renderer/src/bridge/ipc'
import type { Page } from '../../src/renderer/src/bridge/session'

const ME: Me = {
  organization: { id: 'org_1', name: 'Default organization', createdAt: '2026-01-01T00:00:00.000Z' },
  token: { id: 'tok_1', name: 'browser session', scope: 'write', createdAt: '2026-01-01T00:00:00.000Z' },
}
const CREDITS: Credits = { balance: 1000, prices: { t1: 1, t2: 4, t3: 10, research: 40 } }
const UNAUTHORIZED = { error: { code: 'unauthorized', message: 'Sign in first.', details: null } } as const

/// A browser window at `url` whose requests `answer` serves; it records the requests and the address bar.
function fakePage(url: string, answer: (path: string, init?: RequestInit) => Response) {
  const requests: { path: string; init?: RequestInit }[] = []
  let address = new URL(url)
  const page: Page = {
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
    ? new Response(null, { status: 204 })
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
    expect(requests[1]?.init).toMatchObject({ credentials: 'same-origin' })
  })

  it('keeps the rest of the fragment and works on the cookie alone without a token', async () => {
    const withOther = fakePage('http://127.0.0.1:4000/?a=1#token=secret-2&view=notes', serve)
    httpApi(withOther.page)
    expect(withOther.address()).toBe('http://127.0.0.1:4000/?a=1#view=notes')

    const { page, requests } = fakePage('http://127.0.0.1:4000/', serve)
    expect(await httpApi(page).me()).toEqual(ME)
    expect(requests.map((r) => r.path)).toEqual(['/api/v1/me'])
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

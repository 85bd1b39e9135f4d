import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/shared/errors'
import { RemoteService } from '../../../src/main/remote/remoteService'
import type { ConfigInput } from '../../../src/shared/config'
import { startFakeOpenAI, type FakeOpenAI } from '../../helpers/fakeOpenAI'
import { t2Config } from '../engine/tiers/t2/setup'
import { startServer, type TestServer } from '../../helpers/server'
import { startProxy, type Proxy, type SeenRequest } from './proxy'
import { closeAfterEach } from '../../helpers/teardown'

const TEXT = 'The Eiffel Tower is 330 metres tall.'

let server: TestServer | undefined
let proxy: Proxy | undefined
let models: FakeOpenAI | undefined
closeAfterEach(
  () => [proxy, server, models],
  () => (server = proxy = models = undefined),
)

async function setUp(
  config?: ConfigInput,
): Promise<{ server: TestServer; proxy: Proxy; remote: RemoteService }> {
  server = await startServer({ config })
  proxy = await startProxy(server.origin)
  const remote = new RemoteService({ baseURL: proxy.api, token: server.write, retryDelayMs: 5 })
  return { server, proxy, remote }
}

const isSubmission = (request: SeenRequest): boolean =>
  request.method === 'POST' && request.path === '/api/v1/checks'

/// The error a call rejects with.
const refusal = (pending: Promise<unknown>): Promise<unknown> =>
  pending.then(
    () => null,
    (error: unknown) => error,
  )

describe('RemoteService retries', () => {
  it('a submission whose answer was lost is sent again with the same Idempotency-Key: one check, one charge', async () => {
    const { server, proxy, remote } = await setUp()
    let lost = false
    proxy.plan = (request) => (isSubmission(request) && !lost ? ((lost = true), 'drop-answer') : 'forward')
    const before = (await remote.credits()).balance

    const check = await remote.submit({ text: TEXT, tiers: ['t1'] })

    const sent = proxy.seen.filter(isSubmission)
    expect(sent).toHaveLength(2)
    expect(sent[0]?.headers['idempotency-key']).toMatch(/^[\w-]{16,}$/)
    expect(sent[1]?.headers['idempotency-key']).toBe(sent[0]?.headers['idempotency-key'])
    expect((await remote.listChecks({})).data.map((each) => each.id)).toEqual([check.id])
    expect((await remote.credits()).balance).toBe(before - check.credits.charged)
    expect((await server.engine.admin.ledger(server.organizationId)).charge).toBe(check.credits.charged)

    // The next submission is a new one, with a key of its own.
    await remote.submit({ text: TEXT, tiers: ['t1'] })
    const next = proxy.seen.filter(isSubmission)[2]
    expect(next?.headers['idempotency-key']).not.toBe(sent[0]?.headers['idempotency-key'])
    expect((await remote.listChecks({})).data).toHaveLength(2)
  })

  it('a check queued to run when online whose answer was lost is queued once, under one key', async () => {
    const { proxy, remote } = await setUp()
    const isQueueing = (request: SeenRequest): boolean =>
      request.method === 'POST' && request.path === '/api/v1/pending-checks'
    let lost = false
    proxy.plan = (request) => (isQueueing(request) && !lost ? ((lost = true), 'drop-answer') : 'forward')

    const pending = await remote.queueCheck({ text: TEXT, tiers: ['t1'] })

    const sent = proxy.seen.filter(isQueueing)
    expect(sent).toHaveLength(2)
    expect(sent[1]?.headers['idempotency-key']).toBe(sent[0]?.headers['idempotency-key'])
    expect(pending.idempotencyKey).toBe(sent[0]?.headers['idempotency-key'])
    const queued = (await remote.listPendingChecks({})).data
    expect(queued.map((each) => each.id)).toEqual([pending.id])
  })

  it('a 503 and a 429 with Retry-After are tried again with the same key; a 4xx answer is final', async () => {
    const { proxy, remote } = await setUp()
    const refusals = [
      { status: 503, body: '{"error":{"code":"internal_error","message":"Busy.","details":null}}' },
      { status: 429, headers: { 'Retry-After': '0' } },
    ]
    proxy.plan = (request) => (isSubmission(request) ? (refusals.shift() ?? 'forward') : 'forward')
    const check = await remote.submit({ text: TEXT, tiers: ['t1'] })
    const keys = proxy.seen.filter(isSubmission).map((request) => request.headers['idempotency-key'])
    expect(keys).toHaveLength(3)
    expect(new Set(keys).size).toBe(1)
    expect((await remote.listChecks({})).data.map((each) => each.id)).toEqual([check.id])

    const seen = proxy.seen.length
    const error = await refusal(remote.estimate({ text: '', tiers: ['t1'] }))
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).code).toBe('unprocessable')
    expect(proxy.seen.length).toBe(seen + 1)
  })

  it("keeps another service's own error message: the specification's body without details, or with a code of its own", async () => {
    const { proxy, remote } = await setUp()
    proxy.plan = (request) =>
      request.path.endsWith('/credits')
        ? { status: 409, body: '{"error":{"code":"conflict","message":"Try again later."}}' }
        : {
            status: 402,
            body: '{"error":{"code":"insufficient_credits","message":"Balance 3 is below 10."}}',
          }
    const short = (await refusal(remote.submit({ text: TEXT, tiers: ['t1'] }))) as ApiError
    expect([short.code, short.message, short.details]).toEqual([
      'insufficient_credits',
      'Balance 3 is below 10.',
      null,
    ])
    const unknown = (await refusal(remote.credits())) as ApiError
    expect([unknown.code, unknown.message]).toEqual(['internal_error', 'Try again later.'])
  })

  it('gives up after its retries with a readable error naming the service', async () => {
    const { proxy, remote } = await setUp()
    proxy.plan = () => ({ status: 502, body: '<html>Bad gateway</html>' })
    const error = (await refusal(remote.me())) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.code).toBe('internal_error')
    expect(error.message).toBe(
      `The remote service at ${new URL(proxy.api).origin} answered with HTTP status 502.`,
    )
    expect(proxy.seen).toHaveLength(5)
  })

  it('deep research, charged on acceptance, is never sent twice after a lost answer', async () => {
    models = await startFakeOpenAI()
    // Research is accepted only while its search endpoint answers: any server on this computer will do.
    const { server, proxy, remote } = await setUp({
      ...t2Config(models, ['a']),
      search: { baseURL: models.baseURL },
      web: { allowLocalTargets: true },
    })
    proxy.plan = (request) => (request.path === '/api/v1/research' ? 'drop-answer' : 'forward')
    const error = (await refusal(remote.research({ text: 'Ottawa is the capital of Canada.' }))) as ApiError
    expect(error).toBeInstanceOf(ApiError)
    expect(error.message).toMatch(/^The remote service at http:\/\/127\.0\.0\.1:\d+ cannot be reached/)
    expect(proxy.seen.filter((request) => request.path === '/api/v1/research')).toHaveLength(1)
    expect((await server.engine.admin.ledger(server.organizationId)).charge).toBe(40)
  })
})

describe('the remote service URL', () => {
  it('must be https, or plain http to this computer, without credentials', () => {
    const make = (baseURL: string) => () => new RemoteService({ baseURL, token: 'fdk_x' })
    expect(make('https://factdesk.example.org/api/v1')).not.toThrow()
    expect(make('http://127.0.0.1:8787/api/v1')).not.toThrow()
    expect(make('http://localhost:8787/api/v1')).not.toThrow()
    expect(make('http://[::1]:8787/api/v1')).not.toThrow()
    expect(make('http://factdesk.example.org/api/v1')).toThrow(/must be https/)
    expect(make('http://10.0.0.2/api/v1')).toThrow(/must be https/)
    expect(make('https://user:secret@factdesk.example.org/api/v1')).toThrow(/user name or password/)
    expect(make('ftp://factdesk.example.org')).toThrow(/must be https/)
    expect(make('factdesk.example.org')).toThrow(/is not a URL/)
  })
})

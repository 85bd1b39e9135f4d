import { describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../../../../helpers/fakeOpenAI'
import { call, startServer, type TestServer, THREE_CLAIMS } from '../../../../helpers/server'
import { judged, report, startT2Server, submitT2, t2Config } from './setup'
import { closeAfterEach } from '../../../../helpers/teardown'

let fake: FakeOpenAI
let server: TestServer
closeAfterEach(() => [server, fake])

describe('cancelling a t2 check', () => {
  it('aborts the model requests in flight: the server sees each connection close', async () => {
    fake = await startFakeOpenAI({ 'model-a': {}, 'model-resolver': {}, '*': { latencyMs: 5000 } })
    server = await startT2Server(t2Config(fake, ['a', 'b', 'c'], { requestTimeoutMs: 8000 }))
    const check = await submitT2(server, THREE_CLAIMS)
    // model-a answers at once; the others' requests hang in the fake.
    await expect
      .poll(() => fake.requests.filter((r) => r.outcome === 'pending').length)
      .toBeGreaterThanOrEqual(2)
    const pending = fake.requests.filter((r) => r.outcome === 'pending')

    const res = await call(server, 'POST', `/checks/${check.id}/cancel`)
    expect(res.json).toMatchObject({ status: 'cancelled', credits: { refunded: check.credits.charged } })
    await expect
      .poll(() => pending.map((r) => r.outcome), { timeout: 2000 })
      .toEqual(pending.map(() => 'closed'))
    for (const request of pending) expect(request.endedAt! - request.receivedAt).toBeLessThan(4000)

    // Nothing more is asked: no new panel request, no judge.
    const asked = fake.requests.length
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(fake.requests).toHaveLength(asked)
    expect(judged(fake)).toHaveLength(0)
    expect((await report(server, check.id)).check.status).toBe('cancelled')
    expect((await call(server, 'GET', '/credits')).json.balance).toBe(1000)
  })

  it('also aborts a judge in flight and a request waiting out a Retry-After', async () => {
    fake = await startFakeOpenAI({
      // A split panel: the judge is asked (after the debate round).
      'model-a': { overrides: { verdict: 'refuted' } },
      'model-b': { failures: [{ status: 429, retryAfter: '30' }] },
      'model-judge': { latencyMs: 5000 },
    })
    // One unit at a time: the second check can start only once the first one's units let go.
    server = await startServer({
      config: t2Config(fake, ['a', 'b'], { requestTimeoutMs: 8000 }),
      runner: { concurrency: 1, retryDelayMs: () => 10 },
    })
    const first = await submitT2(server, 'The Eiffel Tower is 330 metres tall.')
    const second = await submitT2(server, 'Paris is the capital of France.')
    // model-b's unit of the first check waits out a 30 s Retry-After; cancel the check meanwhile. The wait ends
    // at once, or the second check could not reach its judge within the poll's 3 s.
    await expect.poll(() => fake.of('model-b').map((r) => r.outcome)).toEqual([429])
    await call(server, 'POST', `/checks/${first.id}/cancel`)
    // The second check's judge hangs; cancel it too.
    await expect.poll(() => judged(fake).length, { timeout: 3000 }).toBe(1)
    expect(judged(fake)[0]!.user).toContain('Paris')
    await call(server, 'POST', `/checks/${second.id}/cancel`)
    await expect.poll(() => judged(fake)[0]!.outcome).toBe('closed')
    await new Promise((resolve) => setTimeout(resolve, 100))
    // model-b was never asked again for the first check, and only its first request was a 429.
    expect(fake.of('model-b').filter((r) => r.user.includes('Eiffel'))).toHaveLength(1)
  })
})

import { describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../../../../helpers/fakeOpenAI'
import { waitForEnd, type TestServer } from '../../../../helpers/server'
import { report, startT2Server, submitT2, t2Config } from './setup'
import { closeAfterEach } from '../../../../helpers/teardown'

const ONE = 'The Eiffel Tower is 330 metres tall.'
const TEXT = `${ONE} Paris is the capital of France. Water boils at 100 degrees Celsius at sea level.`

let fake: FakeOpenAI
let server: TestServer
closeAfterEach(() => [server, fake])

const gaps = (model: string) => {
  const times = fake.of(model).map((r) => r.receivedAt)
  return times.slice(1).map((t, i) => t - times[i]!)
}

describe('t2 model requests', () => {
  it('retry a 429 after the Retry-After the server gave (seconds, and retry-after-ms)', async () => {
    fake = await startFakeOpenAI({
      'model-a': { failures: [{ status: 429, retryAfter: '1' }] },
      'model-judge': {
        failures: [
          { status: 429, retryAfterMs: 300 },
          { status: 429, retryAfterMs: 300 },
        ],
      },
    })
    // The backoff alone would wait 20–60 ms: only the header explains the waits.
    server = await startT2Server(t2Config(fake, ['a'], { retryDelayMs: 20 }))
    const check = await submitT2(server, ONE)
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    expect(fake.of('model-a').map((r) => r.outcome)).toEqual([429, 200])
    expect(gaps('model-a')[0]).toBeGreaterThanOrEqual(990)
    expect(gaps('model-a')[0]).toBeLessThan(1500)
    expect(fake.of('model-judge').map((r) => r.outcome)).toEqual([429, 429, 200])
    for (const gap of gaps('model-judge')) expect(gap).toBeGreaterThanOrEqual(295)
    const [claim] = (await report(server, check.id)).claims
    expect(claim!.evaluations).toHaveLength(1)
    expect(claim!.consensus.t2).toBeDefined()
  })

  it('retry 500s with growing backoff, and requests that time out, within one unit attempt', async () => {
    fake = await startFakeOpenAI({
      'model-a': { failures: [{ status: 500 }, { status: 502 }, { status: 500 }] },
      'model-b': { failures: [{ hang: true }] },
    })
    server = await startT2Server(
      t2Config(fake, ['a', 'b'], { retryDelayMs: 100, maxRetries: 3, requestTimeoutMs: 300 }),
    )
    const check = await submitT2(server, ONE)
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    expect(fake.of('model-a').map((r) => r.outcome)).toEqual([500, 502, 500, 200])
    // 100, 200, 400 ms, each times 0.5–1.5.
    const [first, second, third] = gaps('model-a')
    expect(first).toBeGreaterThanOrEqual(45)
    expect(second).toBeGreaterThanOrEqual(95)
    expect(third).toBeGreaterThanOrEqual(195)
    // The request that never answered was abandoned after its timeout: the fake saw the connection close.
    expect(fake.of('model-b').map((r) => r.outcome)).toEqual(['closed', 200])
    expect(gaps('model-b')[0]).toBeGreaterThanOrEqual(300)
    expect((await report(server, check.id)).claims[0]!.evaluations).toHaveLength(2)
  })

  it('do not retry a request the provider refuses (400): the unit fails at once with the reason', async () => {
    fake = await startFakeOpenAI({
      'model-a': { alwaysFail: { status: 400, message: "model 'model-a' not found" } },
    })
    server = await startT2Server(t2Config(fake, ['a']))
    const check = await submitT2(server, ONE)
    const end = await waitForEnd(server, check.id)
    expect(end.status).toBe('failed')
    expect(end.error.message).toContain(
      "panel-a (openai-compatible model-a): HTTP 400: model 'model-a' not found",
    )
    expect(fake.of('model-a')).toHaveLength(1)
  })

  it('keep to the concurrency limit per provider', async () => {
    fake = await startFakeOpenAI({ '*': { latencyMs: 120 } })
    server = await startT2Server(t2Config(fake, ['a', 'b', 'c'], { concurrencyPerProvider: 2 }))
    const check = await submitT2(server, TEXT)
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    const edges = fake.requests.flatMap((r) => [
      { at: r.receivedAt, step: 1 },
      { at: r.endedAt!, step: -1 },
    ])
    edges.sort((x, y) => x.at - y.at || x.step - y.step)
    let open = 0
    let most = 0
    for (const edge of edges) most = Math.max(most, (open += edge.step))
    expect(most).toBe(2)
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../../../../helpers/fakeOpenAI'
import { call, expectEnvelope, startServer, waitForEnd, type TestServer } from '../../../../helpers/server'
import { report, startT2Server, submitT2, t2Config } from './setup'

const TEXT = 'The Eiffel Tower is 330 metres tall.'

let fake: FakeOpenAI | null = null
let server: TestServer
afterEach(async () => {
  await server.close()
  await fake?.close()
  fake = null
  delete process.env.FACTDESK_TEST_KEY
})

describe('configuring t2', () => {
  it('without models: estimating t2 works, submitting it is 422 with how to configure a model', async () => {
    server = await startServer()
    const estimate = await call(server, 'POST', '/checks/estimate', { body: { text: TEXT, tiers: ['t2'] } })
    expect(estimate.status).toBe(200)
    expect(estimate.json.credits.unitPrices).toEqual({ t2: 4 })
    const res = await call(server, 'POST', '/checks', {
      body: { documentId: estimate.json.documentId, tiers: ['t2'] },
    })
    expect(res.status).toBe(422)
    expect(expectEnvelope(res.json, 'unprocessable').message).toMatch(
      /panel and a judge.*config file.*Settings/,
    )
    expect((await call(server, 'GET', '/credits')).json.balance).toBe(1000)
  })

  it('a panel without a judge leaves t2 unavailable, with the same message', async () => {
    fake = await startFakeOpenAI()
    const config = t2Config(fake)
    config.models!.judge = null
    server = await startServer({ config })
    const res = await call(server, 'POST', '/checks', { body: { text: TEXT, tiers: ['t2'] } })
    expect(res.status).toBe(422)
    expect(res.json.error.message).toMatch(/panel and a judge/)
  })

  it('a key variable that is not set fails the check with a clear message, at once, and asks no model', async () => {
    // A split panel, so that the judge is asked.
    fake = await startFakeOpenAI({ 'model-a': { overrides: { verdict: 'refuted' } } })
    const config = t2Config(fake)
    config.models!.panel![1]!.apiKeyEnv = 'FACTDESK_TEST_KEY'
    server = await startT2Server(config)
    const check = await submitT2(server, TEXT)
    const end = await waitForEnd(server, check.id)
    // panel-b could not vote; the other two did and were judged.
    expect(end.status).toBe('completed')
    expect(fake.of('model-b')).toHaveLength(0)
    const { evaluations } = (await report(server, check.id)).claims[0]!
    expect(evaluations.filter((e) => e.round === 1).map((e) => e.model)).toEqual(['panel-a', 'panel-c'])

    // With the judge keyless too, the check fails and says which variable to set.
    await server.close()
    const judgesBefore = fake.of('model-judge').length
    config.models!.judge!.apiKeyEnv = 'FACTDESK_TEST_KEY'
    server = await startT2Server(config)
    const failing = await submitT2(server, TEXT)
    const failed = await waitForEnd(server, failing.id)
    expect(failed.status).toBe('failed')
    expect(failed.error.message).toMatch(
      /"judge" \(models\.judge\) needs an API key in the environment variable FACTDESK_TEST_KEY, which is not set/,
    )
    expect(failed.credits.refunded).toBe(4)
    expect(fake.of('model-judge')).toHaveLength(judgesBefore)
  })

  it('sends the key from the environment and never repeats it in an error', async () => {
    process.env.FACTDESK_TEST_KEY = 'sk-test-0123456789abcdef'
    fake = await startFakeOpenAI({
      'model-judge': {
        // Echoed in capitals: redacted in any case.
        alwaysFail: { status: 401, message: 'Incorrect API key provided: SK-TEST-0123456789ABCDEF.' },
      },
    })
    const config = t2Config(fake, ['a'])
    config.models!.panel![0]!.apiKeyEnv = 'FACTDESK_TEST_KEY'
    config.models!.judge!.apiKeyEnv = 'FACTDESK_TEST_KEY'
    server = await startT2Server(config)
    const check = await submitT2(server, TEXT)
    const end = await waitForEnd(server, check.id)
    expect(fake.of('model-a')[0]!.headers.authorization).toBe('Bearer sk-test-0123456789abcdef')
    expect(end.status).toBe('failed')
    expect(end.error.message).toContain('HTTP 401: Incorrect API key provided: [redacted]')
    expect(JSON.stringify(await report(server, check.id)).toLowerCase()).not.toContain('0123456789abcdef')
    // A refused key is not retried.
    expect(fake.of('model-judge')).toHaveLength(1)
  })
})

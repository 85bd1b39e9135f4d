import { describe, expect, it } from 'vitest'
import type { Clock } from '../../../../../src/main/engine/base/clock'
import { startFakeOpenAI, type FakeOpenAI } from '../../../../helpers/fakeOpenAI'
import { Report } from '../../../../../src/shared/schemas'
import { call, startServer, type TestServer } from '../../../../helpers/server'
import { judged, panelRequests, resolverRequests, t2Config, tokensOf } from './setup'
import { closeAfterEach } from '../../../../helpers/teardown'

const TEXT = 'The Eiffel Tower is 330 metres tall. Paris is the capital of France.'

let fake: FakeOpenAI
let server: TestServer
closeAfterEach(() => [server, fake])

/// Real time, moved forward at will.
class ShiftedClock implements Clock {
  offsetMs = 0
  now(): Date {
    return new Date(Date.now() + this.offsetMs)
  }
}

const run = async (text: string, token = server.write) => {
  const check = (await call(server, 'POST', '/checks', { token, body: { text, tiers: ['t2'] } })).json
  await expect
    .poll(async () => (await call(server, 'GET', `/checks/${check.id}`, { token })).json.status)
    .toBe('completed')
  return Report.parse((await call(server, 'GET', `/checks/${check.id}/report`, { token })).json)
}

describe('the vote cache', () => {
  it('reuses a panel model’s vote on the same claim text for 24 hours: marked cached, no request', async () => {
    // A unanimous panel: it decides without the judge.
    fake = await startFakeOpenAI({ '*': { overrides: { verdict: 'refuted' } } })
    const clock = new ShiftedClock()
    server = await startServer({ config: t2Config(fake, ['a', 'b']), clock })

    const first = await run(TEXT)
    const asked = panelRequests(fake).length
    expect(asked).toBe(2 * first.claims.length)
    expect(first.claims.flatMap((c) => c.evaluations).every((e) => !e.cached)).toBe(true)

    // The same claims in another text, 23 hours later (extra whitespace makes no difference).
    clock.offsetMs = 23 * 60 * 60 * 1000
    const judgesBefore = judged(fake).length
    const resolvedBefore = resolverRequests(fake).length
    const second = await run(`Some preamble.  The Eiffel Tower is 330  metres tall. ${TEXT.split('. ')[1]}`)
    expect(panelRequests(fake)).toHaveLength(asked)
    const votes = second.claims.flatMap((c) => c.evaluations)
    expect(votes.length).toBe(2 * second.claims.length)
    for (const vote of votes)
      expect(vote).toMatchObject({ cached: true, usage: { inputTokens: 0, outputTokens: 0 } })
    expect(votes.filter((v) => v.model === 'panel-a').every((v) => v.verdict === 'refuted')).toBe(true)
    // Each claim is still decided, by the panel it agreed on: only resolving the new text's claims into
    // statements costs tokens.
    expect(judged(fake).slice(judgesBefore)).toHaveLength(0)
    expect(second.summary.tokens).toEqual(tokensOf(resolverRequests(fake).slice(resolvedBefore)))
    expect(second.claims.every((c) => c.consensus.t2?.decidedBy === 'panel')).toBe(true)

    // Another organization asks the models itself.
    const other = await server.engine.admin.createOrganization('Other', 100)
    const token = (await server.engine.admin.createToken('write', other.id, null)).value
    const third = await run(TEXT, token)
    expect(third.claims.flatMap((c) => c.evaluations).every((e) => !e.cached)).toBe(true)
    expect(panelRequests(fake)).toHaveLength(2 * asked)

    // After 24 hours the votes are asked for again.
    clock.offsetMs = 25 * 60 * 60 * 1000
    const fourth = await run(TEXT)
    expect(fourth.claims.flatMap((c) => c.evaluations).every((e) => !e.cached)).toBe(true)
    expect(panelRequests(fake)).toHaveLength(3 * asked)
  })

  it('keeps a vote’s kind: a cached "misleading" is still partly true, and so is the panel’s verdict', async () => {
    fake = await startFakeOpenAI({ '*': { overrides: { verdict: 'misleading', detail: 'partly_true' } } })
    server = await startServer({ config: t2Config(fake, ['a', 'b']) })
    await run(TEXT)
    const asked = panelRequests(fake).length
    const again = await run(TEXT)
    expect(panelRequests(fake)).toHaveLength(asked)
    for (const claim of again.claims) {
      expect(claim.evaluations).toHaveLength(2)
      for (const vote of claim.evaluations)
        expect(vote).toMatchObject({ cached: true, detail: 'partly_true' })
      expect(claim.consensus.t2).toMatchObject({ verdict: 'misleading', detail: 'partly_true' })
    }
  })

  it('is keyed by the model, not only by the panel id', async () => {
    fake = await startFakeOpenAI()
    server = await startServer({ config: t2Config(fake, ['a']) })
    await run(TEXT)
    await server.close()
    // The same data folder with panel-a pointed at another model: no cached votes.
    const config = t2Config(fake, ['a'])
    config.models!.panel![0]!.model = 'model-z'
    server = await startServer({ config, dataDir: server.engine.dataDir })
    const again = await run(TEXT)
    expect(again.claims.flatMap((c) => c.evaluations).every((e) => !e.cached)).toBe(true)
    expect(fake.of('model-z')).toHaveLength(again.claims.length)
  })
})

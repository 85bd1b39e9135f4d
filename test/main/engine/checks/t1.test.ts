import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Report } from '../../../../src/shared/schemas'
import { call, startServer, waitForEnd, type TestServer } from '../../../helpers/server'

// The real t1 tier: Harper in its worker thread.
const TEXT =
  '🎉 Our report says: the Eiffel Tower is 330 meters tall and was finished in 1889. The letter was recieved in 1932 by the mayor.'

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

describe('t1 spelling and grammar', () => {
  it('records Harper’s findings as issues with offsets into the submitted text, one evaluation and a consensus', async () => {
    const check = (await call(server, 'POST', '/checks', { body: { text: TEXT, tiers: ['t1'] } })).json
    expect((await waitForEnd(server, check.id, 30_000)).status).toBe('completed')
    const report = Report.parse((await call(server, 'GET', `/checks/${check.id}/report`)).json)
    const bridge = report.claims.find((claim) => claim.text.includes('recieved'))
    expect(bridge).toBeDefined()
    expect(bridge!.consensus.t1?.verdict).toBe('issues')
    expect(bridge!.consensus.t1?.correction).toContain('received')
    const issue = bridge!.issues.find((i) => TEXT.slice(i.charStart, i.charEnd) === 'recieved')
    expect(issue?.suggestions[0]).toBe('received')
    expect(bridge!.evaluations).toEqual([
      expect.objectContaining({
        tier: 't1',
        model: expect.stringMatching(/^harper.js \d+\.\d+\.\d+$/),
        verdict: 'issues',
      }),
    ])
    const tower = report.claims.find((claim) => claim.text.includes('Eiffel'))
    expect(tower?.consensus.t1?.verdict).toBe('clean')
    expect(tower?.issues).toEqual([])
  })

  it('takes a name the document repeats for a name, even in a claim that has it once', async () => {
    const text =
      'Natarajan built the Riverton bridge in 1932. Engineers say Natarajan was paid 400 dollars for the work.'
    const check = (await call(server, 'POST', '/checks', { body: { text, tiers: ['t1'] } })).json
    expect((await waitForEnd(server, check.id, 30_000)).status).toBe('completed')
    const report = Report.parse((await call(server, 'GET', `/checks/${check.id}/report`)).json)
    const first = report.claims.find((claim) => claim.text.startsWith('Natarajan built'))
    expect(first).toBeDefined()
    // Alone, t1 would flag it ("Natarajan → Catamaran"): at the start of its sentence, once in the claim.
    expect(first!.issues).toEqual([])
    expect(first!.consensus.t1?.verdict).toBe('clean')
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../../../../../src/main/engine/base/clock'
import { call, expectEnvelope, startServer, type TestServer } from '../../../../helpers/server'

// Checks queued to run when online cost nothing until they are submitted: so many may wait per organization, and
// their texts are read for claims under the minute's limit, when queued and when submitted.

const TEXT = 'The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World Fair in Paris.'
const MINUTE_MS = 60_000

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const queue = (subject: TestServer, body: unknown, headers: Record<string, string> = {}) =>
  call(subject, 'POST', '/pending-checks', { body, headers })

describe('pending checks', () => {
  it('past limits.pendingChecks waiting, one more is 413 naming the limit; a repeat or a cancel makes room', async () => {
    server = await startServer({ config: { limits: { pendingChecks: 2 } } })
    // The worker would submit them at once: they stay waiting while it is stopped.
    await server.engine.pending.stop()
    const first = await queue(server, { text: TEXT, tiers: ['t1'] }, { 'Idempotency-Key': 'first' })
    expect(first.status).toBe(202)
    expect((await queue(server, { text: TEXT, tiers: ['t1'] })).status).toBe(202)

    const refused = await queue(server, { text: TEXT, tiers: ['t1'] })
    expect(refused.status).toBe(413)
    expect(expectEnvelope(refused.json, 'payload_too_large').message).toBe(
      'This organization has 2 checks waiting to run when online, the most it may: cancel one or wait until ' +
        'they run (limits.pendingChecks).',
    )
    const repeat = await queue(server, { text: TEXT, tiers: ['t1'] }, { 'Idempotency-Key': 'first' })
    expect(repeat.status).toBe(202)
    expect(repeat.json.id).toBe(first.json.id)

    expect((await call(server, 'POST', `/pending-checks/${first.json.id}/cancel`)).status).toBe(200)
    expect((await queue(server, { text: TEXT, tiers: ['t1'] })).status).toBe(202)
  })

  it('keeps as many ended checks that never ran as limits.pendingChecks, the most recent, and forgets the rest', async () => {
    const clock = new ManualClock()
    server = await startServer({ clock, config: { limits: { pendingChecks: 2 } } })
    await server.engine.pending.stop()
    const ids: string[] = []
    for (let index = 0; index < 4; index++) {
      const queued = await queue(server, { text: `${TEXT} Number ${index}.`, tiers: ['t1'] })
      expect(queued.status).toBe(202)
      ids.push(queued.json.id)
      clock.advance(1000)
      expect((await call(server, 'POST', `/pending-checks/${queued.json.id}/cancel`)).status).toBe(200)
    }
    const listed = (await call(server, 'GET', '/pending-checks')).json.data.map(
      (each: { id: string }) => each.id,
    )
    expect(listed).toEqual([ids[3], ids[2]])
    expect((await call(server, 'GET', `/pending-checks/${ids[0]}`)).status).toBe(404)
  })

  it('a submission the minute’s extractions refuse waits and is tried again, rather than failing', async () => {
    const clock = new ManualClock()
    server = await startServer({ clock, config: { limits: { estimatesPerMinute: 1 } } })
    await server.engine.pending.stop()
    const queued = await queue(server, { text: TEXT, tiers: ['t1'] })
    expect(queued.status).toBe(202)

    // Queuing took the minute's one extraction: its submission must wait for the next minute.
    await server.engine.pending.runDue()
    const waiting = (await call(server, 'GET', `/pending-checks/${queued.json.id}`)).json
    expect(waiting).toMatchObject({ status: 'waiting', attempts: 1, checkId: null })
    expect(waiting.lastError).toMatch(/limits\.estimatesPerMinute/)

    clock.advance(MINUTE_MS)
    await server.engine.pending.runDue()
    const submitted = (await call(server, 'GET', `/pending-checks/${queued.json.id}`)).json
    expect(submitted.status).toBe('submitted')
    expect(submitted.checkId).toMatch(/^chk_/)
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../../../../src/main/engine/base/clock'
import { call, databaseBytes, expectEnvelope, startServer, type TestServer } from '../../../helpers/server'
import { onPostgres } from '../../../helpers/database'
import { GatedTier } from '../../../helpers/tiers'

// Estimates are free but not unlimited: so many per organization a minute, and kept only so long unsubmitted.

const TEXT = 'The Eiffel Tower is 330 metres tall. It was finished in 1889. Paris is the capital of France.'
const MINUTE_MS = 60_000
const HOUR_MS = 3_600_000

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const estimate = (subject: TestServer, token = subject.write, text = TEXT) =>
  call(subject, 'POST', '/checks/estimate', { token, body: { text, tiers: ['t1'] } })

describe('estimates per minute', () => {
  it('past the limit, an organization gets 429 rate_limited with Retry-After until its minute has passed', async () => {
    const clock = new ManualClock()
    server = await startServer({ clock, config: { limits: { estimatesPerMinute: 3 } } })
    for (let i = 0; i < 3; i++) expect((await estimate(server)).status).toBe(200)

    const refused = await estimate(server)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('60')
    expect(expectEnvelope(refused.json, 'rate_limited').message).toMatch(/more than 3 estimates in a minute/)

    // Another organization has its own minute.
    const other = await server.engine.admin.createOrganization('Other', 0)
    const otherToken = (await server.engine.admin.createToken('write', other.id, 'other')).value
    expect((await estimate(server, otherToken)).status).toBe(200)

    clock.advance(MINUTE_MS / 2)
    const later = await estimate(server)
    expect(later.status).toBe(429)
    expect(later.headers.get('retry-after')).toBe('30')

    clock.advance(MINUTE_MS / 2)
    expect((await estimate(server)).status).toBe(200)
  })
})

describe('claim extraction of a check', () => {
  it('counts against limits.estimatesPerMinute with the estimates; a documentId or a repeat extracts nothing', async () => {
    const clock = new ManualClock()
    server = await startServer({
      clock,
      config: { limits: { estimatesPerMinute: 3 } },
      tiers: new Map([['t1', new GatedTier(false)]]),
    })
    const estimated = (await estimate(server)).json
    const key = { 'Idempotency-Key': 'first' }
    const first = await call(server, 'POST', '/checks', {
      body: { text: TEXT, tiers: ['t1'] },
      headers: key,
    })
    expect(first.status).toBe(202)
    expect((await call(server, 'POST', '/checks', { body: { text: TEXT, tiers: ['t1'] } })).status).toBe(202)

    const refused = await call(server, 'POST', '/checks', { body: { text: TEXT, tiers: ['t1'] } })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('60')
    expect(expectEnvelope(refused.json, 'rate_limited').message).toMatch(
      /more than 3 estimates and checks of a text in a minute \(limits\.estimatesPerMinute\)/,
    )
    expect((await estimate(server)).status).toBe(429)
    const queued = await call(server, 'POST', '/pending-checks', { body: { text: TEXT, tiers: ['t1'] } })
    expect(queued.status).toBe(429)

    const replay = await call(server, 'POST', '/checks', {
      body: { text: TEXT, tiers: ['t1'] },
      headers: key,
    })
    expect(replay.status).toBe(202)
    expect(replay.json.id).toBe(first.json.id)
    const ofEstimate = await call(server, 'POST', '/checks', {
      body: { documentId: estimated.documentId, tiers: ['t1'] },
    })
    expect(ofEstimate.status).toBe(202)

    clock.advance(MINUTE_MS)
    expect((await call(server, 'POST', '/checks', { body: { text: TEXT, tiers: ['t1'] } })).status).toBe(202)
  })

  it('an organization whose balance covers no claim is refused (402) before its text is read for claims', async () => {
    const clock = new ManualClock()
    server = await startServer({ clock, config: { limits: { estimatesPerMinute: 2 } } })
    const broke = await server.engine.admin.createOrganization('Broke', 0)
    const token = (await server.engine.admin.createToken('write', broke.id, 'broke')).value
    const long = `${TEXT} `.repeat(2000)
    for (let i = 0; i < 5; i++) {
      const refused = await call(server, 'POST', '/checks', {
        token,
        body: { text: long, tiers: ['t1'] },
      })
      expect(refused.status).toBe(402)
      // The price of one claim, not of the text's claims: it was refused before they were found.
      expect(expectEnvelope(refused.json, 'insufficient_credits').message).toBe(
        "A check of t1 costs at least one claim's price: one claim costs 1 credit; the balance is 0.",
      )
      const queued = await call(server, 'POST', '/pending-checks', {
        token,
        body: { text: long, tiers: ['t1'] },
      })
      expect(queued.status).toBe(402)
    }
    expect((await call(server, 'GET', '/pending-checks', { token })).json.data).toEqual([])
    // Refusals took none of the minute's extractions.
    expect((await estimate(server, token)).status).toBe(200)
    expect((await estimate(server, token)).status).toBe(200)
  })
})

describe('estimates never submitted', () => {
  it('an organization keeps limits.keptEstimates of them: a new one expires the oldest', async () => {
    server = await startServer({ config: { limits: { keptEstimates: 3 } } })
    const made = []
    for (let i = 0; i < 5; i++) made.push((await estimate(server)).json.documentId as string)
    for (const [at, documentId] of made.entries()) {
      const res = await call(server, 'POST', '/checks', { body: { documentId, tiers: ['t1'] } })
      if (at < 2) {
        expect(res.status, documentId).toBe(422)
        expect(expectEnvelope(res.json, 'unprocessable').message).toMatch(/expired/)
      } else {
        expect(res.status, documentId).toBe(202)
      }
    }
    // Submitted ones are no longer estimates: three new ones are kept beside them.
    for (let i = 0; i < 3; i++) made.push((await estimate(server)).json.documentId as string)
    const store = await server.openStore()
    try {
      for (const documentId of made.slice(2)) {
        expect(await store.documents.get(server.organizationId, documentId), documentId).not.toBeNull()
      }
    } finally {
      await store.close()
    }
  })

  it('expire after limits.estimateHours: their claims are deleted, and submitting them is 422', async () => {
    const clock = new ManualClock()
    server = await startServer({
      clock,
      config: { limits: { estimateHours: 2 } },
      tiers: new Map([['t1', new GatedTier(true)]]),
    })
    await server.engine.admin.grantCredits(server.organizationId, 1000)
    const kept = (await estimate(server)).json
    const left = (await estimate(server)).json
    const submitted = await call(server, 'POST', '/checks', {
      body: { documentId: kept.documentId, tiers: ['t1'] },
    })
    expect(submitted.status).toBe(202)

    clock.advance(2 * HOUR_MS - 1)
    expect(await server.engine.estimates.sweep()).toBe(0)
    clock.advance(1)
    // Expired by the clock, even before the sweep has deleted it.
    const late = await call(server, 'POST', '/checks', {
      body: { documentId: left.documentId, tiers: ['t1'] },
    })
    expect(late.status).toBe(422)
    expect(expectEnvelope(late.json, 'unprocessable').message).toMatch(/expired/)

    expect(await server.engine.estimates.sweep()).toBe(1)
    const store = await server.openStore()
    try {
      expect(await store.documents.claims(left.documentId)).toEqual([])
      expect(await store.documents.get(server.organizationId, left.documentId)).toBeNull()
      expect(await store.documents.claims(kept.documentId)).toHaveLength(kept.claimCount)
    } finally {
      await store.close()
    }
    const again = await call(server, 'POST', '/checks', {
      body: { documentId: left.documentId, tiers: ['t1'] },
    })
    expect(again.status).toBe(422)
    expect(expectEnvelope(again.json, 'unprocessable').message).toMatch(/expired/)

    // The submitted one keeps its text and claims.
    const report = await call(server, 'GET', `/checks/${submitted.json.id}/report`)
    expect(report.json.text).toBe(TEXT)
    expect(report.json.claims).toHaveLength(kept.claimCount)
  })

  it('a check queued to run when online keeps its estimate from expiring', async () => {
    const clock = new ManualClock()
    server = await startServer({
      clock,
      config: { limits: { estimateHours: 1 } },
      tiers: new Map([['t1', new GatedTier(true)]]),
    })
    const principal = await server.engine.localPrincipal()
    const queued = (await estimate(server)).json
    await server.engine.pending.queue(principal, { documentId: queued.documentId, tiers: ['t1'] })
    clock.advance(2 * HOUR_MS)
    expect(await server.engine.estimates.sweep()).toBe(0)
  })

  it.runIf(!onPostgres)(
    'give their space back: the database file shrinks to within 10% of its size before them',
    async () => {
      const clock = new ManualClock()
      const config = { limits: { estimatesPerMinute: 1000, estimateHours: 1 } }
      // Measured after a restart, whose stop folds the write-ahead log into the file, as the sweep does.
      const first = await startServer({ clock, config })
      await first.close()
      server = await startServer({ clock, config, dataDir: first.dataDir })
      const before = databaseBytes(server.dataDir)
      const text = `${TEXT} `.repeat(1000)
      for (let i = 0; i < 20; i++) expect((await estimate(server, server.write, text)).status).toBe(200)
      const filled = databaseBytes(server.dataDir)
      expect(filled).toBeGreaterThan(before * 5)

      clock.advance(HOUR_MS)
      expect(await server.engine.estimates.sweep()).toBe(20)
      expect(databaseBytes(server.dataDir)).toBeLessThanOrEqual(before * 1.1)
    },
  )
})

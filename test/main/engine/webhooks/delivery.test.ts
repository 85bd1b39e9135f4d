import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Check } from '../../../../src/shared/schemas'
import { verifyWebhook } from '../../../../src/shared/webhooks'
import { SqliteDatabase, sql } from '../../../../src/main/engine/store/database'
import { PostgresDatabase } from '../../../../src/main/engine/store/postgres'
import { GatedTier } from '../../../helpers/tiers'
import { call, THREE_CLAIMS, waitForEnd } from '../../../helpers/server'
import {
  advance,
  currentSecret,
  endAndDeliver,
  startReceiver,
  startWebhookServer,
  submitWithCallback,
  unixSeconds,
  type Receiver,
  type WebhookServer,
} from './helpers'
import { closeAfterEach } from '../../../helpers/teardown'

let server: WebhookServer
let receiver: Receiver
closeAfterEach(() => [server, receiver])

const SIGNATURE = /^t=(\d+),v1=([0-9a-f]{64})$/

describe('webhook deliveries', () => {
  it('a completed check delivers one signed, verifiable check.completed, visible on GET /checks/{id}', async () => {
    receiver = await startReceiver()
    server = await startWebhookServer()
    const seen: any[] = []
    const stop = server.engine.events.subscribe((event) => {
      if (event.type === 'check') seen.push(event.check.webhook)
    })
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook?source=factdesk`)
    expect(submitted.webhook).toEqual({
      status: 'waiting',
      eventId: null,
      attempts: 0,
      lastAttemptAt: null,
      nextAttemptAt: null,
      log: [],
    })
    const check = await endAndDeliver(server, submitted.id)
    stop()
    expect(check.status).toBe('completed')

    expect(receiver.requests).toHaveLength(1)
    const [delivery] = receiver.requests
    expect(delivery!.method).toBe('POST')
    expect(delivery!.path).toBe('/hook?source=factdesk')
    expect(delivery!.headers['content-type']).toBe('application/json')
    expect(delivery!.headers['x-svc-event']).toBe('check.completed')
    expect(delivery!.headers['x-svc-delivery']).toBe(delivery!.json.id)
    expect(delivery!.json).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-z]+$/),
      type: 'check.completed',
      createdAt: check.completedAt,
      data: {
        checkId: check.id,
        status: 'completed',
        claimCount: 3,
        verdicts: { clean: 3 },
        completedAt: check.completedAt,
      },
    })
    // Exactly the stored body, members in the documented order.
    expect(Object.keys(delivery!.json)).toEqual(['id', 'type', 'createdAt', 'data'])
    expect(Object.keys(delivery!.json.data)).toEqual([
      'checkId',
      'status',
      'claimCount',
      'verdicts',
      'completedAt',
    ])

    const header = String(delivery!.headers['x-svc-signature'])
    const [, t] = SIGNATURE.exec(header) ?? []
    expect(Number(t)).toBe(unixSeconds(server.clock))
    const secret = await currentSecret(server)
    expect(await verifyWebhook(delivery!.rawBody, header, secret, server.clock.now())).toBe(true)
    expect(await verifyWebhook(delivery!.rawBody, header, 'whsec_not-the-secret', server.clock.now())).toBe(
      false,
    )

    const webhook = {
      status: 'delivered',
      eventId: delivery!.json.id,
      attempts: 1,
      lastAttemptAt: server.clock.now().toISOString(),
      nextAttemptAt: null,
      log: [{ attempt: 1, attemptedAt: server.clock.now().toISOString(), statusCode: 200, error: null }],
    }
    expect(Check.parse(check).webhook).toEqual(webhook)
    // The same member in the list, the report, and on the engine's event stream (what the app sees).
    const listed = (await call(server, 'GET', '/checks')).json.data.find((c: any) => c.id === check.id)
    expect(listed.webhook).toEqual(webhook)
    expect((await call(server, 'GET', `/checks/${check.id}/report`)).json.check.webhook).toEqual(webhook)
    expect(
      (await server.engine.service.getCheck(await server.engine.localPrincipal(), check.id)).webhook,
    ).toEqual(webhook)
    expect(seen.at(-1)).toEqual(webhook)

    // Acknowledged: never sent again, however much time passes.
    for (const ms of [10_000, 3_600_000, 86_400_000]) await advance(server, check.id, ms)
    expect(receiver.requests).toHaveLength(1)
  })

  it('a failed check delivers check.failed', async () => {
    receiver = await startReceiver()
    server = await startWebhookServer({
      tier: new GatedTier(true, (text) => text.startsWith('Paris')),
      runner: { maxAttempts: 1 },
    })
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook`)
    const check = await endAndDeliver(server, submitted.id)
    expect(check.status).toBe('failed')
    expect(receiver.requests).toHaveLength(1)
    const [delivery] = receiver.requests
    expect(delivery!.headers['x-svc-event']).toBe('check.failed')
    expect(delivery!.json).toMatchObject({
      type: 'check.failed',
      data: {
        checkId: check.id,
        status: 'failed',
        claimCount: 3,
        verdicts: { clean: 2 },
        completedAt: check.completedAt,
      },
    })
    expect(
      await verifyWebhook(
        delivery!.rawBody,
        String(delivery!.headers['x-svc-signature']),
        await currentSecret(server),
        server.clock.now(),
      ),
    ).toBe(true)
    expect(check.webhook).toMatchObject({ status: 'delivered', attempts: 1 })
  })

  it('a receiver that fails twice gets the third attempt on schedule, with the same id and body and a fresh signature', async () => {
    receiver = await startReceiver()
    receiver.replies = [{ status: 500 }, { status: 503 }]
    server = await startWebhookServer()
    const secret = await currentSecret(server)
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook`)
    const start = server.clock.now().getTime()
    const check = await endAndDeliver(server, submitted.id)
    expect(receiver.requests).toHaveLength(1)
    expect(check.webhook).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastAttemptAt: new Date(start).toISOString(),
      nextAttemptAt: new Date(start + 10_000).toISOString(),
      log: [{ attempt: 1, statusCode: 500, error: expect.stringMatching(/answered 500/) }],
    })

    expect((await advance(server, check.id, 9_999)).attempts).toBe(1) // not yet due
    expect(receiver.requests).toHaveLength(1)
    const second = await advance(server, check.id, 1)
    expect(receiver.requests).toHaveLength(2)
    expect(second).toMatchObject({
      status: 'pending',
      attempts: 2,
      nextAttemptAt: new Date(start + 40_000).toISOString(),
    })
    expect((await advance(server, check.id, 29_999)).attempts).toBe(2)
    const third = await advance(server, check.id, 1)
    expect(receiver.requests).toHaveLength(3)
    expect(third).toMatchObject({ status: 'delivered', attempts: 3, nextAttemptAt: null })
    expect(third.log.map((entry: any) => entry.statusCode)).toEqual([500, 503, 200])
    expect(third.log.map((entry: any) => entry.attemptedAt)).toEqual(
      [0, 10_000, 40_000].map((ms) => new Date(start + ms).toISOString()),
    )

    const ids = receiver.requests.map((r) => r.headers['x-svc-delivery'])
    expect(new Set(ids).size).toBe(1)
    expect(ids[0]).toBe(receiver.requests[0]!.json.id)
    expect(new Set(receiver.requests.map((r) => r.rawBody)).size).toBe(1)
    const signatures = receiver.requests.map((r) => SIGNATURE.exec(String(r.headers['x-svc-signature']))!)
    const t0 = Math.floor(start / 1000)
    expect(signatures.map(([, t]) => Number(t))).toEqual([t0, t0 + 10, t0 + 40])
    expect(new Set(signatures.map(([, , v1]) => v1)).size).toBe(3)
    for (const [index, request] of receiver.requests.entries()) {
      const at = start + [0, 10_000, 40_000][index]!
      expect(
        await verifyWebhook(request.rawBody, request.headers['x-svc-signature'] as string, secret, at),
      ).toBe(true)
    }
  })

  it('retries after 10 s, 30 s, 1, 2, 5, 10 and 20 min, then marks the delivery failed', async () => {
    receiver = await startReceiver()
    receiver.fallback = { status: 500 }
    server = await startWebhookServer()
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook`)
    const check = await endAndDeliver(server, submitted.id)
    let webhook = check.webhook
    const delays = [10, 30, 60, 120, 300, 600, 1200]
    for (const [index, delay] of delays.entries()) {
      expect(webhook).toMatchObject({ status: 'pending', attempts: index + 1 })
      expect(Date.parse(webhook.nextAttemptAt) - Date.parse(webhook.lastAttemptAt)).toBe(delay * 1000)
      webhook = await advance(server, check.id, delay * 1000)
    }
    expect(receiver.requests).toHaveLength(8)
    expect(webhook).toMatchObject({ status: 'failed', attempts: 8, nextAttemptAt: null })
    expect(webhook.log).toHaveLength(8)
    const span = Date.parse(webhook.lastAttemptAt) - Date.parse(webhook.log[0].attemptedAt)
    expect(span).toBe(2320_000) // about 39 minutes
    await advance(server, check.id, 86_400_000)
    expect(receiver.requests).toHaveLength(8)
  })

  it('an event is attempted once at a time, however many passes run at once', async () => {
    receiver = await startReceiver()
    receiver.replies = [
      { status: 500, delayMs: 150 },
      { status: 200, delayMs: 150 },
    ]
    const tier = new GatedTier(false)
    server = await startWebhookServer({ tier })
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook`)
    tier.releaseAll()
    await waitForEnd(server, submitted.id)
    const passes = () => Promise.all([1, 2, 3].map(() => server.engine.webhooks.deliverDue()))
    await passes()
    expect(receiver.requests).toHaveLength(1)
    server.clock.advance(10_000)
    await passes()
    expect(receiver.requests).toHaveLength(2)
    const check = (await call(server, 'GET', `/checks/${submitted.id}`)).json
    expect(check.webhook).toMatchObject({ status: 'delivered', attempts: 2 })
    expect(check.webhook.log.map((entry: any) => entry.statusCode)).toEqual([500, 200])
  })

  it('follows the configured retry delays', async () => {
    receiver = await startReceiver()
    receiver.fallback = { status: 404 }
    server = await startWebhookServer({ config: { webhooks: { retryDelaysSeconds: [1, 2] } } })
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook`)
    const check = await endAndDeliver(server, submitted.id)
    expect(check.webhook).toMatchObject({ status: 'pending', attempts: 1 })
    expect((await advance(server, check.id, 1000)).attempts).toBe(2)
    expect(await advance(server, check.id, 2000)).toMatchObject({ status: 'failed', attempts: 3 })
    expect(receiver.requests).toHaveLength(3)
  })

  it('a 302 is not followed and counts as a failure', async () => {
    receiver = await startReceiver()
    receiver.replies = [{ status: 302, headers: { Location: '/elsewhere' } }]
    server = await startWebhookServer()
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook`)
    const check = await endAndDeliver(server, submitted.id)
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook'])
    expect(check.webhook).toMatchObject({
      status: 'pending',
      attempts: 1,
      log: [{ statusCode: 302, error: expect.stringMatching(/redirects are not followed/) }],
    })
    const retried = await advance(server, check.id, 10_000)
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook', '/hook'])
    expect(retried).toMatchObject({ status: 'delivered', attempts: 2 })
  })

  it('an attempt without an answer within the timeout is a failure', async () => {
    receiver = await startReceiver()
    receiver.replies = ['hang']
    server = await startWebhookServer({ webhooks: { timeoutMs: 300 } })
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook`)
    const check = await endAndDeliver(server, submitted.id)
    expect(receiver.requests).toHaveLength(1)
    expect(check.webhook).toMatchObject({
      status: 'pending',
      attempts: 1,
      log: [{ statusCode: null, error: expect.stringMatching(/No response within 0.3 s/) }],
    })
    expect(await advance(server, check.id, 10_000)).toMatchObject({ status: 'delivered', attempts: 2 })
  })

  it('a receiver that is down is a failure, retried', async () => {
    receiver = await startReceiver()
    const url = `${receiver.origin}/hook`
    await receiver.close()
    server = await startWebhookServer()
    const submitted = await submitWithCallback(server, url)
    const check = await endAndDeliver(server, submitted.id)
    expect(check.webhook).toMatchObject({
      status: 'pending',
      attempts: 1,
      log: [{ statusCode: null, error: expect.stringMatching(/ECONNREFUSED/) }],
    })
  })

  it('a body or timestamp altered in transit, or a stale one, fails verification', async () => {
    receiver = await startReceiver()
    server = await startWebhookServer()
    const secret = await currentSecret(server)
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook`)
    await endAndDeliver(server, submitted.id)
    const [delivery] = receiver.requests
    const header = String(delivery!.headers['x-svc-signature'])
    const [, t, v1] = SIGNATURE.exec(header)!
    const sentAt = Number(t) * 1000
    expect(await verifyWebhook(delivery!.rawBody, header, secret, sentAt)).toBe(true)

    const forged = delivery!.rawBody.replace('"completed"', '"failed"')
    expect(forged).not.toBe(delivery!.rawBody)
    expect(await verifyWebhook(forged, header, secret, sentAt)).toBe(false)
    expect(await verifyWebhook(`${delivery!.rawBody} `, header, secret, sentAt)).toBe(false)
    expect(
      await verifyWebhook(JSON.stringify(JSON.parse(delivery!.rawBody), null, 1), header, secret, sentAt),
    ).toBe(false)
    const later = `t=${Number(t) + 1},v1=${v1}`
    expect(await verifyWebhook(delivery!.rawBody, later, secret, sentAt)).toBe(false)
    expect(await verifyWebhook(delivery!.rawBody, `t=${t},v1=${'0'.repeat(64)}`, secret, sentAt)).toBe(false)
    // Stale or from the future by more than 300 s: refused, even with a valid signature.
    expect(await verifyWebhook(delivery!.rawBody, header, secret, sentAt + 300_000)).toBe(true)
    expect(await verifyWebhook(delivery!.rawBody, header, secret, sentAt + 301_000)).toBe(false)
    expect(await verifyWebhook(delivery!.rawBody, header, secret, sentAt - 301_000)).toBe(false)
  })

  it('a cancelled check sends nothing', async () => {
    receiver = await startReceiver()
    const tier = new GatedTier(false)
    server = await startWebhookServer({ tier })
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook`)
    await expect.poll(() => tier.started.length).toBeGreaterThan(0)
    const cancelled = await call(server, 'POST', `/checks/${submitted.id}/cancel`)
    expect(cancelled.json).toMatchObject({ status: 'cancelled', webhook: { status: 'skipped', attempts: 0 } })
    tier.releaseAll()
    await waitForEnd(server, submitted.id)
    for (const ms of [0, 10_000, 86_400_000]) await advance(server, submitted.id, ms)
    expect(receiver.requests).toEqual([])
    expect(await server.store.outbox.forCheck(submitted.id)).toBeNull()
    expect((await call(server, 'GET', `/checks/${submitted.id}`)).json.webhook).toMatchObject({
      status: 'skipped',
      eventId: null,
    })
  })

  it('a check without a callbackUrl has no webhook and writes no event', async () => {
    receiver = await startReceiver()
    server = await startWebhookServer()
    const res = await call(server, 'POST', '/checks', { body: { text: THREE_CLAIMS, tiers: ['t1'] } })
    expect(res.json.webhook).toBeNull()
    const check = await endAndDeliver(server, res.json.id)
    expect(check.webhook).toBeNull()
    expect(await server.store.outbox.forCheck(check.id)).toBeNull()
  })

  it('the event is written in the transaction that ends the check: no ending without its event', async () => {
    receiver = await startReceiver()
    const tier = new GatedTier(false)
    server = await startWebhookServer({ tier })
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook`)
    await expect.poll(() => tier.started.length).toBe(3)
    const outbox = server.store.outbox
    // The disk refuses the event: a trigger, set from a second connection, fails every insert into the outbox.
    const db = server.database
      ? await PostgresDatabase.open(server.database)
      : SqliteDatabase.open(join(server.dataDir, 'factdesk.db'))
    await db.root.exec(
      sql(db.root, {
        sqlite:
          "CREATE TRIGGER refuse_events BEFORE INSERT ON webhook_events BEGIN SELECT RAISE(ABORT, 'the disk is full'); END",
        postgres: `CREATE FUNCTION refuse_events() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'the disk is full'; END $$;
          CREATE TRIGGER refuse_events BEFORE INSERT ON webhook_events FOR EACH ROW EXECUTE FUNCTION refuse_events()`,
      }),
    )
    try {
      tier.releaseAll()
      await expect.poll(() => server.store.units.anyOpen(submitted.id)).toBe(false)
      await new Promise((resolve) => setTimeout(resolve, 50))
      // The ending was rolled back with the event that failed to be written.
      const check = (await call(server, 'GET', `/checks/${submitted.id}`)).json
      expect(check.status).toBe('running')
      expect(check.completedAt).toBeNull()
      expect(await outbox.forCheck(submitted.id)).toBeNull()
    } finally {
      await db.root.exec(
        sql(db.root, {
          sqlite: 'DROP TRIGGER refuse_events',
          postgres: 'DROP TRIGGER refuse_events ON webhook_events; DROP FUNCTION refuse_events()',
        }),
      )
      await db.close()
    }

    // And one ending writes exactly one event: a second event for the same check is refused by the store.
    const other = await submitWithCallback(server, `${receiver.origin}/hook`)
    await expect.poll(() => tier.started.length).toBe(6)
    const ended = await endAndDeliver(server, other.id)
    expect(ended.webhook.status).toBe('delivered')
    await expect(
      outbox.insert({
        id: 'evt_duplicate',
        organizationId: server.organizationId,
        checkId: other.id,
        type: 'check.completed',
        url: `${receiver.origin}/hook`,
        body: '{}',
        createdAt: server.clock.now().toISOString(),
      }),
    ).rejects.toThrow(/UNIQUE|unique constraint/)
    expect(receiver.requests).toHaveLength(1)
  })
})

import { describe, expect, it } from 'vitest'
import { systemClock } from '../../../../src/main/engine/base/clock'
import { verifyWebhook } from '../../../../src/shared/webhooks'
import { call, tempDir } from '../../../helpers/server'
import {
  advance,
  currentSecret,
  endAndDeliver,
  startReceiver,
  startWebhookServer,
  submitWithCallback,
  type Receiver,
  type WebhookServer,
} from './helpers'
import { closeAfterEach } from '../../../helpers/teardown'

let server: WebhookServer | undefined
let receiver: Receiver
closeAfterEach(
  () => [server, receiver],
  () => (server = undefined),
)

describe('deliveries across a restart', () => {
  it('a restart in the middle of the retry schedule continues it on schedule, with the same event, and never repeats an acknowledged one', async () => {
    receiver = await startReceiver()
    receiver.replies = [{ status: 500 }, { status: 500 }]
    const dataDir = tempDir()
    server = await startWebhookServer({ dataDir })
    const clock = server.clock
    const secret = await currentSecret(server)
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook`)
    const start = clock.now().getTime()
    await endAndDeliver(server, submitted.id)
    expect((await advance(server, submitted.id, 10_000)).attempts).toBe(2)
    expect(receiver.requests).toHaveLength(2)
    await server.close()

    // The next attempt is due 30 s after the second one: not before, even right after the start.
    server = await startWebhookServer({ dataDir, clock })
    await server.engine.webhooks.deliverDue()
    expect(receiver.requests).toHaveLength(2)
    expect((await call(server, 'GET', `/checks/${submitted.id}`)).json.webhook).toMatchObject({
      status: 'pending',
      attempts: 2,
      nextAttemptAt: new Date(start + 40_000).toISOString(),
    })
    expect((await advance(server, submitted.id, 29_999)).attempts).toBe(2)
    const done = await advance(server, submitted.id, 1)
    expect(done).toMatchObject({ status: 'delivered', attempts: 3 })
    expect(done.log.map((entry: any) => entry.statusCode)).toEqual([500, 500, 200])
    expect(receiver.requests).toHaveLength(3)
    const [first, , third] = receiver.requests
    expect(third!.headers['x-svc-delivery']).toBe(first!.headers['x-svc-delivery'])
    expect(third!.rawBody).toBe(first!.rawBody)
    expect(
      await verifyWebhook(third!.rawBody, String(third!.headers['x-svc-signature']), secret, clock.now()),
    ).toBe(true)
    await server.close()

    // Acknowledged: later engines on the same folder never send it again.
    server = await startWebhookServer({ dataDir, clock })
    await advance(server, submitted.id, 86_400_000)
    expect(receiver.requests).toHaveLength(3)
  })

  it('after a restart the worker’s own timer makes the attempts that fall due', async () => {
    receiver = await startReceiver()
    receiver.replies = [{ status: 500 }]
    const dataDir = tempDir()
    const config = { webhooks: { retryDelaysSeconds: [1] } }
    server = await startWebhookServer({ dataDir, config, clock: systemClock as any })
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook`)
    await expect.poll(() => receiver.requests.length).toBe(1)
    await expect
      .poll(async () => (await call(server!, 'GET', `/checks/${submitted.id}`)).json.webhook.attempts)
      .toBe(1)
    await server.close()
    server = await startWebhookServer({ dataDir, config, clock: systemClock as any })
    // No deliverDue here: the engine's start schedules the retry one second after the failure.
    await expect.poll(() => receiver.requests.length, { timeout: 5_000 }).toBe(2)
    await expect
      .poll(async () => (await call(server!, 'GET', `/checks/${submitted.id}`)).json.webhook.status)
      .toBe('delivered')
    expect(new Set(receiver.requests.map((r) => r.headers['x-svc-delivery'])).size).toBe(1)
  })

  it('an attempt cut short by a stop does not count: the next start makes it again', async () => {
    receiver = await startReceiver()
    receiver.replies = ['hang']
    const dataDir = tempDir()
    server = await startWebhookServer({ dataDir })
    const clock = server.clock
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook`)
    await expect.poll(() => receiver.requests.length).toBe(1)
    const stopping = Date.now()
    await server.close()
    expect(Date.now() - stopping).toBeLessThan(5_000) // not held up by the 10 s attempt timeout
    server = await startWebhookServer({ dataDir, clock })
    await server.engine.webhooks.deliverDue()
    expect(receiver.requests).toHaveLength(2)
    expect(receiver.requests[1]!.rawBody).toBe(receiver.requests[0]!.rawBody)
    expect((await call(server, 'GET', `/checks/${submitted.id}`)).json.webhook).toMatchObject({
      status: 'delivered',
      attempts: 1,
    })
  })
})

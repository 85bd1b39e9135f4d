// Webhook deliveries by replicas of a team server on one PostgreSQL database: the delivery workers of two replicas
// never make one attempt twice at once (an attempt holds its event's lease, renewed while the receiver takes its
// time), and one that dies mid-attempt leaves its event to the other once its lease has expired, whose attempt is the
// one recorded. (On SQLite one engine delivers a data folder's events: webhooks/restart.test.ts.)
import { afterEach, describe, expect, it } from 'vitest'
import { Config } from '../../../../src/shared/config'
import { systemClock } from '../../../../src/main/engine/base/clock'
import { ReportEvents } from '../../../../src/main/engine/base/events'
import { newWebhookSecret } from '../../../../src/main/engine/checks/account'
import { Store } from '../../../../src/main/engine/store'
import { WebhookDeliveries } from '../../../../src/main/engine/webhooks/deliveries'
import { postgresForTests } from '../../../helpers/postgres'
import { ORGANIZATION, seedCheck, seedOrganization } from '../../../helpers/seed'
import { startReceiver, type Receiver } from '../webhooks/helpers'

const postgres = postgresForTests()

/// Renewed every 200 ms, taken over 600 ms after the last renewal.
const LEASE_MS = 600
const CONFIG = Config.parse({ webhooks: { allowLocalTargets: true } }).webhooks

let closing: { close(): Promise<void> }[] = []
let receiver: Receiver | undefined
afterEach(async () => {
  for (const each of closing.reverse()) await each.close().catch(() => undefined) // a dead replica's store is closed
  await receiver?.close()
  ;[closing, receiver] = [[], undefined]
})

/// A replica's store and delivery worker, started; the replicas share the database's key for stored secrets.
async function replica(database: string) {
  const store = await Store.connect(database)
  const deliveries = new WebhookDeliveries(store, CONFIG, systemClock, new ReportEvents(), {
    leaseMs: LEASE_MS,
    pollMs: 50,
    timeoutMs: 30_000,
  })
  closing.push(store, { close: () => deliveries.stop() })
  deliveries.start()
  return { store, deliveries }
}

/// An event of a check that ended, due now, to the receiver; gives its id.
async function queued(store: Store, url: string): Promise<string> {
  const now = new Date().toISOString()
  await seedOrganization(store, now)
  await store.webhookSecrets.insert(ORGANIZATION, {
    id: 'whs_seeded',
    secret: newWebhookSecret(),
    createdAt: now,
    expiresAt: null,
  })
  const checkId = await seedCheck(store, now, url)
  const id = `evt_${checkId}`
  await store.outbox.insert({
    id,
    organizationId: ORGANIZATION,
    checkId,
    type: 'check.completed',
    url,
    body: JSON.stringify({ id, check: checkId }),
    createdAt: now,
  })
  return id
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await condition());) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe.skipIf(postgres.skip)('webhook deliveries of replicas on one PostgreSQL database', () => {
  it('one attempt at a time: the other replica waits while the receiver takes longer than a lease', async () => {
    const database = await postgres.database()
    receiver = await startReceiver()
    receiver.replies = [{ status: 200, delayMs: 4 * LEASE_MS }]
    const seeding = await Store.connect(database)
    closing.push(seeding)
    const id = await queued(seeding, `${receiver.origin}/hook`)
    await replica(database)
    await replica(database)
    await until(async () => (await seeding.outbox.get(id))?.status === 'delivered')
    expect(receiver.requests).toHaveLength(1)
    expect(await seeding.outbox.attempts(id)).toMatchObject([{ attempt: 1, statusCode: 200 }])
  })

  it('a replica that dies mid-attempt leaves its event to the other once its lease expires; that attempt is recorded', async () => {
    const database = await postgres.database()
    receiver = await startReceiver()
    receiver.replies = ['hang']
    const seeding = await Store.connect(database)
    closing.push(seeding)
    const id = await queued(seeding, `${receiver.origin}/hook`)
    const doomed = await replica(database)
    await until(() => receiver?.requests.length === 1)
    // It dies: its connections are gone, it renews nothing and records nothing.
    await doomed.store.close()
    const died = Date.now()
    await replica(database)
    await until(async () => (await seeding.outbox.get(id))?.status === 'delivered')
    expect(Date.now() - died).toBeGreaterThanOrEqual(LEASE_MS / 3)
    expect(receiver.requests).toHaveLength(2)
    const [first, second] = receiver.requests
    expect(second?.headers['x-svc-delivery']).toBe(first?.headers['x-svc-delivery'])
    expect(await seeding.outbox.attempts(id)).toMatchObject([{ attempt: 1, statusCode: 200 }])
  })
})

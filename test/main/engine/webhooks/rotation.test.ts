import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { verifyWebhook } from '../../../../src/shared/webhooks'
import { call } from '../../../helpers/server'
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

let server: WebhookServer
let receiver: Receiver
closeAfterEach(() => [server, receiver])

const DAY = 24 * 60 * 60 * 1000
const hmac = (secret: string, t: string, body: string) =>
  createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')

/// The t and v1 values of the request's signature header.
function signature(request: { headers: Record<string, unknown> }): {
  header: string
  t: string
  v1: string[]
} {
  const header = String(request.headers['x-svc-signature'])
  const parts = header.split(',').map((part) => part.split('='))
  return {
    header,
    t: parts.find(([key]) => key === 't')![1]!,
    v1: parts.filter(([key]) => key === 'v1').map(([, value]) => value!),
  }
}

describe('signing secret rotation', () => {
  it('for 24 hours deliveries carry the new secret’s signature first, then the old one’s; after that only the new one', async () => {
    receiver = await startReceiver()
    server = await startWebhookServer()
    const old = await currentSecret(server)
    const rotation = (await call(server, 'POST', '/webhook-secret/rotate')).json
    const rotatedAt = server.clock.now().getTime()
    expect(rotation.previousExpiresAt).toBe(new Date(rotatedAt + DAY).toISOString())
    const fresh = rotation.secret
    expect(fresh).not.toBe(old)

    // During the overlap: two v1, new first; verifies with either secret.
    const first = await submitWithCallback(server, `${receiver.origin}/hook`)
    await endAndDeliver(server, first.id)
    const during = receiver.requests[0]!
    const signed = signature(during)
    expect(signed.v1).toEqual([hmac(fresh, signed.t, during.rawBody), hmac(old, signed.t, during.rawBody)])
    const now = server.clock.now()
    expect(await verifyWebhook(during.rawBody, signed.header, fresh, now)).toBe(true)
    expect(await verifyWebhook(during.rawBody, signed.header, old, now)).toBe(true)
    expect(await verifyWebhook(during.rawBody, signed.header, [old, fresh], now)).toBe(true)
    expect(await verifyWebhook(during.rawBody, signed.header, 'whsec_someone-else', now)).toBe(false)

    // A delivery that starts inside the overlap and is retried after it ends is re-signed without the old one.
    server.clock.advance(DAY - 5_000)
    receiver.replies = [{ status: 500 }]
    const second = await submitWithCallback(server, `${receiver.origin}/hook`)
    await endAndDeliver(server, second.id)
    const beforeExpiry = receiver.requests[1]!
    expect(signature(beforeExpiry).v1).toHaveLength(2)
    expect((await advance(server, second.id, 10_000)).status).toBe('delivered')
    const afterExpiry = receiver.requests[2]!
    expect(afterExpiry.headers['x-svc-delivery']).toBe(beforeExpiry.headers['x-svc-delivery'])
    const resigned = signature(afterExpiry)
    expect(resigned.v1).toEqual([hmac(fresh, resigned.t, afterExpiry.rawBody)])
    const later = server.clock.now()
    expect(await verifyWebhook(afterExpiry.rawBody, resigned.header, fresh, later)).toBe(true)
    expect(await verifyWebhook(afterExpiry.rawBody, resigned.header, old, later)).toBe(false)

    // And a new check's delivery after the 24 hours: the new secret only.
    const third = await submitWithCallback(server, `${receiver.origin}/hook`)
    await endAndDeliver(server, third.id)
    const after = receiver.requests[3]!
    const single = signature(after)
    expect(single.v1).toEqual([hmac(fresh, single.t, after.rawBody)])
    expect(await verifyWebhook(after.rawBody, single.header, old, later)).toBe(false)
    expect(await verifyWebhook(after.rawBody, single.header, [old, fresh], later)).toBe(true)
  })
})

import ipaddr from 'ipaddr.js'
import { afterEach, describe, expect, it } from 'vitest'
import {
  failureReason,
  isLoopbackAddress,
  isRefusedAddress,
  withoutAddresses,
} from '../../../../src/main/engine/base/addresses'
import type { EngineOptions } from '../../../../src/main/engine/engine'
import { GatedTier } from '../../../helpers/tiers'
import { call, expectEnvelope, THREE_CLAIMS } from '../../../helpers/server'
import {
  advance,
  endAndDeliver,
  startReceiver,
  startWebhookServer,
  submitWithCallback,
  type Receiver,
  type WebhookServer,
} from './helpers'

let server: WebhookServer
let receivers: Receiver[] = []
afterEach(async () => {
  await server?.close()
  await Promise.all(receivers.map((r) => r.close()))
  receivers = []
})

/// 127.0.0.1 carried in other IPv6 forms: 6to4, NAT64 (well-known and local prefix), IPv4-translated. Loopback is
/// none of them, with `allowLocalTargets` or not.
const LOOPBACK_ELSEWHERE = ['2002:7f00:1::1', '64:ff9b::7f00:1', '64:ff9b:1::7f00:1', '::ffff:0:7f00:1']

/// That `decides` answers `expected` for every address, naming the one it answers otherwise.
function expectEach(decides: (address: string) => boolean, expected: boolean, addresses: string[]): void {
  for (const address of addresses) expect(decides(address), address).toBe(expected)
}

/// A resolver whose answers the test sets, like a DNS server under an attacker's control.
/// 'stall' never answers.
function fakeDns(answers: Record<string, string[] | 'stall'>) {
  const asked: string[] = []
  const resolveHost = async (hostname: string): Promise<string[]> => {
    asked.push(hostname)
    const found = answers[hostname]
    if (found === 'stall') return new Promise<string[]>(() => undefined)
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    return found
  }
  return { answers, asked, resolveHost }
}

/// Submits with `callbackUrl` and expects 422 with `message`, nothing charged; returns the response body.
async function expectRefused(target: WebhookServer, callbackUrl: string, message: RegExp): Promise<unknown> {
  const before = (await call(target, 'GET', '/credits')).json.balance
  const res = await call(target, 'POST', '/checks', {
    body: { text: THREE_CLAIMS, tiers: ['t1'], callbackUrl },
  })
  expect(res.status, callbackUrl).toBe(422)
  const error = expectEnvelope(res.json, 'unprocessable')
  expect(error.message, callbackUrl).toMatch(message)
  expect(error.details).toEqual([{ field: 'callbackUrl', message: expect.any(String) }])
  expect((await call(target, 'GET', '/credits')).json.balance).toBe(before)
  expect((await call(target, 'GET', '/checks')).json.data).toEqual([])
  return res.json
}

describe('callbackUrl at submission', () => {
  it('refuses https targets in private and other non-public ranges, written in any form (loopback off by default)', async () => {
    server = await startWebhookServer({ config: { webhooks: { allowLocalTargets: false } } })
    for (const url of [
      'https://10.0.0.5/hook',
      'https://192.168.1.10/hook',
      'https://172.16.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hook',
      'https://0.0.0.0/hook',
      'https://[fd00::1]/hook',
      'https://[fe80::1]/hook',
      'https://[::ffff:10.0.0.5]/hook',
      'https://[::ffff:7f00:1]/hook',
      'https://[64:ff9b::a00:5]/hook',
      'https://[2002:c0a8:101::1]/hook',
      'https://[::]/hook',
      'https://127.0.0.1/hook',
      'https://[::1]/hook',
      'https://localhost/hook',
      'https://0x7f000001/hook',
    ]) {
      await expectRefused(server, url, /public/)
    }
    await expectRefused(server, 'http://127.0.0.1:9/hook', /https/)
  })

  it('refuses a host name that resolves to a private or loopback address, or to a mix, naming none of its addresses', async () => {
    const dns = fakeDns({
      'private.example.test': ['10.0.0.5'],
      'mixed.example.test': ['93.184.216.34', '192.168.0.7'],
      'v6.example.test': ['2606:4700::1111', 'fd12:3456::1'],
      'nat64.example.test': ['64:ff9b::c0a8:1'],
      'loopback.example.test': ['127.0.0.1'],
      'public.example.test': ['93.184.216.34', '2606:4700::1111'],
    })
    const tier = new GatedTier(false)
    server = await startWebhookServer({
      config: { webhooks: { allowLocalTargets: false } },
      tier,
      webhooks: { resolveHost: dns.resolveHost },
    })
    // What a name resolves to is not for the client to learn (internal DNS answers): the body names no address.
    for (const name of ['private', 'mixed', 'v6', 'nat64', 'loopback']) {
      const host = `${name}.example.test`
      const body = JSON.stringify(
        await expectRefused(server, `https://${host}/hook`, /non-public address\.$/),
      )
      expect(body).toContain(`its host ${host} resolves to a non-public address.`)
      for (const address of dns.answers[host] as string[]) expect(body, host).not.toContain(address)
    }
    await expectRefused(server, 'https://unknown.example.test/hook', /does not resolve \(ENOTFOUND\)/)
    expect(dns.asked).toContain('private.example.test')

    const accepted = await call(server, 'POST', '/checks', {
      body: { text: THREE_CLAIMS, tiers: ['t1'], callbackUrl: 'https://public.example.test/hook' },
    })
    expect(accepted.status).toBe(202)
    expect(accepted.json.callbackUrl).toBe('https://public.example.test/hook')
    await call(server, 'POST', `/checks/${accepted.json.id}/cancel`)
  })

  it('with loopback allowed: loopback http(s) is accepted, private ranges stay refused', async () => {
    const dns = fakeDns({
      'private.example.test': ['10.0.0.5'],
      'six-to-four.example.test': [LOOPBACK_ELSEWHERE[0] as string],
      localhost: ['127.0.0.1', '::1'],
    })
    server = await startWebhookServer({
      tier: new GatedTier(false),
      webhooks: { resolveHost: dns.resolveHost },
    })
    for (const url of [
      'https://10.0.0.5/hook',
      'http://10.0.0.5/hook',
      'https://private.example.test/hook',
      'http://six-to-four.example.test/hook',
      ...LOOPBACK_ELSEWHERE.map((address) => `http://[${address}]:9/hook`),
    ]) {
      await expectRefused(server, url, /public|https/)
    }
    for (const url of [
      'http://127.0.0.1:9/hook',
      'https://127.0.0.2/hook',
      'http://localhost:9/hook',
      'http://[::1]:9/',
    ]) {
      const res = await call(server, 'POST', '/checks', {
        body: { text: THREE_CLAIMS, tiers: ['t1'], callbackUrl: url },
      })
      expect(res.status, url).toBe(202)
      await call(server, 'POST', `/checks/${res.json.id}/cancel`)
    }
  })

  it('the system resolver: a name that does not resolve is refused, localhost resolves and is delivered to', async () => {
    const receiver = await startReceiver()
    receivers.push(receiver)
    server = await startWebhookServer()
    await expectRefused(server, 'https://nowhere.invalid/hook', /nowhere\.invalid does not resolve/)
    const submitted = await submitWithCallback(server, `http://localhost:${receiver.port}/hook`)
    expect((await endAndDeliver(server, submitted.id)).webhook.status).toBe('delivered')
    expect(receiver.requests).toHaveLength(1)
  })
})

describe('callbackUrl at delivery', () => {
  /// A check ended, and its webhook tried once, at `localhost` resolving to `addresses`, on a port where nothing
  /// listens at any of them.
  async function deliveredWhereNothingListens(addresses: string[]) {
    const closed = await startReceiver(addresses[0])
    await closed.close()
    const dns = fakeDns({ localhost: addresses })
    const tier = new GatedTier(false)
    server = await startWebhookServer({ tier, webhooks: { resolveHost: dns.resolveHost } })
    const submitted = await submitWithCallback(server, `http://localhost:${closed.port}/hook`)
    tier.releaseAll()
    return endAndDeliver(server, submitted.id)
  }

  /// A check submitted while `localhost` resolves to the receiver, and its webhook tried once after the name's
  /// answer turned to `later`; `webhooks`: delivery options besides the fake resolver.
  async function deliveredOnceTurned(later: string[] | 'stall', webhooks: EngineOptions['webhooks'] = {}) {
    const receiver = await startReceiver()
    receivers.push(receiver)
    const dns = fakeDns({ localhost: ['127.0.0.1'] })
    const tier = new GatedTier(false)
    server = await startWebhookServer({ tier, webhooks: { resolveHost: dns.resolveHost, ...webhooks } })
    const submitted = await submitWithCallback(server, `http://localhost:${receiver.port}/hook`)
    dns.answers.localhost = later
    tier.releaseAll()
    return { check: await endAndDeliver(server, submitted.id), receiver, dns }
  }

  it('a DNS answer that turns private after submission is refused before connecting, and the retry re-checks it', async () => {
    const { check, receiver, dns } = await deliveredOnceTurned(['10.0.0.5'])
    expect(receiver.requests).toEqual([])
    expect(check.webhook).toMatchObject({
      status: 'pending',
      attempts: 1,
      log: [{ statusCode: null, error: 'host localhost resolves to a non-public address' }],
    })

    dns.answers.localhost = ['127.0.0.1', '169.254.169.254']
    expect(await advance(server, check.id, 10_000)).toMatchObject({
      attempts: 2,
      log: [{}, { error: 'host localhost resolves to a non-public address' }],
    })
    expect(receiver.requests).toEqual([])
    // Neither the check's view nor the stored attempts say what the name resolved to.
    const stored = JSON.stringify([
      (await call(server, 'GET', `/checks/${check.id}`)).json,
      server.store.outbox.attempts((await server.store.outbox.forCheck(check.id))!.id),
    ])
    for (const address of ['10.0.0.5', '169.254.169.254']) expect(stored).not.toContain(address)

    dns.answers.localhost = ['127.0.0.1']
    expect(await advance(server, check.id, 30_000)).toMatchObject({ status: 'delivered', attempts: 3 })
    expect(receiver.requests).toHaveLength(1)
    expect(dns.asked.filter((host) => host === 'localhost')).toHaveLength(4) // submission + 3 attempts
  })

  it('a refused connection is recorded by its code, without the address the name resolved to', async () => {
    // Node's error would say "connect ECONNREFUSED 127.0.0.3:…".
    const check = await deliveredWhereNothingListens(['127.0.0.3'])
    expect(check.webhook).toMatchObject({
      status: 'pending',
      attempts: 1,
      log: [{ statusCode: null, error: expect.stringMatching(/^connect ECONNREFUSED /) }],
    })
    const event = (await server.store.outbox.forCheck(check.id))!
    const stored = JSON.stringify([
      (await call(server, 'GET', `/checks/${check.id}`)).json,
      event,
      server.store.outbox.attempts(event.id),
    ])
    expect(stored).toContain('ECONNREFUSED')
    expect(stored).not.toContain('127.0.0.3')
  })

  it("a name whose every address refuses the connection is recorded by the attempts' codes, naming no address", async () => {
    // Node tries both and gives an AggregateError with an empty message.
    const check = await deliveredWhereNothingListens(['127.0.0.3', '127.0.0.4'])
    expect(check.webhook).toMatchObject({
      status: 'pending',
      attempts: 1,
      log: [{ statusCode: null, error: 'could not connect (2 addresses tried: ECONNREFUSED)' }],
    })
    const event = (await server.store.outbox.forCheck(check.id))!
    expect(await server.store.outbox.attempts(event.id)).toMatchObject([
      { error: 'could not connect (2 addresses tried: ECONNREFUSED)' },
    ])
  })

  it('a resolver that does not answer within the attempt timeout fails the attempt', async () => {
    const { check, receiver } = await deliveredOnceTurned('stall', { timeoutMs: 200 })
    expect(receiver.requests).toEqual([])
    expect(check.webhook).toMatchObject({
      status: 'pending',
      attempts: 1,
      log: [{ statusCode: null, error: expect.stringMatching(/No response within 0.2 s/) }],
    })
  })

  it('connects to the address it checked, not to a later DNS answer', async () => {
    // Only 127.0.0.2 listens; the system resolver would say 127.0.0.1 for localhost.
    const receiver = await startReceiver('127.0.0.2')
    receivers.push(receiver)
    const dns = fakeDns({ localhost: ['127.0.0.2'] })
    server = await startWebhookServer({ webhooks: { resolveHost: dns.resolveHost } })
    const submitted = await submitWithCallback(server, `http://localhost:${receiver.port}/hook`)
    expect((await endAndDeliver(server, submitted.id)).webhook.status).toBe('delivered')
    expect(receiver.requests).toHaveLength(1)
    expect(receiver.requests[0]!.headers.host).toBe(`localhost:${receiver.port}`)
  })

  it('a loopback target is refused at delivery once the configuration no longer allows it', async () => {
    const receiver = await startReceiver()
    receivers.push(receiver)
    server = await startWebhookServer({ tier: new GatedTier(false) })
    const submitted = await submitWithCallback(server, `${receiver.origin}/hook`)
    await server.close()
    server = await startWebhookServer({
      dataDir: server.dataDir,
      clock: server.clock,
      config: { webhooks: { allowLocalTargets: false } },
    })
    const check = await endAndDeliver(server, submitted.id)
    expect(receiver.requests).toEqual([])
    expect(check.webhook.log[0].error).toMatch(/callbackUrl must be an https URL/)
  })
})

describe('address classes', () => {
  it('refuses every non-public address, in every spelling', () => {
    expectEach(isRefusedAddress, true, [
      '10.1.2.3',
      '172.31.255.255',
      '192.168.0.1',
      '127.0.0.1',
      '169.254.1.1',
      '100.100.100.100',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::7f00:1',
      '::ffff:10.0.0.5',
      '::ffff:a00:5',
      '::ffff:c0a8:101',
      '0:0:0:0:0:ffff:7f00:1',
      '64:ff9b::a00:5',
      '2002:a00:5::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fe80::1%eth0',
      'fec0::1',
      'ff02::1',
      '2001:db8::1',
      '[fd00::1]',
      'not-an-address',
    ])
    expectEach(isRefusedAddress, false, [
      '93.184.216.34',
      '8.8.8.8',
      '172.32.0.1',
      '2606:4700::1111',
      '2a00:1450:4001:80b::200e',
      '::ffff:93.184.216.34',
      '64:ff9b::5db8:d822',
    ])
  })

  it('refuses every special range ipaddr.js knows, an IPv4 one also inside IPv6, at both ends', () => {
    type Table = Record<string, [ipaddr.IPv4 | ipaddr.IPv6, number] | [ipaddr.IPv4 | ipaddr.IPv6, number][]>
    const tableOf = (prototype: object) => (prototype as { SpecialRanges: Table }).SpecialRanges
    let ranges = 0
    for (const table of [tableOf(ipaddr.IPv4.prototype), tableOf(ipaddr.IPv6.prototype)]) {
      for (const [name, entry] of Object.entries(table)) {
        const subnets = Array.isArray(entry[0]) ? (entry as [ipaddr.IPv4 | ipaddr.IPv6, number][]) : [entry]
        for (const [network, bits] of subnets as [ipaddr.IPv4 | ipaddr.IPv6, number][]) {
          ranges++
          const cidr = `${network.toString()}/${bits}`
          const ends =
            network instanceof ipaddr.IPv4
              ? [ipaddr.IPv4.networkAddressFromCIDR(cidr), ipaddr.IPv4.broadcastAddressFromCIDR(cidr)]
              : [ipaddr.IPv6.networkAddressFromCIDR(cidr), ipaddr.IPv6.broadcastAddressFromCIDR(cidr)]
          for (const end of ends) {
            const spellings = [end.toString()]
            if (end instanceof ipaddr.IPv4) {
              const [a = 0, b = 0, c = 0, d = 0] = end.octets
              const hex = (high: number, low: number) => ((high << 8) | low).toString(16)
              spellings.push(
                `::ffff:${end.toString()}`,
                `::ffff:${hex(a, b)}:${hex(c, d)}`,
                `[::ffff:${end.toString()}]`,
                `64:ff9b::${end.toString()}`,
                `2002:${hex(a, b)}:${hex(c, d)}::1`,
              )
            }
            for (const spelling of spellings)
              expect(isRefusedAddress(spelling), `${name} ${cidr}: ${spelling}`).toBe(true)
          }
        }
      }
    }
    expect(ranges).toBeGreaterThan(30)
    // Ranges the hand-written lists missed.
    expectEach(isRefusedAddress, true, [
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '100.64.0.1',
      '100.127.255.254',
    ])
    expectEach(isRefusedAddress, false, [
      '2002:808:808::1',
      '64:ff9b::8.8.8.8',
      '::ffff:808:808',
      '100.128.0.1',
      '2001:4860::8888',
    ])
  })

  it('knows loopback', () => {
    expectEach(isLoopbackAddress, true, [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
    ])
    expectEach(isLoopbackAddress, false, [
      '10.0.0.1',
      '::',
      '::2',
      '128.0.0.1',
      'fe80::1',
      ...LOOPBACK_ELSEWHERE,
    ])
    expectEach(isRefusedAddress, true, LOOPBACK_ELSEWHERE)
  })

  it('hides every address in an error text, however written, but the one given as the host', () => {
    const byName = 'https://api.example.test/v1'
    const cases: [text: string, hidden: string][] = [
      ['connect ECONNREFUSED 10.0.0.5:443', 'connect ECONNREFUSED [address hidden]:443'],
      ['connect ECONNREFUSED [fd00::1]:443.', 'connect ECONNREFUSED [address hidden]:443.'],
      ['connect ETIMEDOUT fd00::1:443', 'connect ETIMEDOUT [address hidden]'],
      [
        'Connect Timeout Error (attempted addresses: 10.0.0.5:443, ::ffff:10.0.0.6:443, timeout: 10000ms)',
        'Connect Timeout Error (attempted addresses: [address hidden]:443, [address hidden]:443, timeout: 10000ms)',
      ],
      ['no route to 169.254.169.254.', 'no route to [address hidden].'],
      [
        'HTTP 404: Foo::bar at 2026-01-01T10:00:00Z (deadbeef)',
        'HTTP 404: Foo::bar at 2026-01-01T10:00:00Z (deadbeef)',
      ],
    ]
    for (const [text, hidden] of cases) expect(withoutAddresses(text, byName), text).toBe(hidden)
    expect(withoutAddresses('connect ECONNREFUSED 10.0.0.5:443', 'https://10.0.0.5/')).toContain(
      '10.0.0.5:443',
    )
    expect(withoutAddresses('connect ECONNREFUSED ::1:443', 'https://[::1]/hook')).toContain('::1:443')
  })

  it("says a failed request's cause, and the codes of attempts at several addresses, naming none", () => {
    const attempt = (code: string, address: string) =>
      Object.assign(new Error(`connect ${code} ${address}:443`), { code, address, port: 443 })
    // undici's fetch: a TypeError whose cause is Node's AggregateError (empty message) of one error per address.
    const undici = new TypeError('fetch failed', {
      cause: new AggregateError([
        attempt('ECONNREFUSED', '10.0.0.5'),
        attempt('ETIMEDOUT', 'fd00::1'),
        attempt('ECONNREFUSED', '10.0.0.6'),
      ]),
    })
    expect(failureReason(undici, 'https://api.example.test/')).toBe(
      'fetch failed: could not connect (3 addresses tried: ECONNREFUSED, ETIMEDOUT)',
    )
    expect(failureReason(attempt('ECONNREFUSED', '10.0.0.5'), 'https://api.example.test/')).toBe(
      'connect ECONNREFUSED [address hidden]:443',
    )
  })
})

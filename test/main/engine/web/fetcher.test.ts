import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FetchRefused, SafeFetcher } from '../../../../src/main/engine/web'
import { FakeWiki } from '../../../helpers/fakeWiki'

// No request here may leave loopback: hosts are resolved by an injected resolver, and private or metadata
// addresses are refused before any connection is opened (`connected` records every connection attempt).

/// 127.0.0.1 in 6to4, NAT64 (two prefixes) and IPv4-translated form: none of them is loopback.
const LOOPBACK_ELSEWHERE = ['2002:7f00:1::1', '64:ff9b::7f00:1', '64:ff9b:1::7f00:1', '::ffff:0:7f00:1']

let wiki: FakeWiki
beforeAll(async () => {
  wiki = await new FakeWiki().start()
  wiki.pages.set('/plain', { body: 'Just some text.', contentType: 'text/plain' })
  wiki.pages.set('/binary', { body: 'x', contentType: 'application/octet-stream' })
  wiki.pages.set('/big', { body: 'a'.repeat(5000), contentType: 'text/plain' })
  wiki.pages.set('/to-private', { redirect: 'http://10.0.0.1/secret' })
  wiki.pages.set('/to-metadata', { redirect: 'http://169.254.169.254/latest/meta-data/' })
  wiki.pages.set('/to-rebind', { redirect: '/plain' })
  for (let i = 0; i < 5; i++) wiki.pages.set(`/hop${i}`, { redirect: `/hop${i + 1}` })
  wiki.pages.set('/hop5', { body: 'end', contentType: 'text/plain' })
  wiki.pages.set('/hop-ok0', { redirect: '/hop3' })
  for (const [at, address] of LOOPBACK_ELSEWHERE.entries()) {
    wiki.pages.set(`/to-loopback-elsewhere${at}`, { redirect: `http://[${address}]/plain` })
  }
})
afterAll(() => wiki.close())

/// Resolves test host names only: *.loop.test to loopback, evil.test to a private address.
const resolver = async (host: string): Promise<string[]> => {
  if (host.endsWith('loop.test')) return ['127.0.0.1']
  if (host === 'pair.test') return ['127.0.0.2', '127.0.0.3']
  if (host === 'evil.test') return ['10.0.0.1']
  if (host === 'mixed.test') return ['127.0.0.1', '192.168.1.10']
  if (host === 'meta.test') return ['169.254.169.254']
  throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
}

const fetcher = (allowLocalTargets: boolean, extra: Partial<SafeFetcher['options']> = {}) =>
  new SafeFetcher({ allowLocalTargets, resolveHost: resolver, ...extra })

async function refusal(f: SafeFetcher, url: string): Promise<FetchRefused> {
  const error = await f.fetch(url).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(FetchRefused)
  return error as FetchRefused
}

describe('the safe fetcher', () => {
  it('fetches plain text from loopback only when local targets are allowed', async () => {
    const f = fetcher(true)
    const page = await f.fetch(`${wiki.origin}/plain`)
    expect(page).toMatchObject({ contentType: 'text/plain', body: 'Just some text.' })
  })

  it('refuses 127.0.0.1 with allowLocalTargets off, before connecting', async () => {
    const before = wiki.requests.length
    const f = fetcher(false)
    expect((await refusal(f, `${wiki.origin}/plain`)).reason).toBe('address')
    const port = new URL(wiki.origin).port
    expect((await refusal(f, `http://a.loop.test:${port}/plain`)).reason).toBe('address')
    expect((await refusal(f, `http://[::1]:${port}/plain`)).reason).toBe('address')
    expect((await refusal(f, `http://[::ffff:127.0.0.1]:${port}/plain`)).reason).toBe('address')
    expect(f.connected).toEqual([])
    expect(wiki.requests.length).toBe(before)
  })

  it.each([
    'http://10.0.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://192.168.0.1/',
    'http://[fd00::1]/',
    'http://evil.test/',
    'http://meta.test/',
    'http://mixed.test/',
    'http://nowhere.test/',
  ])('never connects to %s, even with local targets allowed', async (url) => {
    const f = fetcher(true)
    expect((await refusal(f, url)).reason).toBe('address')
    expect(f.connected).toEqual([])
  })

  it('names no address a host name resolved to, in a refusal or a failed connection; an address given stays', async () => {
    const f = fetcher(true)
    for (const host of ['evil.test', 'mixed.test', 'meta.test']) {
      const { message } = await refusal(f, `http://${host}/`)
      expect(message).toBe(`host ${host} resolves to a non-public address`)
    }
    expect((await refusal(f, 'http://10.0.0.1/')).message).toContain('(10.0.0.1)')
    // Nothing listens on this port; a.loop.test resolves to 127.0.0.1, which Node's error would name.
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const failed = await refusal(f, `http://a.loop.test:${port}/`)
    expect(failed).toMatchObject({ reason: 'network', message: expect.stringContaining('ECONNREFUSED') })
    expect(failed.message).not.toContain('127.0.0.1')
    expect((await refusal(f, `http://127.0.0.1:${port}/`)).message).toContain(`127.0.0.1:${port}`)
  })

  it("says why a host fails on every address it resolves to, by the attempts' codes, naming no address", async () => {
    // Nothing listens on this port at 127.0.0.2 or 127.0.0.3: Node tries both and gives an AggregateError with an
    // empty message, each attempt's error naming its address.
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.2', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const failed = await refusal(fetcher(true), `http://pair.test:${port}/`)
    expect(failed).toMatchObject({
      reason: 'network',
      message: 'fetch failed: could not connect (2 addresses tried: ECONNREFUSED)',
    })
  })

  it.each(['file:///etc/passwd', 'ftp://a.loop.test/x', 'gopher://a.loop.test/', 'not a url'])(
    'refuses the scheme of %s',
    async (url) => {
      const f = fetcher(true)
      expect((await refusal(f, url)).reason).toBe('scheme')
      expect(f.connected).toEqual([])
    },
  )

  it('with local targets allowed, refuses loopback written in another IPv6 form, given or redirected to', async () => {
    const f = fetcher(true)
    const port = new URL(wiki.origin).port
    for (const [at, address] of LOOPBACK_ELSEWHERE.entries()) {
      expect((await refusal(f, `http://[${address}]:${port}/plain`)).reason, address).toBe('address')
      const redirected = `${wiki.origin}/to-loopback-elsewhere${at}`
      expect((await refusal(f, redirected)).reason, address).toBe('address')
    }
    expect(f.connected).toEqual(
      LOOPBACK_ELSEWHERE.map((_, at) => `${wiki.origin}/to-loopback-elsewhere${at}`),
    )
  })

  it.each(['/to-private', '/to-metadata'])(
    'checks every redirect hop: %s is never followed',
    async (path) => {
      const f = fetcher(true)
      expect((await refusal(f, `${wiki.origin}${path}`)).reason).toBe('address')
      expect(f.connected).toEqual([`${wiki.origin}${path}`])
    },
  )

  it("sends the caller's headers to their own origin only, and turns a POST redirected by 303 into a GET", async () => {
    const seen: { method: string; path: string; key: string | undefined; body: string }[] = []
    const other = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        seen.push({
          method: request.method ?? '',
          path: request.url ?? '',
          key: request.headers['x-subscription-token'] as string | undefined,
          body,
        })
        if (request.url === '/same') {
          response.writeHead(303, { location: '/elsewhere' }).end()
          return
        }
        if (request.url === '/elsewhere') {
          response.writeHead(302, { location: `${wiki.origin}/plain` }).end()
          return
        }
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
      })
    })
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
    try {
      const origin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`
      const page = await fetcher(true).fetch(`${origin}/same`, {
        method: 'POST',
        body: '{"q":"x"}',
        headers: { 'x-subscription-token': 'secret-key', 'content-type': 'application/json' },
      })
      expect(page.body).toBe('Just some text.')
      expect(seen).toEqual([
        { method: 'POST', path: '/same', key: 'secret-key', body: '{"q":"x"}' },
        { method: 'GET', path: '/elsewhere', key: 'secret-key', body: '' },
      ])
      // The third hop went to another origin (the wiki's port): without the key.
      expect(wiki.requests.at(-1)).toBe('/plain')
      expect(wiki.headers.at(-1)?.['x-subscription-token']).toBeUndefined()
    } finally {
      other.close()
    }
  })

  it('follows at most three redirects', async () => {
    const f = fetcher(true)
    expect((await f.fetch(`${wiki.origin}/hop-ok0`)).body).toBe('end')
    expect((await f.fetch(`${wiki.origin}/hop2`)).url).toBe(`${wiki.origin}/hop5`)
    expect((await refusal(f, `${wiki.origin}/hop0`)).reason).toBe('redirects')
  })

  it('caps size, refuses other content types and HTTP errors', async () => {
    expect((await refusal(fetcher(true, { maxBytes: 1000 }), `${wiki.origin}/big`)).reason).toBe('size')
    expect((await refusal(fetcher(true), `${wiki.origin}/binary`)).reason).toBe('type')
    expect((await refusal(fetcher(true), `${wiki.origin}/missing`)).reason).toBe('status')
  })

  it('gives up after its time cap', async () => {
    const { createServer } = await import('node:http')
    const slow = createServer(() => undefined)
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve))
    const port = (slow.address() as { port: number }).port
    try {
      const error = await refusal(fetcher(true, { timeoutMs: 200 }), `http://127.0.0.1:${port}/`)
      expect(error.reason).toBe('timeout')
    } finally {
      slow.closeAllConnections()
      slow.close()
    }
  })
})

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { Config } from '../../../../src/shared/config'
import { Web } from '../../../../src/main/engine/web'

/// A site on 127.0.0.1 that answers every page after a pause and counts the requests it holds at once.
async function site(): Promise<{ origin: string; most: () => number; server: Server }> {
  let open = 0
  let most = 0
  const server = createServer((_request, response) => {
    most = Math.max(most, ++open)
    setTimeout(() => {
      open--
      response.writeHead(200, { 'content-type': 'text/html' })
      response.end('<html><body><p>A page of this site.</p></body></html>')
    }, 40)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, most: () => most, server }
}

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0))
    await new Promise((resolve) => {
      server.closeAllConnections()
      server.close(resolve)
    })
})

describe('reading pages', () => {
  it('reads in parallel, at most two pages at once from one site, every page in its order', async () => {
    const [one, two] = [await site(), await site()]
    servers.push(one.server, two.server)
    const web = new Web(Config.parse({ web: { allowLocalTargets: true } }))
    const urls = [
      ...[1, 2, 3, 4, 5].map((n) => `${one.origin}/page-${n}`),
      ...[1, 2, 3].map((n) => `${two.origin}/page-${n}`),
    ]
    const { sources, skipped } = await web.read(urls)
    expect(skipped).toEqual([])
    expect(sources.map((source) => source.url)).toEqual(urls)
    expect(one.most()).toBe(2)
    expect(two.most()).toBe(2)
  })
})

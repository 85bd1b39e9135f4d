import { afterEach, describe, expect, it, vi } from 'vitest'
import { PageEventStream } from '../../../src/renderer/src/bridge/events'
import { startProxy, type Proxy } from '../../main/remote/proxy'
import { call, startServer, type TestServer } from '../../helpers/server'

let server: TestServer | undefined
let proxy: Proxy | undefined
let stream: PageEventStream | undefined
afterEach(async () => {
  stream?.close()
  await proxy?.close()
  await server?.close()
  server = proxy = stream = undefined
})

/// Waits until `ready` holds (the stream reconnects after 3 s).
const until = (ready: () => boolean): Promise<void> =>
  vi.waitFor(() => expect(ready()).toBe(true), { timeout: 15_000, interval: 20 })

const isEvents = (request: { path: string }): boolean => request.path.endsWith('/events')

// The page's event stream, read with fetch so that it can send the page's key, against the real server (behind a
// proxy that can cut it, as a network does).
describe('the page’s event stream', () => {
  it('sends its headers, reconnects after a break with Last-Event-ID and hears what it missed', async () => {
    server = await startServer()
    proxy = await startProxy(server.origin)
    const token = server.read
    const heard: { data: any; id: string }[] = []
    let opened = 0
    let broken = 0
    stream = new PageEventStream({ fetch }, `${proxy.api}/events`, () => ({
      Authorization: `Bearer ${token}`,
    }))
    stream.onopen = () => opened++
    stream.onerror = () => broken++
    stream.onmessage = (event) => heard.push({ data: JSON.parse(event.data), id: event.lastEventId })
    await until(() => opened === 1)
    expect(proxy.seen.filter(isEvents)[0]?.headers.authorization).toBe(`Bearer ${token}`)
    const completed = (checkId: string) => () =>
      heard.some(
        ({ data }) => data.type === 'check' && data.check.id === checkId && data.check.status === 'completed',
      )

    const first = await call(server, 'POST', '/checks', {
      body: { text: 'Rome is in Italy.', tiers: ['t1'] },
    })
    await until(completed(first.json.id))
    const lastId = heard.at(-1)?.id
    expect(lastId).toMatch(/.+/)

    proxy.cut(isEvents)
    await until(() => broken === 1)
    expect(stream.readyState).toBe(0) // connecting again, by itself
    const missed = await call(server, 'POST', '/checks', {
      body: { text: 'Paris is in France.', tiers: ['t1'] },
    })
    await until(completed(missed.json.id))
    expect(opened).toBe(2)
    const again = proxy.seen.filter(isEvents)
    expect(again).toHaveLength(2)
    expect(again[1]?.headers['last-event-id']).toBe(lastId)
    expect(again[1]?.headers.authorization).toBe(`Bearer ${token}`)
  })

  it('gives up on an answer that is not a stream, and stops when closed', async () => {
    server = await startServer()
    proxy = await startProxy(server.origin)
    const errors: number[] = []
    stream = new PageEventStream({ fetch }, `${proxy.api}/events`, () => ({}))
    stream.onopen = () => errors.push(-1)
    stream.onerror = () => errors.push(stream?.readyState ?? -2)
    await until(() => errors.length > 0)
    expect(errors).toEqual([2]) // CLOSED: the 401 is final

    const token = server.read
    let opened = 0
    stream = new PageEventStream({ fetch }, `${proxy.api}/events`, () => ({
      Authorization: `Bearer ${token}`,
    }))
    stream.onopen = () => opened++
    await until(() => opened === 1)
    stream.close()
    expect(stream.readyState).toBe(2)
  })
})

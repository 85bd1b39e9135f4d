import type { ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { Hono } from 'hono'

/// How long a stop waits for the answers in flight before it cuts their connections.
const CLOSE_GRACE_MS = 10_000

/// A running HTTP server.
export interface Listening {
  /// Origin the server answers on, e.g. `http://127.0.0.1:8787`.
  origin: string
  /// Stops taking requests, ends the answers that never end by themselves (event streams, on the signal the app
  /// was made with), lets the others finish for up to 10 s, then closes every connection.
  close(): Promise<void>
}

/// Starts serving the app that `makeApp` makes on host:port (port 0 picks a free one) and resolves once it
/// accepts connections. `stopping` is aborted when `close` begins.
export function listen(
  makeApp: (stopping: AbortSignal) => Hono,
  host: string,
  port: number,
): Promise<Listening> {
  const stopping = new AbortController()
  const app = makeApp(stopping.signal)
  const answering = new Set<ServerResponse>()
  // Idle keep-alive connections, and ones a browser opened ahead and never used, would hold the close open: once
  // no answer is in flight, every connection left is closed.
  let settle = (): void => undefined
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info: AddressInfo) => {
      const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address
      resolve({
        origin: `http://${shownHost}:${info.port}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done())
            stopping.abort()
            if (!('closeAllConnections' in server)) return
            settle = () => {
              server.closeIdleConnections()
              if (answering.size === 0) server.closeAllConnections()
            }
            settle()
            setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref()
          }),
      })
    })
    server.on('request', (_request: unknown, response: ServerResponse) => {
      answering.add(response)
      response.once('close', () => {
        answering.delete(response)
        settle()
      })
    })
    server.once('error', reject)
  })
}

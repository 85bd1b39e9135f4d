import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { Hono } from 'hono'

const CLOSE_GRACE_MS = 1000

/// A running HTTP server.
export interface Listening {
  /// Origin the server answers on, e.g. `http://127.0.0.1:8787`.
  origin: string
  close(): Promise<void>
}

/// Starts serving `app` on host:port (port 0 picks a free one) and resolves once it accepts connections.
export function listen(app: Hono, host: string, port: number): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, hostname: host, port }, (info: AddressInfo) => {
      const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address
      resolve({
        origin: `http://${shownHost}:${info.port}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done())
            // Idle keep-alive connections, and ones a browser opened ahead and never used, would hold the close
            // open: drop idle ones now and, after a moment for answers in flight, all of them.
            if ('closeIdleConnections' in server) {
              server.closeIdleConnections()
              setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref()
            }
          }),
      })
    })
    server.once('error', reject)
  })
}

import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import type { Hono } from 'hono'

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
            // Idle keep-alive connections would hold the close open.
            if ('closeIdleConnections' in server) server.closeIdleConnections()
          }),
      })
    })
    server.once('error', reject)
  })
}

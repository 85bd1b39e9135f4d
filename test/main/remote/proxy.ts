import { createServer, request as forward, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

/// What the proxy does with one request: pass it on, pass it on but drop the answer (the service did the work;
/// the client sees a lost connection), pass it on with each piece of the answer held `lagMs` (a slow stream), or
/// answer itself without passing it on.
export type Plan =
  | 'forward'
  | 'drop-answer'
  | { lagMs: number }
  | { status: number; headers?: Record<string, string>; body?: string }

export interface SeenRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
}

export interface Proxy {
  /// The proxy's URL for the upstream's `/api/v1`.
  api: string
  readonly seen: SeenRequest[]
  /// Decides each request's fate; by default every one is forwarded.
  plan: (request: SeenRequest) => Plan
  /// Breaks the connections of the forwarded requests `match` picks whose answers are still coming (a stream
  /// cut by the network).
  cut(match: (request: SeenRequest) => boolean): void
  close(): Promise<void>
}

/// A tiny HTTP proxy on 127.0.0.1 in front of `upstream` (an origin), for failures between the app and a
/// remote service.
export async function startProxy(upstream: string): Promise<Proxy> {
  const target = new URL(upstream)
  /// The forwarded requests not yet answered in full, each with what breaks both of its connections.
  const forwarding = new Map<SeenRequest, () => void>()
  const proxy: Proxy = {
    api: '',
    seen: [],
    plan: () => 'forward',
    cut: (match) => {
      for (const [request, cut] of forwarding) if (match(request)) cut()
    },
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
  const server = createServer((req, res) => {
    const seen = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers }
    proxy.seen.push(seen)
    const plan = proxy.plan(seen)
    if (typeof plan === 'object' && 'status' in plan) {
      req.resume()
      res.writeHead(plan.status, { 'Content-Type': 'application/json', ...plan.headers }).end(plan.body ?? '')
      return
    }
    const upstreamRequest = forward(
      {
        host: target.hostname,
        port: target.port,
        method: seen.method,
        path: seen.path,
        // As a reverse proxy does by default (nginx's `proxy_set_header Host $proxy_host`): the service answers
        // only its own host names.
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        if (plan === 'drop-answer') {
          answer.resume()
          answer.once('end', () => res.socket?.destroy())
          return
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.on('error', () => res.destroy())
        if (typeof plan === 'object') {
          // Each piece is written `lagMs` after it came, in order.
          answer.on('data', (chunk: Buffer) => void setTimeout(() => res.write(chunk), plan.lagMs))
          answer.once('end', () => void setTimeout(() => res.end(), plan.lagMs))
        } else answer.pipe(res)
      },
    )
    upstreamRequest.on('error', () => res.destroy())
    forwarding.set(seen, () => {
      upstreamRequest.destroy()
      res.destroy()
    })
    res.once('close', () => forwarding.delete(seen))
    req.pipe(upstreamRequest)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  proxy.api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`
  return proxy
}

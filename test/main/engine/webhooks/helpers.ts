import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { ConfigInput } from '../../../../src/shared/config'
import { ManualClock } from '../../../../src/main/engine/base/clock'
import type { EngineOptions } from '../../../../src/main/engine/engine'
import type { Store } from '../../../../src/main/engine/store'
import { GatedTier } from '../../../helpers/tiers'
import {
  call,
  startServer,
  tempDir,
  THREE_CLAIMS,
  waitForEnd,
  type TestServer,
} from '../../../helpers/server'

/// A request as the receiver got it: the raw body exactly as sent, and the headers.
export interface Received {
  method: string
  path: string
  headers: IncomingHttpHeaders
  rawBody: string
  /// The parsed body.
  json: any
}

/// What the receiver does with a request: answer with a status (and headers), or never answer.
export type Reply = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang'

export interface Receiver {
  /// http://HOST:PORT
  origin: string
  port: number
  requests: Received[]
  /// Replies in order, one per request; once used up, `fallback` answers.
  replies: Reply[]
  fallback: Reply
  close(): Promise<void>
}

/// A real webhook receiver on a loopback address that records every request.
export async function startReceiver(host = '127.0.0.1', port = 0): Promise<Receiver> {
  const sockets = new Set<Socket>()
  const hanging: ServerResponse[] = []
  const receiver: Receiver = {
    origin: '',
    port: 0,
    requests: [],
    replies: [],
    fallback: { status: 200 },
    close: () =>
      new Promise((resolve) => {
        for (const response of hanging) response.destroy()
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8')
      let json: unknown = null
      try {
        json = JSON.parse(rawBody)
      } catch {
        json = null
      }
      receiver.requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        rawBody,
        json,
      })
      const reply = receiver.replies.shift() ?? receiver.fallback
      if (reply === 'hang') {
        hanging.push(response)
        return
      }
      setTimeout(() => {
        response.writeHead(reply.status, reply.headers)
        response.end('thanks')
      }, reply.delayMs ?? 0)
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(port, host, resolve))
  receiver.port = (server.address() as AddressInfo).port
  receiver.origin = `http://${host}:${receiver.port}`
  return receiver
}

export interface WebhookServer extends TestServer {
  clock: ManualClock
  /// The engine's store, to look behind the API.
  store: Store
}

/// Starts the engine and the REST API on 127.0.0.1 like `startServer`, with a manual clock, loopback webhook
/// targets allowed (unless the config says otherwise) and the given webhook options (resolver, timeout).
export async function startWebhookServer(
  options: {
    clock?: ManualClock
    config?: ConfigInput
    dataDir?: string
    tier?: GatedTier
    runner?: EngineOptions['runner']
    webhooks?: EngineOptions['webhooks']
  } = {},
): Promise<WebhookServer> {
  const clock = options.clock ?? new ManualClock()
  const dataDir = options.dataDir ?? tempDir()
  const config: ConfigInput = {
    ...options.config,
    webhooks: { allowLocalTargets: true, ...options.config?.webhooks },
  }
  const server = await startServer({
    clock,
    dataDir,
    config,
    tiers: new Map([['t1', options.tier ?? new GatedTier(true)]]),
    runner: options.runner,
    webhooks: options.webhooks,
  })
  // A second connection to the same database, to look behind the API (WAL lets it read alongside).
  const store = await server.openStore()
  return {
    ...server,
    clock,
    store,
    close: async () => {
      await store.close()
      await server.close()
    },
  }
}

/// Submits a check of THREE_CLAIMS in t1 with a callbackUrl; returns the check as the API answered it.
export async function submitWithCallback(server: TestServer, callbackUrl: string): Promise<any> {
  const res = await call(server, 'POST', '/checks', {
    body: { text: THREE_CLAIMS, tiers: ['t1'], callbackUrl },
  })
  if (res.status !== 202) throw new Error(`submit answered ${res.status}: ${JSON.stringify(res.json)}`)
  return res.json
}

/// Waits for the check to end, then for every delivery attempt due by now to be made and recorded; returns
/// the check as `GET /checks/{id}` shows it then.
export async function endAndDeliver(server: WebhookServer, checkId: string): Promise<any> {
  await waitForEnd(server, checkId)
  await server.engine.webhooks.deliverDue()
  return (await call(server, 'GET', `/checks/${checkId}`)).json
}

/// Moves the engine's clock and makes the attempts that fell due; returns the check's `webhook` member.
export async function advance(server: WebhookServer, checkId: string, ms: number): Promise<any> {
  server.clock.advance(ms)
  await server.engine.webhooks.deliverDue()
  return (await call(server, 'GET', `/checks/${checkId}`)).json.webhook
}

/// The organization's current signing secret.
export async function currentSecret(server: TestServer): Promise<string> {
  return (await call(server, 'GET', '/webhook-secret')).json.secret
}

/// The unix second the engine's clock shows.
export const unixSeconds = (clock: ManualClock): number => Math.floor(clock.now().getTime() / 1000)

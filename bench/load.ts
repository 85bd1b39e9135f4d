// A load generator for `npm run bench`, run as its own process so that the server's process does not share
// its event loop: `tsx bench/load.ts` with one JSON argument `{url, method, token, headers?, body?, seconds,
// connections}` (or `@FILE` holding it). Keeps `connections` requests in flight for `seconds` and prints one
// line of JSON: requests, errors (a status other than 200), requests per second and latency quantiles in ms.
import { readFileSync } from 'node:fs'
import { Agent, request as send } from 'node:http'
import { quantile } from './measure'

export interface LoadRequest {
  url: string
  method: 'GET' | 'POST'
  token: string
  /// More request headers (`Accept-Encoding`).
  headers?: Record<string, string>
  body?: unknown
  seconds: number
  connections: number
}

export interface LoadResult {
  requests: number
  errors: number
  perSecond: number
  p50: number
  p99: number
}

// `@FILE` reads the request from a file: a long body does not fit in one argument.
const argument = process.argv[2] ?? '{}'
const request = JSON.parse(
  argument.startsWith('@') ? readFileSync(argument.slice(1), 'utf8') : argument,
) as LoadRequest
const headers: Record<string, string> = { ...request.headers, Authorization: `Bearer ${request.token}` }
if (request.body !== undefined) headers['Content-Type'] = 'application/json'
const body = request.body === undefined ? undefined : JSON.stringify(request.body)
const latencies: number[] = []
let errors = 0
const started = performance.now()
const deadline = started + request.seconds * 1000

const agent = new Agent({ keepAlive: true, maxSockets: request.connections })

/// One request, its answer read to the end; resolves with its status.
const exchange = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const sending = send(request.url, { method: request.method, headers, agent }, (response) => {
      response.on('end', () => resolve(response.statusCode ?? 0))
      response.on('error', reject)
      response.resume()
    })
    sending.on('error', reject)
    sending.end(body)
  })

async function connection(): Promise<void> {
  while (performance.now() < deadline) {
    const sent = performance.now()
    if ((await exchange()) !== 200) errors++
    latencies.push(performance.now() - sent)
  }
}

await Promise.all(Array.from({ length: request.connections }, connection))
const elapsed = (performance.now() - started) / 1000
const result: LoadResult = {
  requests: latencies.length,
  errors,
  perSecond: latencies.length / elapsed,
  p50: quantile(latencies, 0.5),
  p99: quantile(latencies, 0.99),
}
console.log(JSON.stringify(result))
agent.destroy()

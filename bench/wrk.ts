// `wrk` (Debian: `apt install wrk`), the load generator `npm run bench -- api` prefers to bench/load.ts: written
// in C, it reads a 909 KB answer for a fraction of the CPU Node's HTTP client spends (about 240 µs, more than
// the server's 170 µs to write it), so that on two cores a large answer's rate measures the server, not the
// client beside it.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { LoadRequest, LoadResult } from './load'

const run = promisify(execFile)
const UNITS_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 }

/// The `wrk` to use: `WRK_PATH`, else Debian's; null when there is none.
export function wrkPath(): string | null {
  return [process.env.WRK_PATH, '/usr/bin/wrk'].find((path) => path !== undefined && existsSync(path)) ?? null
}

/// `request` sent by `wrk` on one thread: as bench/load.ts answers it, errors being the answers outside 2xx and
/// 3xx and the sockets that failed.
export async function wrkLoad(wrk: string, request: LoadRequest): Promise<LoadResult> {
  const headers: Record<string, string> = { ...request.headers, Authorization: `Bearer ${request.token}` }
  if (request.body !== undefined) headers['Content-Type'] = 'application/json'
  const dir = mkdtempSync(join(tmpdir(), 'factdesk-bench-wrk-'))
  try {
    // wrk sends a method and body only from a Lua script; a JSON string is a valid Lua string here (ASCII text).
    const script = join(dir, 'request.lua')
    writeFileSync(
      script,
      `wrk.method = ${JSON.stringify(request.method)}\n` +
        (request.body === undefined ? '' : `wrk.body = ${JSON.stringify(JSON.stringify(request.body))}\n`),
    )
    // wrk counts an answer slower than 2 s as failed by default; bench/load.ts waits for every answer.
    const args = [
      '-t1',
      `-c${request.connections}`,
      `-d${request.seconds}s`,
      '--timeout',
      '30s',
      '--latency',
      '-s',
      script,
    ]
    for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`)
    const { stdout } = await run(wrk, [...args, request.url], { timeout: (request.seconds + 30) * 1000 })
    return parsed(stdout)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/// wrk's report read: its request count and rate, its latency distribution's median and 99th percentile.
function parsed(report: string): LoadResult {
  const number = (pattern: RegExp): number => {
    const found = pattern.exec(report)
    if (!found) throw new Error(`wrk's report has no ${pattern.source}:\n${report}`)
    return Number(found[1])
  }
  const latency = (percent: number): number => {
    const found = new RegExp(`^\\s*${percent}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(report)
    if (!found) throw new Error(`wrk's report has no ${percent}% latency:\n${report}`)
    return Number(found[1]) * (UNITS_MS[found[2] ?? ''] ?? NaN)
  }
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report)
  return {
    requests: number(/(\d+) requests in/),
    errors:
      Number(/Non-2xx or 3xx responses: (\d+)/.exec(report)?.[1] ?? 0) +
      (socketErrors?.slice(1).reduce((sum, count) => sum + Number(count), 0) ?? 0),
    perSecond: number(/Requests\/sec:\s+([\d.]+)/),
    p50: latency(50),
    p99: latency(99),
  }
}

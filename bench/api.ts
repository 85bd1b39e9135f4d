import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { startServer } from '../test/helpers/server'
import type { LoadRequest, LoadResult } from './load'
import { summarise, type Figure } from './measure'
import { prose } from './prose'
import { checkedClaims, instantEngine } from './report'

const run = promisify(execFile)
const LOAD = join(import.meta.dirname, 'load.ts')
const SECONDS = 3
const RUNS = 3
const CONNECTIONS = 8

/// The REST API under load from a second process on loopback (bench/load.ts, `CONNECTIONS` requests in flight
/// for `SECONDS`, `RUNS` times): requests per second and p99 latency of `GET /checks/{id}/report` of a
/// 500-claim check and of `POST /checks/estimate` of a 2,000-word text.
export async function apiBenchmarks(): Promise<Figure[]> {
  const server = await startServer(instantEngine)
  try {
    server.engine.admin.grantCredits(server.organizationId, 10_000)
    const checkId = await checkedClaims(server.engine, 500)
    const loads: [string, Omit<LoadRequest, 'seconds' | 'connections' | 'token'>][] = [
      [
        'GET /checks/{id}/report, 500 claims',
        { url: `${server.api}/checks/${checkId}/report`, method: 'GET' },
      ],
      [
        'POST /checks/estimate, 2,000 words',
        {
          url: `${server.api}/checks/estimate`,
          method: 'POST',
          body: { text: prose(2000, 3), tiers: ['t1'] },
        },
      ],
    ]
    const figures: Figure[] = []
    for (const [name, load] of loads) {
      const results: LoadResult[] = []
      for (let i = 0; i < RUNS; i++) {
        const request: LoadRequest = {
          ...load,
          token: server.write,
          seconds: SECONDS,
          connections: CONNECTIONS,
        }
        const { stdout } = await run(process.execPath, ['--import', 'tsx', LOAD, JSON.stringify(request)], {
          timeout: (SECONDS + 30) * 1000,
        })
        const result = JSON.parse(stdout) as LoadResult
        if (result.errors > 0)
          throw new Error(`${name}: ${result.errors} of ${result.requests} requests failed`)
        results.push(result)
      }
      figures.push(
        summarise(
          `${name}, ${CONNECTIONS} connections`,
          'requests/s',
          results.map((r) => r.perSecond),
        ),
        summarise(
          `${name}, p99 latency`,
          'ms',
          results.map((r) => r.p99),
        ),
      )
    }
    return figures
  } finally {
    await server.close()
  }
}

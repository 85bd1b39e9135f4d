import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { startServer } from '../test/helpers/server'
import type { LoadRequest, LoadResult } from './load'
import { summarise, withTarget, type Figure } from './measure'
import { prose } from './prose'
import { checkedClaims, instantEngine } from './report'
import { wrkLoad, wrkPath } from './wrk'

const run = promisify(execFile)
const LOAD = join(import.meta.dirname, 'load.ts')
const SECONDS = 3
const RUNS = 3
const CONNECTIONS = 8
/// Issue 26's targets: a report's rate over `GET /me`'s, plain and compressed, and `GET /me`'s p99 meanwhile.
const REPORT_RATIO = 0.5
const COMPRESSED_RATIO = 0.8
const ME_P99_MS = 50

type Load = Omit<LoadRequest, 'seconds' | 'connections' | 'token'>

/// The REST API under load from other processes on loopback (`wrk` where installed, see bench/wrk.ts, else
/// bench/load.ts; `CONNECTIONS` requests in flight for `SECONDS`, `RUNS` times): `GET /me`; the report of a completed 500-claim t1+t2 check (2,000 votes)
/// uncompressed and with compression asked for, each as a share of `GET /me`'s rate in the same run; `GET /me`'s
/// p99 from one more client while `CONNECTIONS` read that report; and `POST /checks/estimate` of a 2,000-word
/// text.
export async function apiBenchmarks(): Promise<Figure[]> {
  // Estimates as fast as they come: the limit per minute is not what is measured.
  const server = await startServer({
    ...instantEngine,
    config: { limits: { ...instantEngine.config.limits, estimatesPerMinute: 1_000_000 } },
  })
  try {
    await server.engine.admin.grantCredits(server.organizationId, 10_000)
    const checkId = await checkedClaims(server.engine, 500, ['t1', 't2'])
    const wrk = wrkPath()
    /// `request` from `connections` connections, by wrk when `byWrk` (and it is installed), else by Node.
    const load = async (request: Load, connections = CONNECTIONS, byWrk = true): Promise<LoadResult> => {
      const full: LoadRequest = { ...request, token: server.write, seconds: SECONDS, connections }
      const result =
        wrk && byWrk
          ? await wrkLoad(wrk, full)
          : (JSON.parse(
              (
                await run(process.execPath, ['--import', 'tsx', LOAD, JSON.stringify(full)], {
                  timeout: (SECONDS + 30) * 1000,
                })
              ).stdout,
            ) as LoadResult)
      if (result.errors > 0)
        throw new Error(`${request.url}: ${result.errors} of ${result.requests} requests failed`)
      return result
    }
    const me: Load = { url: `${server.api}/me`, method: 'GET' }
    const report: Load = { url: `${server.api}/checks/${checkId}/report`, method: 'GET' }
    const compressed: Load = { ...report, headers: { 'Accept-Encoding': 'gzip, br' } }
    const estimate: Load = {
      url: `${server.api}/checks/estimate`,
      method: 'POST',
      body: { text: prose(2000, 3), tiers: ['t1'] },
    }
    const kilobytes = Math.round(
      (
        await (
          await fetch(report.url, { headers: { Authorization: `Bearer ${server.write}` } })
        ).arrayBuffer()
      ).byteLength / 1000,
    )
    const runs: Record<'me' | 'report' | 'compressed' | 'meWhileRead' | 'estimate', LoadResult>[] = []
    for (let i = 0; i < RUNS; i++) {
      const meAlone = await load(me)
      const plain = await load(report)
      const zipped = await load(compressed)
      // The one client asking for GET /me meanwhile is Node's: a second wrk, a third busy process on two cores,
      // measured its own waits for the CPU (p99 6–250 ms where Node's client saw 5 ms of the same server).
      const [, meWhileRead] = await Promise.all([load(report), load(me, 1, false)])
      runs.push({
        me: meAlone,
        report: plain,
        compressed: zipped,
        meWhileRead,
        estimate: await load(estimate),
      })
    }
    const of = (name: string, key: keyof (typeof runs)[number]): Figure[] => [
      summarise(
        `${name}, ${CONNECTIONS} connections from ${wrk ? 'wrk' : 'Node'}`,
        'requests/s',
        runs.map((r) => r[key].perSecond),
      ),
      summarise(
        `${name}, p99 latency`,
        'ms',
        runs.map((r) => r[key].p99),
      ),
    ]
    const reportName = `GET /checks/{id}/report, 500 claims t1+t2 (${kilobytes} KB)`
    return [
      ...of('GET /me', 'me'),
      ...of(reportName, 'report'),
      ...of(`${reportName}, gzip or br asked for`, 'compressed'),
      withTarget(
        summarise(
          'report ÷ GET /me requests/s',
          '×',
          runs.map((r) => r.report.perSecond / r.me.perSecond),
        ),
        '≥',
        REPORT_RATIO,
      ),
      withTarget(
        summarise(
          'compressed report ÷ GET /me requests/s',
          '×',
          runs.map((r) => r.compressed.perSecond / r.me.perSecond),
        ),
        '≥',
        COMPRESSED_RATIO,
      ),
      withTarget(
        summarise(
          `GET /me p99 while ${CONNECTIONS} connections read the report`,
          'ms',
          runs.map((r) => r.meWhileRead.p99),
        ),
        '≤',
        ME_P99_MS,
      ),
      ...of('POST /checks/estimate, 2,000 words', 'estimate'),
    ]
  } finally {
    await server.close()
  }
}

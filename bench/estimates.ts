import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { ManualClock } from '../src/main/engine/base/clock'
import { databaseBytes, startServer } from '../test/helpers/server'
import type { LoadRequest, LoadResult } from './load'
import { sample, summarise, withTarget, type Figure } from './measure'
import { prose } from './prose'
import { claimsText, instantEngine } from './report'
import { hasEnded } from '../src/shared/vocabulary'

const run = promisify(execFile)
const LOAD = join(import.meta.dirname, 'load.ts')
const SECONDS = 10
const RUNS = 3
const ESTIMATING_CLIENTS = 4
const TEXT_CHARS = 200_000
const EXPIRING_ESTIMATES = 100
const HOUR_MS = 3_600_000
const CHECKED_CLAIMS = 5000
const CHECK_SECONDS = 5

/// Free estimates must neither stall the server nor fill its disk (issue 21). `GET /me`'s p99 latency while
/// `ESTIMATING_CLIENTS` clients loop estimates of 200,000 characters (the limit per minute raised so that the
/// event loop is measured, not the 429), and idle; the database's size once `EXPIRING_ESTIMATES` such estimates,
/// never submitted, have expired, as a share of its size before them.
export async function estimateBenchmarks(): Promise<Figure[]> {
  const text = prose(TEXT_CHARS / 5, 21).slice(0, TEXT_CHARS)
  return [...(await meLatency(text)), await meWhileChecking(), await sizeAfterExpiry(text)]
}

/// `GET /me`'s p99 latency while a check of `CHECKED_CLAIMS` claims runs (t1 deciding at once, so that the
/// runner, the store and the events are measured, not Harper), for `CHECK_SECONDS` from its submission.
async function meWhileChecking(): Promise<Figure> {
  const server = await startServer(instantEngine)
  try {
    const principal = await server.engine.localPrincipal()
    await server.engine.admin.grantCredits(principal.organizationId, RUNS * CHECKED_CLAIMS)
    const samples = await sample(RUNS, async () => {
      const started = performance.now()
      const { check } = await server.engine.service.submit(principal, {
        text: claimsText(CHECKED_CLAIMS),
        tiers: ['t1'],
      })
      const ended = hasEnded(await server.engine.service.getCheck(principal, check.id))
        ? Promise.resolve()
        : server.engine.events.ended(check.id)
      const load = await runLoad({
        url: `${server.api}/me`,
        method: 'GET',
        connections: 1,
        token: server.write,
        seconds: CHECK_SECONDS,
      })
      await ended
      const seconds = (performance.now() - started) / 1000
      console.error(`estimates: the ${CHECKED_CLAIMS}-claim check took ${seconds.toFixed(1)} s`)
      return load.p99
    })
    return withTarget(
      summarise(
        `GET /me p99 latency while a ${CHECKED_CLAIMS.toLocaleString('en')}-claim t1 check runs`,
        'ms',
        samples,
      ),
      '≤',
      50,
    )
  } finally {
    await server.close()
  }
}

async function meLatency(text: string): Promise<Figure[]> {
  const server = await startServer({
    ...instantEngine,
    config: { limits: { estimatesPerMinute: 1_000_000 } },
  })
  try {
    const load = (request: Omit<LoadRequest, 'token' | 'seconds'>): Promise<LoadResult> =>
      runLoad({ ...request, token: server.write, seconds: SECONDS })
    const me = { url: `${server.api}/me`, method: 'GET', connections: 1 } as const
    const idle: number[] = []
    const busy: number[] = []
    for (let i = 0; i < RUNS; i++) {
      idle.push((await load(me)).p99)
      const [during] = await Promise.all([
        load(me),
        load({
          url: `${server.api}/checks/estimate`,
          method: 'POST',
          body: { text, tiers: ['t1'] },
          connections: ESTIMATING_CLIENTS,
        }),
      ])
      busy.push(during.p99)
    }
    return [
      summarise('GET /me p99 latency, idle', 'ms', idle),
      withTarget(
        summarise(
          `GET /me p99 latency while ${ESTIMATING_CLIENTS} clients loop 200,000-character estimates`,
          'ms',
          busy,
        ),
        '≤',
        50,
      ),
    ]
  } finally {
    await server.close()
  }
}

async function sizeAfterExpiry(text: string): Promise<Figure> {
  const clock = new ManualClock()
  const options = {
    ...instantEngine,
    clock,
    config: { limits: { estimatesPerMinute: 1_000_000, estimateHours: 1 } },
  }
  // Measured after a restart, whose stop folds the write-ahead log into the file, as the sweep does.
  const first = await startServer(options)
  await first.close()
  const server = await startServer({ ...options, dataDir: first.dataDir })
  try {
    const before = databaseBytes(server.dataDir)
    const principal = await server.engine.localPrincipal()
    for (let i = 0; i < EXPIRING_ESTIMATES; i++) {
      await server.engine.service.estimate(principal, { text, tiers: ['t1'] })
    }
    const filled = databaseBytes(server.dataDir)
    clock.advance(HOUR_MS)
    await server.engine.estimates.sweep()
    const after = databaseBytes(server.dataDir)
    const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(2)} MB`
    console.error(
      `estimates: database ${mb(before)} before, ${mb(filled)} with ${EXPIRING_ESTIMATES} estimates, ${mb(after)} once they expired`,
    )
    return summarise(
      `database size once ${EXPIRING_ESTIMATES} unsubmitted 200,000-character estimates expired, share of before`,
      '%',
      [(after / before) * 100],
    )
  } finally {
    await server.close()
  }
}

async function runLoad(request: LoadRequest): Promise<LoadResult> {
  const file = join(mkdtempSync(join(tmpdir(), 'factdesk-load-')), 'request.json')
  writeFileSync(file, JSON.stringify(request))
  const { stdout } = await run(process.execPath, ['--import', 'tsx', LOAD, `@${file}`], {
    timeout: (request.seconds + 60) * 1000,
  })
  const result = JSON.parse(stdout) as LoadResult
  if (result.errors > 0)
    throw new Error(`${request.url}: ${result.errors} of ${result.requests} requests failed`)
  return result
}

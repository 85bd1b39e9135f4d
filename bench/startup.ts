import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { sample, summarise, withTarget, type Figure } from './measure'
import { claimsText } from './report'

const execute = promisify(execFile)
const FACTDESK = join(import.meta.dirname, '../bin/factdesk.js')
const RUNS = 4
const CLAIMS = 500
const FIRST_CLAIMS = 4
const MOMENT_MS = 3000
const CHECK_TIMEOUT_MS = 120_000

/// `factdesk serve` (the build of `npm run build`, started as a shell starts the command: through its `#!` line)
/// on a new data folder (made by `factdesk token create`, with the token the requests use): the time from
/// starting the process to the engine answering `GET /api/v1/me`, then of a first t1 check of four claims
/// submitted at once, and the process's resident memory idle (a second after that check) and, in the first run
/// only (it takes a while), after a 500-claim t1 check (Harper's worker included).
export async function startupBenchmarks(): Promise<Figure[]> {
  const idle: number[] = []
  const checked: number[] = []
  const firstCheck: number[] = []
  const momentLater: number[] = []
  const startup = await sample(RUNS, async (run) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-bench-startup-'))
    const token = (await factdesk(['token', 'create', '--scope', 'write', '--data-dir', dataDir])).trim()
    const started = performance.now()
    const child = spawn(FACTDESK, ['serve', '--port', '0', '--data-dir', dataDir])
    try {
      const api = /listening on (\S+)/.exec(await firstLine(child))?.[1] ?? ''
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
      const me = await fetch(`${api}/me`, { headers })
      if (me.status !== 200) throw new Error(`GET /me answered ${me.status}`)
      const elapsed = performance.now() - started
      // A writer's first check comes a moment after the start (every other run) or at once.
      const later = run % 2 === 0
      if (later) await new Promise((resolve) => setTimeout(resolve, MOMENT_MS))
      const checkStarted = performance.now()
      await checkCompleted(api, headers, claimsText(FIRST_CLAIMS), 10)
      ;(later ? momentLater : firstCheck).push(performance.now() - checkStarted)
      await new Promise((resolve) => setTimeout(resolve, 1000))
      idle.push(residentMiB(child))
      if (run > 0) return elapsed
      await checkCompleted(api, headers, claimsText(CLAIMS), 100)
      checked.push(residentMiB(child))
      return elapsed
    } finally {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
  return [
    summarise('startup: process start to GET /me answered', 'ms', startup),
    withTarget(
      summarise(
        `first t1 check of ${FIRST_CLAIMS} claims, submitted once GET /me answered`,
        'ms',
        firstCheck,
      ),
      '≤',
      1500,
    ),
    withTarget(
      summarise(
        `first t1 check of ${FIRST_CLAIMS} claims, submitted ${MOMENT_MS / 1000} s after GET /me answered`,
        'ms',
        momentLater,
      ),
      '≤',
      1500,
    ),
    withTarget(summarise('resident memory of serve, idle (t1 ready)', 'MiB', idle), '≤', 350),
    withTarget(
      summarise(`resident memory of serve, after a ${CLAIMS}-claim t1 check`, 'MiB', checked),
      '≤',
      350,
    ),
  ]
}

/// Submits a t1 check of `text` and polls it every `pollMs` until it has completed.
async function checkCompleted(
  api: string,
  headers: Record<string, string>,
  text: string,
  pollMs: number,
): Promise<void> {
  const submitted = await fetch(`${api}/checks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ text, tiers: ['t1'] }),
  })
  const { id } = (await submitted.json()) as { id: string }
  for (const deadline = Date.now() + CHECK_TIMEOUT_MS; ;) {
    const check = (await (await fetch(`${api}/checks/${id}`, { headers })).json()) as { status: string }
    if (check.status === 'completed') return
    if (Date.now() > deadline || (check.status !== 'queued' && check.status !== 'running'))
      throw new Error(`the t1 check is ${check.status}`)
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
}

async function factdesk(args: string[]): Promise<string> {
  return (await execute(FACTDESK, args)).stdout
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')))
    })
    child.once('exit', (code) => reject(new Error(`factdesk serve exited with ${code}`)))
  })
}

/// The resident memory of a child process (Linux).
function residentMiB(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024
}

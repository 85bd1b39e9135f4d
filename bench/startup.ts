import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { sample, summarise, type Figure } from './measure'
import { claimsText } from './report'

const execute = promisify(execFile)
const FACTDESK = join(import.meta.dirname, '../bin/factdesk.js')
const RUNS = 3
const CLAIMS = 500
const CHECK_TIMEOUT_MS = 120_000

/// `factdesk serve` (the build of `npm run build`) on a new data folder (made by `factdesk token create`, with
/// the token the requests use): the time from starting the process to the engine answering `GET /api/v1/me`,
/// and the process's resident memory idle (a second after that) and, in the first run only (it takes a while),
/// after a 500-claim t1 check (Harper's worker included).
export async function startupBenchmarks(): Promise<Figure[]> {
  const idle: number[] = []
  const checked: number[] = []
  const startup = await sample(RUNS, async (run) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-bench-startup-'))
    const token = (await factdesk(['token', 'create', '--scope', 'write', '--data-dir', dataDir])).trim()
    const started = performance.now()
    const child = spawn(process.execPath, [FACTDESK, 'serve', '--port', '0', '--data-dir', dataDir])
    try {
      const api = /listening on (\S+)/.exec(await firstLine(child))?.[1] ?? ''
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }
      const me = await fetch(`${api}/me`, { headers })
      if (me.status !== 200) throw new Error(`GET /me answered ${me.status}`)
      const elapsed = performance.now() - started
      await new Promise((resolve) => setTimeout(resolve, 1000))
      idle.push(residentMiB(child))
      if (run > 0) return elapsed
      const submitted = await fetch(`${api}/checks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ text: claimsText(CLAIMS), tiers: ['t1'] }),
      })
      const { id } = (await submitted.json()) as { id: string }
      for (const deadline = Date.now() + CHECK_TIMEOUT_MS; ;) {
        const check = (await (await fetch(`${api}/checks/${id}`, { headers })).json()) as { status: string }
        if (check.status === 'completed') break
        if (Date.now() > deadline || (check.status !== 'queued' && check.status !== 'running'))
          throw new Error(`the ${CLAIMS}-claim check is ${check.status}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
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
    summarise('resident memory of serve, idle', 'MiB', idle),
    summarise(`resident memory of serve, after a ${CLAIMS}-claim t1 check`, 'MiB', checked),
  ]
}

async function factdesk(args: string[]): Promise<string> {
  return (await execute(process.execPath, [FACTDESK, ...args])).stdout
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

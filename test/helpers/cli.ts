import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const ROOT = join(import.meta.dirname, '../..')
const SOURCE = join(ROOT, 'src/main/cli/index.ts')
const BUILT = join(ROOT, 'out/main/cli.js')

/// The newest modification time (ms) of a file under `folder`.
const newest = (folder: string): number =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' }).reduce(
    (latest, name) => Math.max(latest, statSync(join(folder, name)).mtimeMs),
    0,
  )

/// The arguments with which `node` starts the CLI: the built `out/main/cli.js` when it is newer than every source
/// file and the build's configuration (as in `npm test`, which builds first), else the source through tsx. A start
/// from source costs about 2 s here against 0.8 s built.
export const CLI = ((): string[] => {
  try {
    const built = statSync(BUILT).mtimeMs
    const sources = Math.max(
      newest(join(ROOT, 'src')),
      statSync(join(ROOT, 'electron.vite.config.ts')).mtimeMs,
    )
    if (built > sources) return [BUILT]
  } catch {
    // Not built: run the source.
  }
  return ['--import', 'tsx', SOURCE]
})()

/// Runs `factdesk ARGS` to completion, in `env` (by default this process's).
export async function factdesk(
  args: string[],
  env?: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...CLI, ...args], {
      timeout: 30_000,
      env,
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

/// Starts `factdesk ARGS` with its output piped, in `env` (by default this process's).
export const spawnFactdesk = (args: string[], env?: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams =>
  spawn(process.execPath, [...CLI, ...args], { env })

/// Starts a long-running `factdesk ARGS` and resolves with its first line of output; `said()` is what it has
/// written to its standard error so far. `spawned` is given the process at once, for a test to stop it even if
/// it never says its first line.
export function startFactdesk(
  args: string[],
  env?: NodeJS.ProcessEnv,
  spawned?: (child: ChildProcessWithoutNullStreams) => void,
): Promise<{ child: ChildProcessWithoutNullStreams; line: string; said: () => string }> {
  const child = spawnFactdesk(args, env)
  spawned?.(child)
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const newline = out.indexOf('\n')
      if (newline >= 0) resolve({ child, line: out.slice(0, newline), said: () => err })
    })
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    child.once('exit', (code) => reject(new Error(`factdesk exited with ${code}: ${err}`)))
  })
}

/// Resolves with the exit code once the process ends (null when a signal ended it), at once if it has ended.
export const exited = (child: ChildProcessWithoutNullStreams): Promise<number | null> =>
  new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve(child.exitCode)
      : child.once('exit', (code) => resolve(code)),
  )

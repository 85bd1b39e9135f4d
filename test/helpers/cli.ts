import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
/// The CLI's source, which `node --import tsx` runs.
export const CLI = join(import.meta.dirname, '../../src/main/cli/index.ts')

/// Runs `factdesk ARGS` (from source, through tsx) to completion, in `env` (by default this process's).
export async function factdesk(
  args: string[],
  env?: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', CLI, ...args], {
      timeout: 30_000,
      env,
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

/// Starts `factdesk ARGS` (from source, through tsx) with its output piped, in `env` (by default this process's).
export const spawnFactdesk = (args: string[], env?: NodeJS.ProcessEnv): ChildProcessWithoutNullStreams =>
  spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { env })

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

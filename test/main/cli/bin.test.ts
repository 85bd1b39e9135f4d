import { execFile, execFileSync, spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../helpers/server'

// The `factdesk` command as a shell starts it: bin/factdesk.js through its `#!` line, which gives Node the flag
// that caps the main thread's young generation (V8 takes it only at start) and glibc its trim threshold. Linux:
// both are read back from /proc.

const ROOT = join(import.meta.dirname, '../../..')
const BIN = join(ROOT, 'bin', 'factdesk.js')
const run = promisify(execFile)

/// Runs the command to completion: its exit code and output.
async function command(args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    return { code: 0, stdout: (await run(BIN, args, { timeout: 60_000 })).stdout }
  } catch (error) {
    const failed = error as { code: number; stdout: string }
    return { code: failed.code, stdout: failed.stdout }
  }
}

describe.runIf(process.platform === 'linux')('the factdesk command', () => {
  // The command runs the build (\`npm test\` makes it first), made here when missing, as the other tests of it do.
  const cli = join(ROOT, 'out', 'main', 'cli.js')
  if (!existsSync(cli)) execFileSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'pipe' })

  it('runs from its #! line with its exit codes: 0 done, 2 a mistake in the command line', async () => {
    const dir = tempDir()
    const made = await command(['token', 'create', '--scope', 'read', '--data-dir', dir])
    expect(made.code).toBe(0)
    expect(made.stdout.trim()).toMatch(/^\S{20,}$/)
    expect((await command(['token', 'create', '--scope', 'nope', '--data-dir', dir])).code).toBe(2)
  }, 120_000)

  it('is Node itself with the young generation and the trim threshold set: serves, and stops cleanly on SIGTERM', async () => {
    const dir = tempDir()
    const child = spawn(BIN, ['serve', '--port', '0', '--data-dir', dir])
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
    const line = await new Promise<string>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')))
      })
      void exited.then((code) => reject(new Error(`factdesk serve exited with ${code}`)))
    })
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1$/)
    // The process started is the server itself (env ran Node in its place), so signals reach it directly.
    const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0')
    expect(commandLine).toContain('--max-semi-space-size=2')
    expect(commandLine).toContain('serve')
    expect(readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0')).toContain(
      'MALLOC_TRIM_THRESHOLD_=131072',
    )
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(existsSync(join(dir, 'engine.lock'))).toBe(false)
  }, 120_000)
})

import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { tempDir } from '../helpers/server'

// `npm start` and `npm run dist` without the network: Electron's download goes to a mirror on this computer
// that refuses connections (a port just freed), as a host that is down would.
const ROOT = join(import.meta.dirname, '../..')
const run = promisify(execFile)
let origin = ''
beforeAll(async () => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`
  await new Promise((resolve) => server.close(resolve))
})

/// Runs `npm run SCRIPT` (or `npm start`) with the mirror and empty caches; resolves with its exit and output.
async function npm(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const caches = tempDir()
  const env = {
    ...process.env,
    ELECTRON_MIRROR: origin,
    electron_config_cache: join(caches, 'electron'),
    ELECTRON_BUILDER_CACHE: join(caches, 'builder'),
  }
  try {
    const { stdout, stderr } = await run('npm', args, { cwd: ROOT, env, timeout: 170_000 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

/// The lines of the downloads script's own message (npm adds its lines about the script that failed).
const ours = (stderr: string): string[] =>
  stderr.split('\n').filter((line) => line.startsWith('npm start') || line.startsWith('npm run dist'))

describe('downloading Electron without the network', () => {
  // An Electron already installed is not downloaded again: nothing to fail.
  it.skipIf(existsSync(join(ROOT, 'node_modules/electron/dist')))(
    'npm start says in one paragraph what it could not download, from where, and the ways out',
    async () => {
      const result = await npm(['start'])
      expect(result.code).not.toBe(0)
      expect(ours(result.stderr)).toEqual([
        `npm start could not download Electron 45.4.1's binary from ${origin}v45.4.1/electron-v45.4.1-` +
          `${process.platform}-${process.arch}.zip (fetch failed). Ways out: ` +
          'ELECTRON_MIRROR=https://mirror.example/electron/ npm start fetches it from a mirror; ' +
          'electron_config_cache=DIR npm start installs it from a download cache copied from a machine that has ' +
          'one (by default ~/.cache/electron); ELECTRON_EXEC_PATH=/path/to/electron npm start --ignore-scripts ' +
          'starts an Electron 45 already on this computer. See "Set up and run" in README.md.',
      ])
      expect(result.stderr).not.toMatch(/TypeError|\n +at /)
    },
    120_000,
  )

  it('npm run dist, packaging a built app, says the same of Electron and electron-builder', async () => {
    // The packaging step alone: the build before it needs no network.
    const out = tempDir()
    const result = await npm([
      'exec',
      '--',
      'node',
      'scripts/downloads.js',
      'electron-builder',
      '--dir',
      `--config.directories.output=${out}`,
    ])
    expect(result.code).not.toBe(0)
    const said = result.stderr.trim()
    expect(said).toMatch(
      new RegExp(
        `^npm run dist could not download Electron 45\\.4\\.1's build from ${origin}v45\\.4\\.1/electron-v45\\.4\\.1-` +
          `\\S+\\.zip \\([^)]+\\)\\. Ways out: ELECTRON_MIRROR=URL/ for Electron's build`,
      ),
    )
    expect(said).toContain('--config.electronDist=node_modules/electron/dist')
    expect(said.split('\n')).toHaveLength(1)
    // The stack electron-builder printed is held back.
    expect(result.stdout).not.toMatch(/⨯|\n +at |stackTrace/)
  }, 180_000)
})

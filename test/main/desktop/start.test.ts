import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
} from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { strToU8, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// `npm start` on a fresh clone, without Electron's real binary (issue #20): a copy of the project whose `electron`
// package is as `npm ci` leaves it (no binary: Electron 42 and later download it on demand), a loopback mirror
// (ELECTRON_MIRROR) serving a stand-in Electron and the mirror's own SHASUMS256.txt, then `npm start` itself. The
// stand-in records how it was launched and what the dev server served it, and exits, which ends `npm start`.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const MODULES = join(ROOT, 'node_modules')
const electronPackage = JSON.parse(readFileSync(join(MODULES, 'electron', 'package.json'), 'utf8')) as {
  version: string
  files: string[]
}
const RELEASE = `v${electronPackage.version}`
const ZIP = `electron-${RELEASE}-${process.platform}-${process.arch}.zip`
// Where Electron's zip keeps its executable (install.js writes this path to path.txt).
const EXECUTABLE = process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron'

// Writes what it was started with beside itself, with the page the renderer URL served, and exits.
const STAND_IN = `#!/usr/bin/env node
const { writeFileSync } = require('node:fs')
const { join } = require('node:path')
fetch(process.env.ELECTRON_RENDERER_URL)
  .then((response) => response.text(), (error) => String(error))
  .then((page) => {
    const launch = { argv: process.argv.slice(2), cwd: process.cwd(), env: process.env, page }
    writeFileSync(join(__dirname, 'launched.json'), JSON.stringify(launch))
  })
`

interface Launch {
  argv: string[]
  cwd: string
  env: Record<string, string>
  page: string
}

let project: string
let mirror: Server
let mirrorUrl: string
const requested: string[] = []

/// A clone after `npm ci`: the project's sources, and node_modules with `electron` and electron-vite copied (both
/// resolve `electron` from where they sit) and every other package linked to this checkout's.
function freshClone(folder: string): void {
  const tsconfigs = readdirSync(ROOT).filter((name) => /^tsconfig\..*json$/.test(name))
  for (const name of ['package.json', 'electron.vite.config.ts', ...tsconfigs])
    cpSync(join(ROOT, name), join(folder, name))
  for (const name of ['src', 'resources', 'scripts'])
    cpSync(join(ROOT, name), join(folder, name), { recursive: true })
  const modules = join(folder, 'node_modules')
  mkdirSync(join(modules, '.bin'), { recursive: true })
  // Dot entries (.bin, .vite's cache, npm's lock) are not shared: the clone's tools write their own.
  for (const name of readdirSync(MODULES).filter((entry) => !entry.startsWith('.'))) {
    if (name === 'electron') {
      for (const file of [...electronPackage.files, 'package.json'])
        cpSync(join(MODULES, name, file), join(modules, name, file), { recursive: true })
    } else if (name === 'electron-vite') {
      cpSync(join(MODULES, name), join(modules, name), { recursive: true })
    } else {
      symlinkSync(join(MODULES, name), join(modules, name))
    }
  }
  for (const name of readdirSync(join(MODULES, '.bin')))
    symlinkSync(readlinkSync(join(MODULES, '.bin', name)), join(modules, '.bin', name))
}

/// Serves the stand-in's zip and its checksum under the release folder, as Electron's mirrors do.
function serveMirror(): Promise<Server> {
  const zip = zipSync({
    [EXECUTABLE]: [strToU8(STAND_IN), { os: 3, attrs: 0o100755 << 16 }],
    version: strToU8(electronPackage.version),
  })
  const sha256 = createHash('sha256').update(zip).digest('hex')
  const files = new Map<string, Uint8Array>([
    [`/${RELEASE}/${ZIP}`, zip],
    [`/${RELEASE}/SHASUMS256.txt`, strToU8(`${sha256} *${ZIP}\n`)],
  ])
  const server = createServer((request, response) => {
    requested.push(request.url ?? '')
    const body = files.get(request.url ?? '')
    response.writeHead(body ? 200 : 404).end(body)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

/// Runs an npm script of the clone as a user would, with the mirror; resolves with its exit code and output.
function npm(script: string[]): Promise<{ code: number | null; output: string }> {
  // Nothing from this test run or this machine may point electron-vite or the installer elsewhere.
  const inherited = Object.entries(process.env).filter(
    ([key]) => !/^(VITEST|ELECTRON_EXEC_PATH$|ELECTRON_OVERRIDE_DIST_PATH$|NODE_ENV$)/.test(key),
  )
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(inherited),
    ELECTRON_MIRROR: mirrorUrl,
    // The stand-in is in no checksums.json: its checksum comes from the mirror.
    electron_use_remote_checksums: '1',
    electron_config_cache: join(project, 'electron-cache'),
  }
  const child = spawn('npm', script, { cwd: project, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve) => {
    // A dev server left running (the stand-in never started) is ended with its whole process group.
    const stop = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGTERM'), 150_000)
    child.on('close', (code) => {
      clearTimeout(stop)
      resolve({ code, output })
    })
  })
}

describe.skipIf(process.platform === 'win32')('npm start on a fresh clone', () => {
  let launch: Launch | undefined
  let start: { code: number | null; output: string }

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'factdesk-clone-'))
    freshClone(project)
    mirror = await serveMirror()
    mirrorUrl = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}/`
    start = await npm(['start'])
    const record = join(project, 'node_modules', 'electron', 'dist', EXECUTABLE, '..', 'launched.json')
    if (existsSync(record)) launch = JSON.parse(readFileSync(record, 'utf8')) as Launch
  }, 180_000)

  afterAll(() => new Promise<void>((resolve) => (mirror ? mirror.close(() => resolve()) : resolve())))

  it("downloads Electron through the mirror, checked against the mirror's checksums", () => {
    expect(start.output).not.toContain('Electron uninstall')
    expect(requested).toContain(`/${RELEASE}/${ZIP}`)
    expect(requested).toContain(`/${RELEASE}/SHASUMS256.txt`)
    expect(readFileSync(join(project, 'node_modules', 'electron', 'path.txt'), 'utf8')).toBe(EXECUTABLE)
  })

  it('launches Electron on the app, with the dev server that serves its page', () => {
    expect(launch, start.output).toBeDefined()
    if (!launch) return
    // electron-vite starts Electron on the project folder: package.json's main, the main bundle it built.
    expect(launch.argv[0]).toBe('.')
    expect(realpathSync(launch.cwd)).toBe(realpathSync(project))
    const { main } = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { main: string }
    expect(main).toBe('./out/main/index.js')
    expect(existsSync(join(project, main))).toBe(true)
    expect(launch.env.ELECTRON_RENDERER_URL).toMatch(/^http:\/\/(localhost|127\.0\.0\.1|\[::1\]):\d+$/)
    expect(launch.page).toContain('<title>Factdesk</title>')
    expect(launch.page).toContain('<div id="root"></div>')
    // The stand-in's exit ends the dev server and `npm start` with it.
    expect(start.code).toBe(0)
  })

  it('downloads nothing when the binary is already there', async () => {
    const before = requested.length
    const again = await npm(['run', 'prestart'])
    expect(again.code, again.output).toBe(0)
    expect(requested.length).toBe(before)
  })
})

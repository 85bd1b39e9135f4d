import { execFile, execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, posix } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { extractAll, extractFile, listPackage, statFile } from '@electron/asar'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { beforeAll, describe, expect, it } from 'vitest'
import type { CheckReply } from '../../../src/main/engine/tiers/t1/protocol'

// `npm run dist -- --dir` against a stand-in Electron (issue #20): electron-builder packs the built app into
// app.asar beside a copy of the stand-in, flips its fuses, and the test reads the archive to find each file the
// app loads where it loads it from. Linux only: the packaging for another system is built on that system.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const requireFromRoot = createRequire(join(ROOT, 'package.json'))
// Electron's binary carries its fuses after this sentinel: a version byte, the wire's length, then one byte per
// fuse ('0' off, '1' on). The stand-in starts with Electron's defaults: run as node, NODE_OPTIONS, --inspect and
// file:// privileges on, the rest off.
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
const DEFAULT_FUSES = '10110001'

let work: string
let app: string
let archive: string
const packed = (path: string): boolean => {
  try {
    statFile(archive, path)
    return true
  } catch {
    return false
  }
}
// Marked unpacked in the archive's index, so Electron reads it from app.asar.unpacked, and there.
const unpacked = (path: string): boolean =>
  (statFile(archive, path) as { unpacked?: boolean }).unpacked === true &&
  existsSync(join(`${archive}.unpacked`, path))
// Paths as listPackage gives them (with a leading slash) or relative to the archive's root.
const text = (path: string): string => extractFile(archive, path.replace(/^\//, '')).toString('utf8')
const manifest = <T>(path: string): T => JSON.parse(text(path)) as T
interface LockFile {
  packages: Record<string, { version?: string; dev?: boolean }>
}

/// Where Node would find `specifier` from a file in the archive: its package in the archive's node_modules, and
/// the file its package.json names for it.
function resolveInArchive(specifier: string): string {
  const [scopeOrName = '', name] = specifier.split('/')
  const packageName = scopeOrName.startsWith('@') ? `${scopeOrName}/${name}` : scopeOrName
  const subpath = `.${specifier.slice(packageName.length)}`
  const folder = posix.join('node_modules', packageName)
  const { main, exports } = manifest<{
    main?: string
    exports?: Record<string, string | { import?: string; default?: string }>
  }>(posix.join(folder, 'package.json'))
  const exported = exports?.[subpath]
  const entry =
    typeof exported === 'string' ? exported : (exported?.import ?? exported?.default ?? main ?? 'index.js')
  return posix.join(folder, entry)
}

describe.runIf(process.platform === 'linux')('the packaged app', () => {
  beforeAll(async () => {
    // `npm run dist` builds first; rebuilding here would empty out/ under the other tests that read it.
    if (!existsSync(join(ROOT, 'out')))
      execFileSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'pipe' })
    work = mkdtempSync(join(tmpdir(), 'factdesk-package-'))
    const electronDist = join(work, 'electron')
    mkdirSync(electronDist)
    writeFileSync(
      join(electronDist, 'electron'),
      Buffer.concat([
        Buffer.from('#!/bin/sh\n# A stand-in for Electron, with its fuse wire.\nexit 0\n'),
        Buffer.from(FUSE_SENTINEL),
        Buffer.from([1, DEFAULT_FUSES.length]),
        Buffer.from(DEFAULT_FUSES),
      ]),
      { mode: 0o755 },
    )
    const output = join(work, 'dist')
    await promisify(execFile)(
      join(ROOT, 'node_modules', '.bin', 'electron-builder'),
      ['--linux', '--dir', `-c.electronDist=${electronDist}`, `-c.directories.output=${output}`],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
    )
    app = join(output, 'linux-unpacked')
    archive = join(app, 'resources', 'app.asar')
  }, 240_000)

  it('holds the built app, its manifest and its production dependencies, nothing else', () => {
    const top = new Set(listPackage(archive, { isPack: false }).map((path) => path.split('/')[1]))
    expect([...top].sort()).toEqual(['node_modules', 'out', 'package.json'])
    const { dependencies } = manifest<{ dependencies: Record<string, string> }>('package.json')
    for (const name of Object.keys(dependencies))
      expect(packed(`node_modules/${name}/package.json`), name).toBe(true)
    // Every package in it is one npm installed for production (at any depth: electron-builder hoists its own
    // tree), so Electron itself and the build and test tools stay out.
    const installed = (JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as LockFile).packages
    const production = new Set(
      Object.entries(installed)
        .filter(([path, entry]) => path !== '' && !entry.dev)
        .map(([path, entry]) => `${path.slice(path.lastIndexOf('node_modules/') + 13)}@${entry.version}`),
    )
    const packages = listPackage(archive, { isPack: false })
      .map((path) => /^\/((?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+))\/package\.json$/.exec(path))
      .filter((match) => match !== null)
    expect(packages.length).toBeGreaterThan(100)
    for (const [, folder = '', name] of packages)
      expect(production, folder).toContain(
        `${name}@${manifest<{ version: string }>(`${folder}/package.json`).version}`,
      )
    expect(packed('node_modules/electron')).toBe(false)
  })

  it('starts from the main entry, with its preload and its page', () => {
    const { main } = manifest<{ main: string }>('package.json')
    expect(packed(posix.normalize(main))).toBe(true)
    expect(packed('out/preload/index.cjs')).toBe(true)
    const page = text('out/renderer/index.html')
    const assets = [...page.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((match) => match[1] ?? '')
    expect(assets.length).toBeGreaterThan(0)
    for (const asset of assets) expect(packed(`out/renderer/${asset}`), asset).toBe(true)
  })

  it("keeps the page's spelling worker and its WebAssembly beside the page", () => {
    const page = text('out/renderer/index.html')
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(page)?.[1] ?? ''
    const worker = /lint\.worker-[\w-]+\.js/.exec(text(`out/renderer/${script}`))?.[0] ?? ''
    expect(packed(`out/renderer/assets/${worker}`)).toBe(true)
    const wasm = /harper_wasm[\w-]*-[\w-]+\.wasm/.exec(text(`out/renderer/assets/${worker}`))?.[0] ?? ''
    expect(packed(`out/renderer/assets/${wasm}`)).toBe(true)
  })

  it("unpacks Harper's WebAssembly, which the t1 worker thread reads with fs, from beside harper.js", () => {
    expect(packed('out/main/t1-worker.js')).toBe(true)
    expect(text('out/main/t1-worker.js')).toMatch(/from ["']harper\.js\/slimBinary["']/)
    const binaryModule = resolveInArchive('harper.js/slimBinary')
    const wasm = /new URL\(["']([\w.-]+\.wasm)["'], import\.meta\.url\)/.exec(text(binaryModule))?.[1] ?? ''
    expect(wasm).toBe('harper_wasm_slim_bg.wasm')
    const file = posix.join(posix.dirname(binaryModule), wasm)
    expect(unpacked(file)).toBe(true)
    const copy = readFileSync(join(`${archive}.unpacked`, file))
    expect(copy.equals(readFileSync(join(ROOT, file)))).toBe(true)
  })

  it("unpacks libsql's native module, which the system loads from a real file", () => {
    const bundles = listPackage(archive, { isPack: false }).filter((path) =>
      /^\/out\/main\/.*\.js$/.test(path),
    )
    expect(bundles.some((bundle) => /from ["']libsql["']/.test(text(bundle)))).toBe(true)
    expect(packed(resolveInArchive('libsql'))).toBe(true)
    // libsql requires the prebuilt package of the machine it runs on, found as @neon-rs/load names it.
    const { currentTarget } = requireFromRoot('@neon-rs/load') as { currentTarget: () => string }
    const native = resolveInArchive(`@libsql/${currentTarget()}`)
    expect(native).toMatch(/\.node$/)
    expect(unpacked(native)).toBe(true)
  })

  it('runs from what it holds: libsql opens a database and the t1 worker checks a text', async () => {
    // The archive's contents alone, under plain Node: a dependency electron-builder left out fails here.
    const contents = join(work, 'contents')
    extractAll(archive, contents)
    const main = join(contents, 'out', 'main', 'index.js')
    const script = `
      const { createRequire } = require('node:module')
      const { Worker } = require('node:worker_threads')
      const Database = createRequire(${JSON.stringify(main)})('libsql')
      const sum = new Database(':memory:').prepare('SELECT 1 + 1 AS two').get().two
      const worker = new Worker(new URL(${JSON.stringify(pathToFileURL(join(contents, 'out', 'main', 't1-worker.js')).href)}))
      worker.once('message', (reply) => { console.log(JSON.stringify({ sum, reply })); process.exit(0) })
      worker.postMessage({ id: 1, text: 'The brwon fox.', dialect: 'american' })`
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], {
      cwd: contents,
      timeout: 120_000,
    })
    const { sum, reply } = JSON.parse(stdout) as { sum: number; reply: CheckReply }
    expect(sum).toBe(2)
    expect(reply).toMatchObject({
      id: 1,
      findings: [expect.objectContaining({ charStart: 4, charEnd: 9, rule: 'SpellCheck' })],
    })
  }, 120_000)

  it('sets the fuses: no running as Node, no NODE_OPTIONS or --inspect, encrypted cookies, only a verified app.asar', async () => {
    const wire = await getCurrentFuseWire(join(app, 'factdesk'))
    const fuse = (option: FuseV1Options): string => String.fromCharCode(wire[option] ?? 0)
    expect(fuse(FuseV1Options.RunAsNode)).toBe('0')
    expect(fuse(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe('0')
    expect(fuse(FuseV1Options.EnableNodeCliInspectArguments)).toBe('0')
    expect(fuse(FuseV1Options.EnableCookieEncryption)).toBe('1')
    expect(fuse(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe('1')
    expect(fuse(FuseV1Options.OnlyLoadAppFromAsar)).toBe('1')
  })
})

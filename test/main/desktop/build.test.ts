import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

// What the Electron binary would trip over at start, read from the build output instead (architecture.md, "The
// Electron shell"): a sandboxed preload must be CommonJS needing only 'electron', the main process must point at the
// file the build really writes, and the native SQLite module must stay outside the bundle.

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const OUT = join(ROOT, 'out')

const read = (...path: string[]): string => readFileSync(join(OUT, ...path), 'utf8')
const scripts = (folder: string): string[] =>
  readdirSync(join(OUT, folder), { recursive: true, encoding: 'utf8' }).filter((name) =>
    /\.[cm]?js$/.test(name),
  )
const required = (code: string): string[] =>
  [...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1] ?? '')
const imported = (code: string): string[] =>
  [
    ...code.matchAll(
      /^\s*(?:import|export)\b[^'"]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm,
    ),
  ].map((match) => match[1] ?? match[2] ?? '')

beforeAll(() => {
  if (!existsSync(OUT)) execFileSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'pipe' })
}, 120_000)

describe('the preload bundle', () => {
  it('is CommonJS, as a sandboxed preload must be', () => {
    const preload = read('preload', 'index.cjs')
    expect(preload).toContain('require("electron")')
    expect(preload).not.toMatch(/^\s*(import|export)\s/m)
    expect(imported(preload)).toEqual([])
  })

  it("requires nothing but 'electron': the sandbox can load no other module", () => {
    expect(new Set(required(read('preload', 'index.cjs')))).toEqual(new Set(['electron']))
  })
})

describe('the main bundle', () => {
  const main = (): string => read('main', 'index.js')

  it('loads the preload and serves the page from files the build wrote', () => {
    const preload = /["']\.\.\/preload\/([^"']+)["']/.exec(main())?.[1]
    expect(preload).toBe('index.cjs')
    expect(existsSync(join(OUT, 'preload', 'index.cjs'))).toBe(true)
    // The page is app://factdesk/index.html, served from out/renderer beside out/main.
    expect(main()).toMatch(/["']\.\.\/renderer["']/)
    expect(existsSync(join(OUT, 'renderer', 'index.html'))).toBe(true)
  })

  it('keeps libsql external, to be loaded with its native binary at run time', () => {
    const bundles = scripts('main').map((name) => read('main', name))
    expect(bundles.some((code) => [...imported(code), ...required(code)].includes('libsql'))).toBe(true)
    // Markers of libsql's own loader: had it been bundled, these would appear in the output.
    for (const code of bundles) {
      expect(code).not.toContain('databaseOpenWithSync')
      expect(code).not.toContain('@neon-rs/load')
    }
  })
})

import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The layering rule of architecture.md, checked on the sources themselves: 'electron' only in the shell, and the
// renderer never reaching into main-process or preload code.

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SHELL = [/^src\/main\/index\.ts$/, /^src\/main\/desktop\//, /^src\/preload\//]
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g

/// Every module a source names: static and dynamic imports, re-exports and requires.
function specifiers(source: string): string[] {
  return [...source.matchAll(SPECIFIER)].map((match) => match[1] ?? '')
}

const importsElectron = (source: string): boolean =>
  specifiers(source).some((name) => name === 'electron' || name.startsWith('electron/'))

/// Whether a renderer file at `file` (relative to the root) names anything under src/main or src/preload.
function reachesMain(file: string, source: string): boolean {
  return specifiers(source).some((name) => {
    const target = name.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), name)) : name
    return /^src[\\/](main|preload)([\\/]|$)/.test(target.split(sep).join('/'))
  })
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .map((name) => `${folder}/${name.split(sep).join('/')}`)
    .filter((file) => /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(file))
}

describe('the scanner', () => {
  it('sees every form of import', () => {
    for (const line of [
      "import { app } from 'electron'",
      'import type { WebContents } from "electron"',
      "import 'electron'",
      "const { shell } = await import('electron')",
      "const { ipcRenderer } = require('electron')",
      "export { app } from 'electron/main'",
    ]) {
      expect(importsElectron(line), line).toBe(true)
    }
    expect(importsElectron("import { electronics } from './electronics'")).toBe(false)
    expect(
      reachesMain('src/renderer/src/bridge/ipc.ts', "import { Service } from '../../../main/engine/service'"),
    ).toBe(true)
    expect(
      reachesMain('src/renderer/src/app.tsx', "import type { Engine } from '../../main/engine/engine'"),
    ).toBe(true)
    expect(reachesMain('src/renderer/src/app.tsx', "import x from '../../preload/index'")).toBe(true)
    expect(reachesMain('src/renderer/src/app.tsx', "import { ApiError } from '../../shared/errors'")).toBe(
      false,
    )
    expect(reachesMain('src/renderer/src/app.tsx', "import { main } from './main'")).toBe(false)
  })
})

describe('the layering of src/', () => {
  const files = sourceFiles('src')

  it('finds the sources', () => {
    expect(files).toContain('src/main/index.ts')
    expect(files).toContain('src/preload/index.ts')
  })

  it("imports 'electron' only in src/main/index.ts, src/main/desktop/ and src/preload/", () => {
    const leaks = files.filter(
      (file) =>
        !SHELL.some((allowed) => allowed.test(file)) &&
        importsElectron(readFileSync(join(ROOT, file), 'utf8')),
    )
    expect(leaks).toEqual([])
  })

  it('keeps the renderer out of main-process and preload code', () => {
    const leaks = files
      .filter((file) => file.startsWith('src/renderer/'))
      .filter((file) => reachesMain(file, readFileSync(join(ROOT, file), 'utf8')))
    expect(leaks).toEqual([])
  })
})

import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// The layering rule of architecture.md, checked on the sources themselves: 'electron' only in the shell, the
// renderer never reaching into main-process or preload code, and the renderer's editor CodeMirror only.

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SHELL = [/^src\/main\/index\.ts$/, /^src\/main\/desktop\//, /^src\/preload\//]
// A module's name never starts with a space: `'from' | 'to'` in a type is not an import.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"\s][^'"]*)['"]/g

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

/// What the editor (src/renderer/src/editor/: CodeMirror extensions) may import besides its own files and
/// src/shared; the spelling worker also loads Harper, as the other half of the editor's lint source.
const EDITOR = 'src/renderer/src/editor/'
const EDITOR_MAY = [/^@codemirror\//, /^@lezer\//]
const EDITOR_ALSO: Record<string, RegExp[]> = { [`${EDITOR}lint.worker.ts`]: [/^harper\.js(\/|$)/] }

/// The imports of an editor file at `file` that reach beyond CodeMirror, Lezer, src/shared and the editor.
function editorStrays(file: string, source: string): string[] {
  return specifiers(source).filter((name) => {
    if (name.startsWith('.')) {
      const target = relative(ROOT, resolve(ROOT, dirname(file), name))
        .split(sep)
        .join('/')
      return !target.startsWith(EDITOR) && !target.startsWith('src/shared/')
    }
    return ![...EDITOR_MAY, ...(EDITOR_ALSO[file] ?? [])].some((allowed) => allowed.test(name))
  })
}

/// An editor file that imports one thing of each kind, allowed or not.
const EDITOR_PROBE = [
  "import { EditorView } from '@codemirror/view'",
  "import { tags } from '@lezer/highlight'",
  "import { TIERS } from '../../../shared/schemas'",
  "import { claims } from './claims'",
  "import { LocalLinter } from 'harper.js'",
  "import { useStore } from 'zustand'",
  "import type { Desk } from '../state/desk'",
  "import { ClaimDetail } from '../components/panels/ClaimDetail'",
  "const sneaky = await import('./../state/checks')",
].join('\n')
const EDITOR_PROBE_REFUSED = [
  "'zustand'",
  "'../state/desk'",
  "'../components/panels/ClaimDetail'",
  "'./../state/checks'",
]

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
    expect(specifiers("type Span = Pick<Diagnostic, 'from' | 'to'>")).toEqual([])
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

describe("the editor's imports", () => {
  it('are read as allowed or not, the spelling worker alone loading Harper', () => {
    expect(editorStrays(`${EDITOR}claims.ts`, EDITOR_PROBE)).toEqual([
      'harper.js',
      ...EDITOR_PROBE_REFUSED.map((name) => name.slice(1, -1)),
    ])
    expect(editorStrays(`${EDITOR}lint.worker.ts`, EDITOR_PROBE)).toEqual(
      EDITOR_PROBE_REFUSED.map((name) => name.slice(1, -1)),
    )
  })

  it('are refused by ESLint as by this test', async () => {
    const eslint = new ESLint({ cwd: ROOT })
    const refused = async (file: string): Promise<string[]> => {
      const [result] = await eslint.lintText(EDITOR_PROBE, { filePath: join(ROOT, file) })
      return (result?.messages ?? [])
        .filter((message) => message.ruleId === 'no-restricted-imports')
        .map((message) => message.message.split(' ')[0] ?? '')
    }
    // ESLint does not follow dynamic imports; the test above does.
    const statically = EDITOR_PROBE_REFUSED.filter((name) => name !== "'./../state/checks'")
    expect(await refused(`${EDITOR}claims.ts`)).toEqual(["'harper.js'", ...statically])
    expect(await refused(`${EDITOR}lint.worker.ts`)).toEqual(statically)
  })

  it('reach only CodeMirror, Lezer, src/shared and the editor itself', () => {
    const strays = sourceFiles(EDITOR.slice(0, -1)).flatMap((file) =>
      editorStrays(file, readFileSync(join(ROOT, file), 'utf8')).map((name) => `${file} -> ${name}`),
    )
    expect(strays).toEqual([])
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

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The shape of the house (docs/architecture.md), read from the import graph of the sources: no import circle
// in src/ or eval/, the layers of src/ importing only downwards, and the engine's own parts (its folders and
// files) in layers too: no part imports one that imports it back, directly or by a detour.

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const SOURCE = /\.(ts|tsx)$/
/// Static and dynamic imports, re-exports (type-only ones too: they tie modules as much), requires and the
/// `new URL('./worker.ts', import.meta.url)` that starts a worker.
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|\bnew URL\(\s*)['"](\.{1,2}(?:\/[^'"?]*)?)(?:\?[^'"]*)?['"]/g
const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx']

type Graph = Map<string, string[]>

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .map((name) => `${folder}/${name.split(sep).join('/')}`)
    .filter((file) => SOURCE.test(file) && !file.endsWith('.d.ts'))
}

/// The source file a relative specifier names, from `file`; null for anything else (a stylesheet, a .wasm).
function target(file: string, specifier: string): string | null {
  const base = resolve(ROOT, dirname(file), specifier)
  for (const extension of EXTENSIONS) {
    const path = base + extension
    if (SOURCE.test(path) && existsSync(path) && statSync(path).isFile())
      return relative(ROOT, path).split(sep).join('/')
  }
  return null
}

function importsOf(file: string, source: string): string[] {
  const named = [...source.matchAll(SPECIFIER)].map((match) => target(file, match[1] ?? ''))
  return [...new Set(named.filter((name): name is string => name !== null))]
}

function graphOf(files: Record<string, string>): Graph {
  return new Map(Object.entries(files).map(([file, source]) => [file, importsOf(file, source)]))
}

/// The strongly connected groups of more than one node (Tarjan's): each is a circle of imports.
function circles(graph: Graph): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string): void => {
    index.set(node, counter)
    low.set(node, counter++)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0))
      }
    }
    if (low.get(node) !== index.get(node)) return
    const group: string[] = []
    let member: string | undefined
    do {
      member = stack.pop() as string
      onStack.delete(member)
      group.push(member)
    } while (member !== node)
    if (group.length > 1) found.push(group.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

/// The engine's part a file belongs to: its top folder or file under src/main/engine/.
const ENGINE = 'src/main/engine/'
const partOf = (file: string): string | null =>
  file.startsWith(ENGINE) ? (file.slice(ENGINE.length).split('/')[0] ?? '').replace(SOURCE, '') : null

/// The engine's arrows that point up: the imports between parts that import each other, directly or by a
/// detour, as "from -> to" (file to file).
function upwardArrows(graph: Graph): string[] {
  const parts: Graph = new Map()
  for (const [file, imports] of graph) {
    const from = partOf(file)
    if (from === null) continue
    const to = imports.map(partOf).filter((part): part is string => part !== null && part !== from)
    parts.set(from, [...new Set([...(parts.get(from) ?? []), ...to])])
  }
  const tangled = circles(parts)
  return [...graph].flatMap(([file, imports]) =>
    imports
      .filter((imported) => {
        const from = partOf(file)
        const to = partOf(imported)
        return (
          from !== null &&
          to !== null &&
          from !== to &&
          tangled.some((group) => group.includes(from) && group.includes(to))
        )
      })
      .map((imported) => `${file} -> ${imported}`),
  )
}

/// The layers of src/, lowest first: a file may import its own layer's files and those of the layers below.
/// The preload and the page stand apart, each on src/shared alone.
const LAYERS: { name: string; files: RegExp; may: string[] }[] = [
  { name: 'shared', files: /^src\/shared\//, may: [] },
  { name: 'engine', files: /^src\/main\/engine\//, may: ['shared'] },
  { name: 'server', files: /^src\/main\/server\//, may: ['engine', 'shared'] },
  { name: 'remote', files: /^src\/main\/remote\//, may: ['engine', 'shared'] },
  { name: 'cli', files: /^src\/main\/cli\//, may: ['server', 'engine', 'shared'] },
  { name: 'desktop', files: /^src\/main\/desktop\//, may: ['remote', 'server', 'engine', 'shared'] },
  { name: 'main', files: /^src\/main\/index\.ts$/, may: ['desktop', 'remote', 'server', 'engine', 'shared'] },
  { name: 'preload', files: /^src\/preload\//, may: ['shared'] },
  { name: 'renderer', files: /^src\/renderer\//, may: ['shared'] },
]
const layerOf = (file: string): string | undefined => LAYERS.find((layer) => layer.files.test(file))?.name

/// Imports that leave a file's layer for one it may not import, as "from -> to".
function crossings(graph: Graph): string[] {
  return [...graph].flatMap(([file, imports]) => {
    const from = LAYERS.find((layer) => layer.files.test(file))
    return imports
      .filter((imported) => {
        const to = layerOf(imported)
        return from !== undefined && to !== undefined && to !== from.name && !from.may.includes(to)
      })
      .map((imported) => `${file} -> ${imported}`)
  })
}

const read = (files: string[]): Record<string, string> =>
  Object.fromEntries(files.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]))

describe('the reading of the graph', () => {
  it('follows every form of import to the file it names', () => {
    const graph = graphOf({
      'src/main/engine/checks/views.ts': [
        "import type { Store } from '../store'",
        "import { JUDGE_UNIT } from '../tiers/tier'",
        "export { webhookView } from './views'",
        "const set = await import('../../../shared/pricing')",
        "import electron from 'electron'",
        "import './style.css'",
      ].join('\n'),
      'src/renderer/src/editor/lint.ts': "new Worker(new URL('./lint.worker.ts', import.meta.url))",
      'src/renderer/src/main.tsx': "import styles from './styles.css?inline'\nimport { App } from './App'",
    })
    expect(graph.get('src/main/engine/checks/views.ts')).toEqual([
      'src/main/engine/store/index.ts',
      'src/main/engine/tiers/tier.ts',
      'src/main/engine/checks/views.ts',
      'src/shared/pricing.ts',
    ])
    expect(graph.get('src/renderer/src/editor/lint.ts')).toEqual(['src/renderer/src/editor/lint.worker.ts'])
    expect(graph.get('src/renderer/src/main.tsx')).toEqual(['src/renderer/src/App.tsx'])
  })

  it('finds circles, arrows that point up and imports across layers', () => {
    const graph: Graph = new Map([
      ['src/main/engine/models/client.ts', ['src/main/engine/tiers/tier.ts']],
      ['src/main/engine/tiers/tier.ts', ['src/main/engine/store/index.ts']],
      ['src/main/engine/tiers/t2/index.ts', ['src/main/engine/models/client.ts']],
      ['src/main/engine/store/index.ts', ['src/main/server/app.ts']],
      ['src/main/server/app.ts', []],
      ['eval/index.ts', ['eval/spelling.ts']],
      ['eval/spelling.ts', ['eval/index.ts']],
    ])
    expect(circles(graph)).toEqual([['eval/index.ts', 'eval/spelling.ts']])
    expect(upwardArrows(graph)).toEqual([
      'src/main/engine/models/client.ts -> src/main/engine/tiers/tier.ts',
      'src/main/engine/tiers/t2/index.ts -> src/main/engine/models/client.ts',
    ])
    expect(crossings(graph)).toEqual(['src/main/engine/store/index.ts -> src/main/server/app.ts'])
  })
})

describe('the import graph of src/ and eval/', () => {
  const graph = graphOf(read([...sourceFiles('src'), ...sourceFiles('eval')]))

  it('reads the sources', () => {
    expect(graph.get('src/main/engine/engine.ts')).toContain('src/main/engine/checks/service.ts')
    expect(graph.get('src/renderer/src/main.tsx')?.length).toBeGreaterThan(0)
    expect(graph.get('eval/index.ts')).toContain('eval/spelling.ts')
  })

  it('has no import circle', () => {
    expect(circles(graph)).toEqual([])
  })

  it("has no arrow pointing up between the engine's parts", () => {
    expect(upwardArrows(graph)).toEqual([])
  })

  it("keeps the engine's top level to its rooms: at most 15 folders and files", () => {
    const top = readdirSync(join(ROOT, ENGINE))
    expect(top.length, top.join(', ')).toBeLessThanOrEqual(15)
  })

  it('imports from each layer of src/ only downwards', () => {
    expect(crossings(graph)).toEqual([])
  })
})

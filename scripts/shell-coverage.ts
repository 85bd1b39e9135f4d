import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { transformWithEsbuild } from 'vite'

// Which lines of the desktop shell (src/main/index.ts, src/main/desktop/) no Node test runs: the unit tests that
// import the shell run with V8's block coverage (scripts/shell-coverage.setup.ts), and each line that holds code
// counts as run when some of its code ran. A shell file no test imports counts whole.
//
//   npx tsx scripts/shell-coverage.ts [test files…]   (default: every test/ file that names the shell)

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SHELL = [
  'src/main/index.ts',
  ...readdirSync(join(ROOT, 'src/main/desktop')).map((f) => `src/main/desktop/${f}`),
]

interface Range {
  startOffset: number
  endOffset: number
  count: number
}
interface Script {
  url: string
  functions: { ranges: Range[] }[]
  source: string
}

/// The test files that import the shell, directly or by a path that names it.
function testsOfTheShell(): string[] {
  return readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .map((name) => join('test', name))
    .filter((file) => file.endsWith('.test.ts'))
    .filter((file) => /main\/(desktop|index)\b/.test(readFileSync(join(ROOT, file), 'utf8')))
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/// A source map's segments as [generated line, generated column, original line], all from 0.
function segments(mappings: string): [number, number, number][] {
  const found: [number, number, number][] = []
  let original = 0
  mappings.split(';').forEach((line, generatedLine) => {
    let column = 0
    for (const segment of line.split(',').filter(Boolean)) {
      const fields: number[] = []
      let value = 0
      let shift = 0
      for (const char of segment) {
        const digit = BASE64.indexOf(char)
        value += (digit & 31) << shift
        shift += 5
        if (digit & 32) continue
        fields.push(value & 1 ? -(value >>> 1) : value >>> 1)
        value = 0
        shift = 0
      }
      column += fields[0] ?? 0
      if (fields.length < 4) continue
      original += fields[2] ?? 0
      found.push([generatedLine, column, original])
    }
  })
  return found
}

/// The original lines (from 1) of `source` that hold code, each with whether any of it ran: the count at an
/// offset is that of the innermost range around it.
function lines(source: string, mappings: string, ranges: Range[]): Map<number, boolean> {
  const starts = [0]
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) starts.push(i + 1)
  const countAt = (offset: number): number => {
    let inner: Range | undefined
    for (const range of ranges) {
      if (range.startOffset > offset || offset >= range.endOffset) continue
      if (!inner || range.endOffset - range.startOffset < inner.endOffset - inner.startOffset) inner = range
    }
    return inner?.count ?? 0
  }
  const ran = new Map<number, boolean>()
  for (const [line, column, original] of segments(mappings)) {
    const run = ranges.length > 0 && countAt((starts[line] ?? 0) + column) > 0
    ran.set(original + 1, (ran.get(original + 1) ?? false) || run)
  }
  return ran
}

const inlineMap = (source: string): string => {
  const data = /sourceMappingURL=data:application\/json;[^,]*base64,([A-Za-z0-9+/=]+)/.exec(source)?.[1]
  if (!data) throw new Error('A shell module ran without its source map.')
  return (JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as { mappings: string }).mappings
}

const folder = mkdtempSync(join(tmpdir(), 'factdesk-shell-coverage-'))
try {
  const tests = process.argv.slice(2).length > 0 ? process.argv.slice(2) : testsOfTheShell()
  execFileSync('npx', ['vitest', 'run', '--config', 'scripts/shell-coverage.config.ts', ...tests], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, FACTDESK_SHELL_COVERAGE: folder },
  })
  const ran = new Map<string, Map<number, boolean>>()
  for (const name of readdirSync(folder)) {
    for (const script of JSON.parse(readFileSync(join(folder, name), 'utf8')) as Script[]) {
      const file = relative(ROOT, fileURLToPath(script.url.split('?')[0] ?? ''))
      const ranges = script.functions.flatMap((fn) => fn.ranges)
      const seen = ran.get(file) ?? new Map<number, boolean>()
      for (const [line, run] of lines(script.source, inlineMap(script.source), ranges)) {
        seen.set(line, (seen.get(line) ?? false) || run)
      }
      ran.set(file, seen)
    }
  }
  let total = 0
  let notRun = 0
  for (const file of SHELL) {
    let seen = ran.get(file)
    if (!seen) {
      // Never imported: the lines that hold code, as the tests' own transform would see them.
      const source = readFileSync(join(ROOT, file), 'utf8')
      const { code, map } = await transformWithEsbuild(source, pathToFileURL(join(ROOT, file)).href, {
        sourcemap: true,
      })
      seen = lines(code, map.mappings, [])
    }
    const missed = [...seen.values()].filter((run) => !run).length
    total += seen.size
    notRun += missed
    console.log(`${String(missed).padStart(4)} of ${String(seen.size).padStart(4)} lines not run  ${file}`)
  }
  console.log(
    `${String(notRun).padStart(4)} of ${String(total).padStart(4)} lines of the shell no Node test runs`,
  )
} finally {
  rmSync(folder, { recursive: true, force: true })
}

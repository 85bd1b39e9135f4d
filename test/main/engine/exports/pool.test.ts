import { execFile, execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { ExportPool } from '../../../../src/main/engine/exports/pool'
import { RENDERERS, renderFile, type RenderedFormat } from '../../../../src/main/engine/exports/render'
import { articleReport } from './article'
import { fixtureReport } from './fixture'

// Exports render on a pool of worker threads: from source under vitest and tsx, and from the bundle as
// electron-vite builds it (out/main/exports-worker.js) under plain Node, byte for byte as rendered in place.

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url))
const WORKER = join(ROOT, 'out', 'main', 'exports-worker.js')
const EXPORTS = join(ROOT, 'src', 'main', 'engine', 'exports')
const FORMATS = Object.keys(RENDERERS) as RenderedFormat[]

/// The bytes of a file, and of a Word file the files it zips, with what differs between any two renderings of it
/// (the time it was made, its random relationship ids) taken out.
function comparable(bytes: Uint8Array, format: RenderedFormat): string | Record<string, string> {
  if (format !== 'docx') return Buffer.from(bytes).toString('base64')
  return Object.fromEntries(
    Object.entries(unzipSync(bytes)).map(([name, data]) => [
      name,
      strFromU8(data)
        .replace(/\bId="rId[\w-]{8,}"|r:id="rId[\w-]{8,}"/g, 'rId')
        .replace(/<dcterms:(created|modified)[^<]*<\/dcterms:\1>/g, ''),
    ]),
  )
}

describe('the export pool', () => {
  it('renders the same bytes as in place, for several exports at once', async () => {
    const pool = new ExportPool()
    try {
      const reports = [fixtureReport(), articleReport().report]
      const tasks = reports.flatMap((report) => FORMATS.map((format) => ({ report, format })))
      const pooled = await Promise.all(tasks.map(({ report, format }) => pool.render(report, format)))
      const inPlace = await Promise.all(tasks.map(({ report, format }) => renderFile(report, format)))
      const files = (bytes: Uint8Array[]) => bytes.map((file, i) => comparable(file, tasks[i]!.format))
      expect(files(pooled)).toEqual(files(inPlace))
    } finally {
      await pool.close()
    }
  })

  it('runs bundled under plain Node', async () => {
    const sources = [
      join(ROOT, 'electron.vite.config.ts'),
      ...readdirSync(EXPORTS).map((name) => join(EXPORTS, name)),
    ]
    const built = existsSync(WORKER) ? statSync(WORKER).mtimeMs : 0
    if (sources.some((file) => statSync(file).mtimeMs > built))
      execFileSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'pipe' })
    const report = fixtureReport()
    const script = `
      import { Piscina } from 'piscina'
      const pool = new Piscina({ filename: ${JSON.stringify(pathToFileURL(WORKER).href)} })
      const bytes = await pool.run({ report: ${JSON.stringify(report)}, format: 'md' })
      console.log(Buffer.from(bytes).toString('base64'))
      await pool.destroy()`
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      timeout: 60_000,
    })
    expect(stdout.trim()).toBe(Buffer.from(await renderFile(report, 'md')).toString('base64'))
  }, 240_000)
})

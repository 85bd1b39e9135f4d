import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { exportReport } from '../../../src/main/engine/exports'
import { renderFile } from '../../../src/main/engine/exports/render'
import { toHtml } from '../../../src/main/engine/exports/html'
import { printFromFile } from '../../../src/main/desktop/printFile'
import { fixtureReport } from '../engine/exports/fixture'
import { tempDir } from '../../helpers/server'

// The desktop's PDF export loads the report from a file, not a data: URL, which Chromium caps at about 2 MB.

/// A report over 2 MB of HTML: the fixture's claims, then a long text after them.
function largeReport() {
  const report = fixtureReport()
  return {
    ...report,
    text: `${report.text}\n\n${'The Moon orbits the Earth every 27.3 days. '.repeat(60_000)}`,
  }
}

describe('printing a PDF from a file', () => {
  it('hands the printer a file URL of the whole report, removed once printed', async () => {
    const report = largeReport()
    const html = toHtml(report)
    expect(new TextEncoder().encode(html).length).toBeGreaterThan(2 * 1024 * 1024)
    const folder = join(tempDir(), 'printing')
    let loaded: string | null = null
    const exported = await exportReport(report, 'pdf', {
      render: renderFile,
      printPdf: (page) =>
        printFromFile(page, folder, async (url) => {
          expect(url.startsWith('file:')).toBe(true)
          loaded = readFileSync(fileURLToPath(url), 'utf8')
          return new Uint8Array(new TextEncoder().encode('%PDF-1.7'))
        }),
      publisher: {},
    })
    expect(loaded).toBe(html)
    expect(new TextDecoder().decode(exported.data)).toBe('%PDF-1.7')
    expect(readdirSync(folder)).toEqual([])
  })

  it('removes the file when printing fails too', async () => {
    const folder = join(tempDir(), 'printing')
    let file = ''
    await expect(
      printFromFile('<p>Moon</p>', folder, (url) => {
        file = fileURLToPath(url)
        expect(existsSync(file)).toBe(true)
        return Promise.reject(new Error('the printer stopped'))
      }),
    ).rejects.toThrow('the printer stopped')
    expect(existsSync(file)).toBe(false)
    expect(readdirSync(folder)).toEqual([])
  })
})

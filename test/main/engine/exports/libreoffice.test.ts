import { execFileSync, type ExecFileSyncOptionsWithStringEncoding } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { toDocx } from '../../../../src/main/engine/exports/docx'
import { tempDir } from '../../../helpers/server'
import { articleReport } from './article'

// The Word export as another word processor reads it: LibreOffice (Debian's `libreoffice-writer-nogui`, which
// .ci/run installs) opens the 1,500-word article's DOCX and prints it, its comments as PDF notes, the tracked
// corrections shown as changes. The first page is the screenshot in docs/.

const SOFFICE = ['/usr/bin/soffice', '/usr/lib/libreoffice/program/soffice'].find((path) => existsSync(path))
const DOCS = join(process.cwd(), 'docs')

describe.skipIf(SOFFICE === undefined)('the Word export in LibreOffice', () => {
  it('opens and prints with every comment and the tracked corrections; its first page in docs/', async () => {
    const { report, expected } = articleReport()
    const folder = tempDir()
    const docx = join(folder, 'report.docx')
    const bytes = await toDocx(report)
    writeFileSync(docx, bytes)
    const comments = strFromU8(unzipSync(bytes)['word/comments.xml'] as Uint8Array).match(/<w:comment /g)
    execFileSync(
      SOFFICE as string,
      [
        '--headless',
        `-env:UserInstallation=file://${join(folder, 'profile')}`,
        '--convert-to',
        'pdf:writer_pdf_Export:{"ExportNotes":{"type":"boolean","value":"true"}}',
        '--outdir',
        folder,
        docx,
      ],
      { stdio: 'ignore', timeout: 90_000 },
    )
    const pdf = join(folder, 'report.pdf')
    // Every Word comment became a note of the printed page.
    const notes = readFileSync(pdf)
      .toString('latin1')
      .match(/\/Subtype\s*\/Text\b/g)
    expect(notes?.length).toBe(comments?.length)
    const quiet: ExecFileSyncOptionsWithStringEncoding = {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }
    const text = execFileSync('pdftotext', [pdf, '-'], quiet).replace(/\s+/g, ' ')
    expect(text).toContain('Needs attention')
    // The correction is in the text, as a change LibreOffice shows (its words inserted).
    expect(text).toContain(expected.corrected.correction.replace(/\.$/, ''))
    const title = /Title:\s+(.*)/.exec(execFileSync('pdfinfo', [pdf], quiet))?.[1]
    expect(text).toContain(title)

    mkdirSync(DOCS, { recursive: true })
    execFileSync(
      'pdftoppm',
      ['-png', '-r', '80', '-f', '1', '-l', '1', '-singlefile', pdf, join(DOCS, 'report-docx')],
      { stdio: 'ignore' },
    )
  }, 120_000)
})

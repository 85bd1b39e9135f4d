import { spawn } from 'node:child_process'
import { once } from 'node:events'
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../../../src/shared/errors'
import { htmlToMarkdown, MAX_UNPACKED_BYTES } from '../../../../src/main/engine/files/docx'
import { kindOf, textOfFile } from '../../../../src/main/engine/files/formats'
import { writeFileAtomic } from '../../../../src/main/engine/files/write'
import { buildDocx } from './docx'

const WRITER = fileURLToPath(new URL('atomicWriter.ts', import.meta.url))
let folder: string

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'factdesk-files-'))
})
afterEach(() => rmSync(folder, { recursive: true, force: true }))

describe('atomic file writes', () => {
  it('replaces a file and keeps its permissions, leaving nothing beside it', async () => {
    const path = join(folder, 'article.md')
    writeFileSync(path, 'old text\n')
    chmodSync(path, 0o600)
    const replaced = statSync(path).ino
    await writeFileAtomic(path, 'new text — ünïcode\n')
    expect(readFileSync(path, 'utf8')).toBe('new text — ünïcode\n')
    // A new file renamed over the old one.
    expect(statSync(path).ino).not.toBe(replaced)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(readdirSync(folder)).toEqual(['article.md'])
  })

  it('writes through a symbolic link, and refuses a file without write permission as a plain write would', async () => {
    const real = join(folder, 'real.md')
    const link = join(folder, 'link.md')
    writeFileSync(real, 'old\n')
    symlinkSync(real, link)
    await writeFileAtomic(link, 'new\n')
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readFileSync(real, 'utf8')).toBe('new\n')

    // Renaming over a read-only file needs only the folder's permission (and root may write anything): the
    // writer's protection is honoured all the same.
    chmodSync(real, 0o444)
    await expect(writeFileAtomic(link, 'newer\n')).rejects.toMatchObject({ code: 'EACCES' })
    expect(readFileSync(real, 'utf8')).toBe('new\n')
    expect(readdirSync(folder).sort()).toEqual(['link.md', 'real.md'])
  })

  it('writes a file with several hard links in place, so every name shows the new text', async () => {
    const path = join(folder, 'article.md')
    const other = join(folder, 'backup-name.md')
    writeFileSync(path, 'old text, longer than the new one\n')
    chmodSync(path, 0o600)
    linkSync(path, other)
    const file = statSync(path).ino
    await writeFileAtomic(path, 'new text\n')
    expect(readFileSync(other, 'utf8')).toBe('new text\n')
    expect(readFileSync(path, 'utf8')).toBe('new text\n')
    expect(statSync(path)).toMatchObject({ ino: file, nlink: 2 })
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(readdirSync(folder).sort()).toEqual(['article.md', 'backup-name.md'])
  })

  // Kills a process saving `path` over and over at five different moments; `check` looks at what each left.
  async function killWhileSaving(path: string, check: () => void): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const child = spawn(process.execPath, ['--import', 'tsx', WRITER, path], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      const exited = once(child, 'exit')
      let said = ''
      await new Promise<void>((resolve) =>
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          said += chunk
          if (said.includes('writing')) resolve()
        }),
      )
      // Killed at a different moment each time: during the very first write, or some writes later.
      await new Promise((resolve) => setTimeout(resolve, attempt * 37))
      child.kill('SIGKILL')
      await exited
      check()
    }
  }
  const FULL = 4 * 1024 * 1024 + 1
  const whole = (text: string): boolean => text.length === FULL && new Set(text.slice(0, -1)).size === 1

  it('a process killed in the middle of saving leaves the old or the new file, never a part of one', async () => {
    const path = join(folder, 'big.md')
    await killWhileSaving(path, () => {
      // Killed before the first rename: there is no file yet, which is the old state.
      if (existsSync(path)) expect(whole(readFileSync(path, 'utf8'))).toBe(true)
    })
  })

  it('a process killed in the middle of saving a hard-linked file leaves it whole or its new text beside it', async () => {
    const path = join(folder, 'big.md')
    writeFileSync(path, 'old\n')
    linkSync(path, join(folder, 'other-name.md'))
    await killWhileSaving(path, () => {
      const text = readFileSync(path, 'utf8')
      const copies = readdirSync(folder)
        .filter((name) => name.endsWith('.tmp'))
        .map((name) => join(folder, name))
      expect(
        whole(text) || text === 'old\n' || copies.some((copy) => whole(readFileSync(copy, 'utf8'))),
      ).toBe(true)
      expect(statSync(path).nlink).toBe(2)
      // The next attempt is judged on its own copy.
      for (const copy of copies) rmSync(copy)
    })
  })
})

describe('opening files', () => {
  it('knows Markdown, text and Word files by name, and refuses others with a reason', () => {
    expect(kindOf('Notes.MD')).toBe('markdown')
    expect(kindOf('a.txt')).toBe('text')
    expect(kindOf('report.docx')).toBe('docx')
    expect(() => kindOf('photo.png')).toThrow(ApiError)
    expect(() => kindOf('photo.png')).toThrow(
      /opens Markdown \(\.md\), plain text \(\.txt\) and Word \(\.docx\)/,
    )
  })

  it('reads UTF-8 text as the editor holds it: no byte-order mark, \\n line ends', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('# Title\r\n\r\nÉcole — 1889.\r\n'),
    ])
    expect(await textOfFile('a.md', bytes)).toBe('# Title\n\nÉcole — 1889.\n')
    await expect(textOfFile('a.txt', Buffer.from([0xff, 0xfe, 0x41]))).rejects.toThrow(/is not UTF-8 text/)
  })

  it('imports a Word document as Markdown: headings, lists and emphasis kept', async () => {
    const docx = await buildDocx([
      { heading: 1, runs: ['The Eiffel Tower'] },
      { runs: ['It is ', { bold: '330 metres' }, ' tall and was ', { italic: 'finished' }, ' in 1889.'] },
      { heading: 2, runs: ['Facts'] },
      { list: { ordered: false, level: 0 }, runs: ['Paris is in France.'] },
      { list: { ordered: false, level: 1 }, runs: ['On the Seine.'] },
      { list: { ordered: false, level: 0 }, runs: ['Repainted every seven years.'] },
      { heading: 3, runs: ['Steps'] },
      { list: { ordered: true, level: 0 }, runs: ['Climb.'] },
      { list: { ordered: true, level: 0 }, runs: ['Look at *Paris*.'] },
    ])
    expect(await textOfFile('tower.docx', docx)).toBe(
      [
        '# The Eiffel Tower',
        'It is **330 metres** tall and was *finished* in 1889.',
        '## Facts',
        '- Paris is in France.\n  - On the Seine.\n- Repainted every seven years.',
        '### Steps',
        '1. Climb.\n2. Look at \\*Paris\\*.',
      ].join('\n\n'),
    )
  })

  it('refuses a Word document whose XML unpacks to more than 64 MB, and leaves its pictures packed', async () => {
    const text = [{ runs: ['Paris is the capital of France.'] }]
    const bomb = await buildDocx(text, { 'word/comments.xml': ' '.repeat(MAX_UNPACKED_BYTES) })
    expect(bomb.length).toBeLessThan(1024 * 1024)
    const refused = await textOfFile('bomb.docx', bomb).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ApiError)
    expect((refused as ApiError).code).toBe('unprocessable')
    expect((refused as ApiError).message).toBe(
      '"bomb.docx": This Word document unpacks to more than 64 MB of text and markup.',
    )

    const pictures = await buildDocx(text, {
      'word/media/image1.png': new Uint8Array(MAX_UNPACKED_BYTES + 1),
    })
    expect(await textOfFile('pictures.docx', pictures)).toBe('Paris is the capital of France.')
  })

  it('says so when a .docx is not a Word document', async () => {
    await expect(textOfFile('fake.docx', Buffer.from('not a zip'))).rejects.toThrow(
      /could not be read as a Word document/,
    )
  })

  it('turns simple HTML into Markdown', () => {
    expect(
      htmlToMarkdown(
        '<p>A <a href="https://example.org/a b">link</a>,<strong> bold </strong>and <code>x</code>.</p>' +
          '<blockquote><p>Quoted.</p></blockquote><p>1. Not a list</p><table><tr><td><p>a</p></td><td><p>b</p></td></tr></table>',
      ),
    ).toBe('A [link](https://example.org/a%20b), **bold** and `x`.\n\n> Quoted.\n\n\\1. Not a list\n\na | b')
  })
})

import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// test/renderer mirrors src/renderer/src: a test of the editor is in test/renderer/editor/, of a store in
// test/renderer/state/, and so on; tests of the whole page (its styles, the built page) stay at the top.

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/// The folders of `tests` (relative to `root`) with no namesake under `sources`.
function unmirrored(root: string, tests: string, sources: string): string[] {
  const files = readdirSync(join(root, tests), { recursive: true, encoding: 'utf8' })
    .map((name) => name.split(sep).join('/'))
    .filter((name) => name.endsWith('.test.ts'))
  const folders = [...new Set(files.map((name) => dirname(name)).filter((folder) => folder !== '.'))]
  return folders
    .filter((folder) => {
      const source = join(root, sources, folder)
      return !existsSync(source) || !statSync(source).isDirectory()
    })
    .map((folder) => `${tests}/${folder}`)
}

describe('the tests of the page', () => {
  it('are told apart when a folder has no namesake in the sources', () => {
    // test/architecture's own folder stands for a test folder; src/main for the sources.
    expect(unmirrored(ROOT, 'test', 'src/main')).toContain('test/architecture')
  })

  it('mirror src/renderer/src', () => {
    expect(unmirrored(ROOT, 'test/renderer', 'src/renderer/src')).toEqual([])
  })
})

import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')
const pages = [
  'README.md',
  'CHANGELOG.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]
const read = (page: string): string => readFileSync(join(root, page), 'utf8')
/// A page's text without its code: fenced blocks and inline code hold examples, not links.
const prose = (text: string): string => text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '')

/// The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens.
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
const anchors = (text: string): Set<string> =>
  new Set(
    [...text.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      slug((m[1] ?? '').replace(/`/g, '')),
    ),
  )

describe('README.md', () => {
  const readme = read('README.md')

  it('is the front door: at most 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300)
  })

  it('names no issue and keeps no measurement history', () => {
    expect(prose(readme)).not.toMatch(/#\d+\b|\bissues? \d+|used to|÷ before/i)
  })

  it('shows every screenshot in docs/', () => {
    const shown = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.png'))
    expect(shown.filter((name) => !readme.includes(`(docs/${name})`))).toEqual([])
  })
})

describe.each(pages)('%s', (page) => {
  it('links only to files and headings that exist', () => {
    const text = read(page)
    const broken: string[] = []
    for (const [, target = ''] of prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue
      const [path = '', anchor] = target.split('#')
      const file = path === '' ? join(root, page) : join(root, dirname(page), path)
      if (!existsSync(file)) broken.push(`${target}: no file ${relative(root, file)}`)
      else if (
        anchor !== undefined &&
        file.endsWith('.md') &&
        !anchors(readFileSync(file, 'utf8')).has(anchor)
      )
        broken.push(`${target}: no heading #${anchor}`)
    }
    expect(broken).toEqual([])
  })
})

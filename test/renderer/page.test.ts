import { existsSync, readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { beforeAll, expect, it } from 'vitest'
import { META_CONTENT_SECURITY_POLICY } from '../../src/shared/csp'

const built = new URL('../../out/renderer/index.html', import.meta.url)

beforeAll(() => {
  if (!existsSync(built)) execFileSync('npx', ['electron-vite', 'build'], { stdio: 'ignore' })
}, 180_000)

it('the built page carries the shared Content-Security-Policy in a meta element, first in its head', () => {
  const html = readFileSync(built, 'utf8')
  const meta = /<head>\s*<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)
  expect(meta?.[1]?.replaceAll('&#39;', "'")).toBe(META_CONTENT_SECURITY_POLICY)
  expect(META_CONTENT_SECURITY_POLICY).toContain("script-src 'self' 'wasm-unsafe-eval'")
  expect(META_CONTENT_SECURITY_POLICY).not.toContain('frame-ancestors')
})

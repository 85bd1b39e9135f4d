import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Report } from '../../../src/shared/schemas'
import { factdesk } from '../../helpers/cli'
import { tempDir } from '../../helpers/server'

const TEXT = [
  '# The tower',
  'The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World Fair in Paris.',
  '# The wall',
  'The Great Wall of China is more than 21,000 kilometres long according to a 2012 survey.',
  '# The bridge',
  'The Golden Gate Bridge was opened in 1937. Around ten million people visit it every yaer.',
].join('\n\n')

describe('factdesk check FILE of a manuscript longer than one check may be', () => {
  it('checks it in parts, estimated and reported as one on the offsets of the whole file, and again since then', async () => {
    const dir = tempDir()
    const file = join(dir, 'book.md')
    const config = join(dir, 'config.json')
    writeFileSync(file, TEXT)
    writeFileSync(config, JSON.stringify({ limits: { maxTextChars: 120 } }))
    const run = await factdesk(['check', file, '--json', '--config', config, '--data-dir', join(dir, 'data')])
    expect(run.stderr).toMatch(/^5 claims in 3 parts, 5 credits\nbalance 995 after the charge$/m)
    expect(run.code).toBe(0)
    const report = Report.parse(JSON.parse(run.stdout))
    expect(report.text).toBe(TEXT)
    expect(report.check).toMatchObject({ status: 'completed', name: 'book.md', claimCount: 5 })
    expect(report.check.credits.charged).toBe(5)
    expect(report.check.manuscript).toEqual({ id: report.check.id, parts: 3 })
    for (const claim of report.claims) expect(TEXT.slice(claim.charStart, claim.charEnd)).toBe(claim.text)
    const issues = report.claims.flatMap((claim) => claim.issues)
    expect(issues.map((issue) => TEXT.slice(issue.charStart, issue.charEnd))).toContain('yaer')

    // Checked again since the manuscript's check: every claim of every part kept, nothing charged.
    const again = await factdesk([
      'check',
      file,
      '--since',
      report.check.id,
      '--json',
      '--config',
      config,
      '--data-dir',
      join(dir, 'data'),
    ])
    expect(again.stderr).toMatch(
      /^5 claims in 3 parts \(5 unchanged, kept\), 0 credits\nbalance 995 after the charge$/m,
    )
    expect(again.code).toBe(0)
    const kept = Report.parse(JSON.parse(again.stdout))
    expect(kept.text).toBe(TEXT)
    expect(kept.claims.every((claim) => claim.carriedFrom !== null)).toBe(true)
  }, 60_000)
})

import { describe, expect, it } from 'vitest'
import { benchArgs, measurementsMarkdown, type BenchRun } from '../../bench/markdown'

const run: BenchRun = {
  date: '2026-12-01T21:00:00.000Z',
  machine: { cpu: 'Example CPU @ 2.00GHz', cpus: 2, memoryGiB: 8, load: 3.04 },
  node: 'v20.20.0',
  chromium: 'Chromium 140.0.7339.0 built on Debian',
  benchmarks: ['claims', 'estimates', 'api'],
  all: ['claims', 't1', 'estimates', 'api'],
  failed: { api: 'wrk timed out' },
  figures: [
    {
      benchmark: 'claims',
      name: 'claim extraction, 100k words',
      unit: 'words/s',
      median: 689_461.4,
      p95: 700_000,
      min: 650_000,
      max: 701_234,
      runs: 5,
      target: '≥ 200,000 words/s',
    },
    { benchmark: 'estimates', name: 'export ?format=html|md', unit: 'ms', median: 1.234, p95: 2.5, runs: 30 },
  ],
}

describe('measurementsMarkdown', () => {
  const markdown = measurementsMarkdown(run)

  it('names the machine, the versions, the date and the benchmarks left out, with no history', () => {
    expect(markdown).toMatch(/^# Measurements\n/)
    expect(markdown).toContain(
      '- Machine: Example CPU @ 2.00GHz, 2 cores, 8 GiB of memory; load average 3.0 when the run began',
    )
    expect(markdown).toContain('- Node v20.20.0; Chromium 140.0.7339.0 built on Debian')
    expect(markdown).toContain('- Date: 2026-12-01T21:00:00.000Z')
    expect(markdown).toContain('`claims`, `estimates`, `api` (not in this run: `t1`;')
    expect(markdown).not.toMatch(/before|used to/i)
  })

  it('writes one table per benchmark: median with its unit, spread, runs, target', () => {
    expect(markdown).toContain('## claims\n\n| benchmark | median | spread | runs | target |\n| --- |')
    expect(markdown).toContain(
      '| claim extraction, 100k words | 689,461 words/s | 650,000–701,234 | 5 | ≥ 200,000 words/s |',
    )
    // Quantiles only: the spread is the 95th percentile; a `|` in a name is escaped, not a new column.
    expect(markdown).toContain('| export ?format=html\\|md | 1.23 ms | p95 2.50 | 30 |  |')
  })

  it('says which benchmark failed and why, without a table', () => {
    expect(markdown).toContain('## api\n\nFailed: wrk timed out\n')
  })

  it('says every benchmark ran when none was left out, and no Chromium when none was found', () => {
    const all = measurementsMarkdown({ ...run, all: run.benchmarks, chromium: null })
    expect(all).not.toContain('not in this run')
    expect(all).toContain('- Node v20.20.0; no Chromium found')
  })
})

describe('benchArgs', () => {
  it('takes --markdown in any position among the benchmark names', () => {
    for (const argv of [
      ['--markdown', 'claims', 'estimates'],
      ['claims', '--markdown', 'estimates'],
      ['claims', 'estimates', '--markdown'],
    ]) {
      expect(benchArgs(argv)).toEqual({ names: ['claims', 'estimates'], markdown: true, unknownFlags: [] })
    }
    expect(benchArgs([])).toEqual({ names: [], markdown: false, unknownFlags: [] })
    expect(benchArgs(['claims', '--markdwon'])).toEqual({
      names: ['claims'],
      markdown: false,
      unknownFlags: ['--markdwon'],
    })
  })
})

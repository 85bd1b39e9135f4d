// docs/measurements.md from one run of the benchmarks: the figures as tables, one per benchmark, with the
// machine, the Node and Chromium versions and the date. Pure, so that a test can read what it writes.
import type { Figure } from './measure'

/// What one run of `npm run bench` measured, as bench/results/latest.json holds it.
export interface BenchRun {
  /// When the run ended, as an ISO date and time.
  date: string
  /// `load`: the one-minute load average when the run began (others' work on a shared machine slows figures).
  machine: { cpu: string; cpus: number; memoryGiB: number; load?: number }
  node: string
  chromium: string | null
  /// The benchmarks this run covers, in the order they ran.
  benchmarks: readonly string[]
  /// Every benchmark `npm run bench` knows, to say which this run left out.
  all: readonly string[]
  /// Benchmarks that failed, with their error.
  failed: Readonly<Record<string, string>>
  figures: readonly (Figure & { benchmark: string })[]
}

/// A number as the bench prints it: whole with thousands separators from 100 up, else three significant digits.
export const shown = (value: number | undefined): string =>
  value === undefined ? '' : value >= 100 ? Math.round(value).toLocaleString('en') : value.toPrecision(3)

/// A figure's spread: min to max over its runs, or its 95th percentile where the benchmark gives quantiles only.
export const spread = (figure: Figure): string =>
  figure.min === undefined || figure.max === undefined
    ? `p95 ${shown(figure.p95)}`
    : `${shown(figure.min)}–${shown(figure.max)}`

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

/// The markdown of docs/measurements.md for `run`.
export function measurementsMarkdown(run: BenchRun): string {
  const left = run.all.filter((name) => !run.benchmarks.includes(name))
  const lines = [
    '# Measurements',
    '',
    `Written by \`npm run bench -- --markdown\` on ${run.date.slice(0, 10)}: run it again to update the figures.`,
    'The bench runs Node with the young generation `factdesk serve` has (`--max-semi-space-size=2`).',
    'A figure is the median of its runs; its spread is the least and the greatest run, or the 95th percentile',
    'where a benchmark gives quantiles only; its target, where one is set, is what the median must meet.',
    "The REST API benchmark loads the server with `wrk` where it is installed, else with Node's HTTP client,",
    'and its figures name the client. `npm run bench -- NAME…` runs some of the benchmarks, and `--markdown`',
    'may stand anywhere among them. Accuracy is measured by `npm run eval`: its tables, each with its baselines,',
    'are in [evaluation](evaluation.md).',
    '',
    `- Machine: ${run.machine.cpu}, ${run.machine.cpus} cores, ${run.machine.memoryGiB} GiB of memory` +
      (run.machine.load === undefined
        ? ''
        : `; load average ${run.machine.load.toFixed(1)} when the run began`),
    `- Node ${run.node}; ${run.chromium ?? 'no Chromium found'}`,
    `- Date: ${run.date}`,
    `- Benchmarks: ${run.benchmarks.map((name) => `\`${name}\``).join(', ')}` +
      (left.length > 0
        ? ` (not in this run: ${left.map((name) => `\`${name}\``).join(', ')}; \`npm run bench -- --markdown\` runs every one)`
        : ''),
  ]
  for (const benchmark of run.benchmarks) {
    lines.push('', `## ${benchmark}`, '')
    const error = run.failed[benchmark]
    if (error !== undefined) {
      lines.push(`Failed: ${error}`)
      continue
    }
    lines.push('| benchmark | median | spread | runs | target |', '| --- | --- | --- | --- | --- |')
    for (const figure of run.figures.filter((f) => f.benchmark === benchmark)) {
      const row = [
        figure.name,
        `${shown(figure.median)} ${figure.unit}`,
        spread(figure),
        String(figure.runs),
        figure.target ?? '',
      ]
      lines.push(`| ${row.map(cell).join(' | ')} |`)
    }
  }
  return lines.join('\n') + '\n'
}

/// The benchmarks and flags of `npm run bench [-- NAME… --markdown]`, the flag in any position.
export function benchArgs(argv: readonly string[]): {
  names: string[]
  markdown: boolean
  unknownFlags: string[]
} {
  const flags = argv.filter((arg) => arg.startsWith('--'))
  return {
    names: argv.filter((arg) => !arg.startsWith('--')),
    markdown: flags.includes('--markdown'),
    unknownFlags: flags.filter((flag) => flag !== '--markdown'),
  }
}

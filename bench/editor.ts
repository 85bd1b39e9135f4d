// `npx tsx bench/editor.ts`: keystroke-to-paint latency of the writing editor in Chromium on a 50,000-word
// document with 1,000 claim decorations and 2,000 lint marks (the live spelling check's, from a stand-in for
// its worker), the main thread's share of a lint pass after a pause in typing, and the time to apply 1,000
// verdict updates in one transaction; then keystrokes in a 100,000-word manuscript (a claim in every sentence)
// while its verdicts land, 50 a frame. Prints a table and writes bench/results/editor.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { build } from 'esbuild'
import { stageStyles } from '../src/renderer/src/stageStyles'

const WORDS = 50_000
const CLAIMS = 1_000
const FINDINGS = 2_000
const KEYSTROKES = 300
const UPDATE_RUNS = 10
const RELINT_RUNS = 40
// A manuscript checked in parts (limits.maxTextChars): a claim in every sentence, verdicts landing meanwhile.
const MANUSCRIPT_WORDS = 100_000
const LANDING_PER_FRAME = 50

const root = join(import.meta.dirname, '..')
const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path) => path !== undefined && existsSync(path),
)

const bundle = await build({
  entryPoints: [join(import.meta.dirname, 'editorPage.ts')],
  bundle: true,
  write: false,
  format: 'iife',
  target: 'chrome120',
  minify: true,
})
const script = bundle.outputFiles[0]?.text ?? ''
// The page's style sheet and the stages' colours built from the vocabulary, as main.tsx adds them.
const styles = `${readFileSync(join(root, 'src/renderer/src/styles.css'), 'utf8')}\n${stageStyles()}`

const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] })
const page = await browser.newPage({ viewport: { width: 1280, height: 860 } })
await page.setContent('<!doctype html><html><head><meta charset="utf-8"></head><body></body></html>')
await page.addStyleTag({ content: `${styles}\nbody{height:100vh}.cm-editor{height:100vh}` })
await page.addScriptTag({ content: script })
const { claims: claimCount, marks } = await page.evaluate(
  ([words, claims, findings]) => window.bench.load(words, claims, findings),
  [WORDS, CLAIMS, FINDINGS] as const,
)

// One key at a time, each after the previous one was painted, so no keystroke waits behind another.
for (let i = 0; i < KEYSTROKES; i++) {
  await page.keyboard.type(i % 40 === 39 ? ' ' : 'a')
  await page.waitForFunction(
    (count) => (window as unknown as { latencies: number[] }).latencies.length > count,
    i,
    { polling: 'raf' },
  )
}
await page.waitForTimeout(200)
const { keystrokes, handling } = await page.evaluate(() => {
  const measured = window as unknown as { latencies: number[]; handling: number[] }
  return { keystrokes: measured.latencies.slice(20), handling: measured.handling.slice(20) }
})
const relints: number[] = []
for (let i = 0; i < RELINT_RUNS; i++) relints.push(await page.evaluate(() => window.bench.relint()))
const updates: number[] = []
for (let i = 0; i < UPDATE_RUNS; i++) {
  await page.evaluate(([words, claims, findings]) => window.bench.load(words, claims, findings), [
    WORDS,
    CLAIMS,
    FINDINGS,
  ] as const)
  updates.push(await page.evaluate(() => window.bench.updateAll()))
}

// Typing in a 100,000-word manuscript while its badges land.
const manuscript = await page.evaluate(([words, findings]) => window.bench.load(words, words, findings), [
  MANUSCRIPT_WORDS,
  FINDINGS,
] as const)
await page.evaluate(() => {
  const measured = window as unknown as { handling: number[] }
  measured.handling.length = 0
})
await page.evaluate((perFrame) => window.bench.startLanding(perFrame), LANDING_PER_FRAME)
for (let i = 0; i < KEYSTROKES; i++) {
  const before = await page.evaluate(() => (window as unknown as { handling: number[] }).handling.length)
  await page.keyboard.type(i % 40 === 39 ? ' ' : 'a')
  await page.waitForFunction(
    (count) => (window as unknown as { handling: number[] }).handling.length > count,
    before,
    { polling: 'raf' },
  )
}
const landed = await page.evaluate(() => window.bench.stopLanding())
const whileLanding = await page.evaluate(() =>
  (window as unknown as { handling: number[] }).handling.slice(20),
)
await browser.close()

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}
const figures = [
  {
    benchmark: `keystroke to editor updated and laid out (${WORDS} words, ${claimCount} claims, ${marks} lint marks)`,
    p50: quantile(handling, 0.5),
    p95: quantile(handling, 0.95),
    runs: handling.length,
  },
  {
    benchmark: `keystroke to the next frame, 60 Hz (${WORDS} words, ${claimCount} claims, ${marks} lint marks)`,
    p50: quantile(keystrokes, 0.5),
    p95: quantile(keystrokes, 0.95),
    runs: keystrokes.length,
  },
  {
    benchmark:
      `keystroke to editor updated and laid out while badges land (${MANUSCRIPT_WORDS} words, ` +
      `${manuscript.claims} claims, ${LANDING_PER_FRAME} verdicts a frame, ${landed} landed meanwhile)`,
    p50: quantile(whileLanding, 0.5),
    p95: quantile(whileLanding, 0.95),
    runs: whileLanding.length,
  },
  {
    benchmark: `lint pass after a pause in typing, main thread (${marks} lint marks)`,
    p50: quantile(relints, 0.5),
    p95: quantile(relints, 0.95),
    runs: relints.length,
  },
  {
    benchmark: `${claimCount} verdict updates in one transaction, to paint`,
    p50: quantile(updates, 0.5),
    p95: quantile(updates, 0.95),
    runs: updates.length,
  },
]
console.table(figures.map((f) => ({ ...f, p50: `${f.p50.toFixed(2)} ms`, p95: `${f.p95.toFixed(2)} ms` })))
const out = join(import.meta.dirname, 'results')
mkdirSync(out, { recursive: true })
writeFileSync(
  join(out, 'editor.json'),
  JSON.stringify({ date: new Date().toISOString(), figures }, null, 2) + '\n',
)

import { execFile, execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { extractClaims } from '../../../../src/main/engine/claims'
import { ClaimExtractor, type ExtractionTask } from '../../../../src/main/engine/claims/pool'
import { workerEntry, workerPool } from '../../../../src/main/engine/base/workerEntry'
import { FindClaims } from '../../../../src/shared/schemas'
import { readLabelledSentences, TRAINING_FILE } from '../../../../eval/training/checkworthiness'

// Claim extraction runs on a pool of worker threads: from source under vitest and tsx, and from the bundle as
// electron-vite builds it (out/main/claims-worker.js) under plain Node.

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url))
const WORKER = join(ROOT, 'out', 'main', 'claims-worker.js')
const CLAIMS = join(ROOT, 'src', 'main', 'engine', 'claims')
const TEXT =
  'The Eiffel Tower is 330 metres tall. It was finished in 1889, and Paris is the capital of France. Hello!'

describe('the claim extraction pool', () => {
  it('finds the claims extractClaims finds, for several texts at once', async () => {
    const extractor = new ClaimExtractor()
    try {
      const texts = [TEXT, `# Heading\n\n${TEXT}`, 'Nothing here.', `${TEXT} `.repeat(50)]
      const found = await Promise.all(texts.map((text) => extractor.extract(text)))
      expect(found).toEqual(texts.map((text) => extractClaims(text)))
      expect(found[0]?.length).toBeGreaterThan(1)
    } finally {
      await extractor.close()
    }
  })

  it('starts a thread on the first text, not before, and ends it when idle; the next text starts another', async () => {
    const started: Worker[] = []
    const onWorker = (worker: Worker): void => void started.push(worker)
    process.on('worker', onWorker)
    const extractor = new ClaimExtractor()
    try {
      expect(started).toHaveLength(0)
      expect(await extractor.extract(TEXT)).toEqual(extractClaims(TEXT))
      expect(started).toHaveLength(1)
      // An idle thread ends by itself, giving its memory back, without the extractor being closed.
      await new Promise((resolve) => started[0]?.once('exit', resolve))
      expect(await extractor.extract(TEXT)).toEqual(extractClaims(TEXT))
      expect(started).toHaveLength(2)
    } finally {
      process.off('worker', onWorker)
      await extractor.close()
    }
  })

  it("bounds each thread's heap as it is told", async () => {
    const pool = workerPool<ExtractionTask, unknown>(
      new URL('../../../../src/main/engine/claims/pool.ts', import.meta.url).href,
      './worker.ts',
      'claims-worker.js',
      1000,
      { maxYoungGenerationSizeMb: 8 },
    )
    try {
      await pool.run({ text: TEXT, findClaims: 'balanced' })
      expect(pool.threads.map((thread) => thread.resourceLimits?.maxYoungGenerationSizeMb)).toEqual([8])
    } finally {
      await pool.destroy()
    }
  })

  it('finds the worker beside its module from source, at the top of out/main when bundled', () => {
    expect(
      workerEntry('file:///repo/src/main/engine/claims/pool.ts', './worker.ts', 'claims-worker.js'),
    ).toEqual({
      url: new URL('file:///repo/src/main/engine/claims/worker.ts'),
      fromSource: true,
    })
    for (const module of ['file:///app/out/main/index.js', 'file:///app/out/main/chunks/engine-x1.js']) {
      expect(workerEntry(module, './worker.ts', 'claims-worker.js')).toEqual({
        url: new URL('file:///app/out/main/claims-worker.js'),
        fromSource: false,
      })
    }
  })

  it('runs bundled under plain Node', async () => {
    const sources = [
      join(ROOT, 'electron.vite.config.ts'),
      ...readdirSync(CLAIMS).map((name) => join(CLAIMS, name)),
    ]
    const built = existsSync(WORKER) ? statSync(WORKER).mtimeMs : 0
    if (sources.some((file) => statSync(file).mtimeMs > built))
      execFileSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'pipe' })
    const script = `
      import { Piscina } from 'piscina'
      const pool = new Piscina({ filename: ${JSON.stringify(pathToFileURL(WORKER).href)} })
      console.log(JSON.stringify(await pool.run({ text: ${JSON.stringify(TEXT)}, findClaims: 'more' })))
      await pool.destroy()`
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      timeout: 60_000,
    })
    expect(JSON.parse(stdout)).toEqual(extractClaims(TEXT, 'more'))
  }, 240_000)
})

describe('the claims a text has, by the writer’s "Find claims" setting', () => {
  it('fewer finds a part of balanced, balanced a part of more; the extractor asks the setting each time', async () => {
    // Debate sentences (talk: no rules of form), where each setting's threshold alone decides.
    const text = readLabelledSentences(TRAINING_FILE)
      .slice(0, 80)
      .map((row) => row.text)
      .join(' ')
    const texts = (findClaims: FindClaims) => extractClaims(text, findClaims).map((claim) => claim.text)
    const [fewer, balanced, more] = [texts('fewer'), texts('balanced'), texts('more')]
    expect(fewer.length).toBeLessThan(balanced.length)
    expect(balanced.length).toBeLessThan(more.length)
    expect(more).toEqual(expect.arrayContaining(balanced))
    expect(balanced).toEqual(expect.arrayContaining(fewer))
    let setting: FindClaims = 'fewer'
    const extractor = new ClaimExtractor(() => setting)
    try {
      expect((await extractor.extract(text)).map((claim) => claim.text)).toEqual(fewer)
      setting = 'more'
      expect((await extractor.extract(text)).map((claim) => claim.text)).toEqual(more)
    } finally {
      await extractor.close()
    }
  })

  it('holds the rules of form at each threshold: in prose a question is never a claim, a plain statement always', () => {
    const text = 'Is the tower 330 metres tall? The tower was painted in a new colour last spring.'
    for (const findClaims of FindClaims.options)
      expect(
        extractClaims(text, findClaims).map((claim) => claim.text),
        findClaims,
      ).toEqual(['The tower was painted in a new colour last spring.'])
  })
})

// The calibration map that `npm run eval -- verification --calibrate` saves beside the config file: the engine
// that runs on that file reads each decision's confidence through it; without it (or with a map it cannot read,
// which it says at start-up) the verdicts carry no calibrated confidence and the views show agreement instead.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { Config } from '../../../../../src/shared/config'
import {
  calibrated,
  calibrationFile,
  calibrationFor,
  type CalibrationMap,
} from '../../../../../src/main/engine/tiers/calibration'
import { factdesk } from '../../../../helpers/cli'
import { startFakeOpenAI, type FakeOpenAI } from '../../../../helpers/fakeOpenAI'
import { startServer, tempDir, waitForEnd, type TestServer } from '../../../../helpers/server'
import { judged, report, submitT2, t2Config } from './setup'
import { closeAfterEach } from '../../../../helpers/teardown'

const dir = mkdtempSync(join(tmpdir(), 'factdesk-calibration-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let fake: FakeOpenAI | undefined
let server: TestServer | undefined
closeAfterEach(
  () => [server, fake],
  () => (server = fake = undefined),
)

/// Verdicts given with 0.5 or more were right 60% of the time, those with 0.8 or more 90%.
const MAP = {
  t2: [
    { confidence: 0.5, probability: 0.6, claims: 10 },
    { confidence: 0.8, probability: 0.9, claims: 20 },
  ],
  t3: null,
}

/// A config file of a split panel (a says supported, b refuted, also after the debate) and a judge that
/// decides refuted with confidence 0.7, and beside it `map` (written as is) when given.
async function configWith(name: string, map?: unknown): Promise<string> {
  fake = await startFakeOpenAI({
    'model-a': { overrides: { verdict: 'supported', confidence: 0.9 } },
    'model-b': { overrides: { verdict: 'refuted', confidence: 0.9 } },
    'model-judge': { overrides: { verdict: 'refuted', confidence: 0.7 } },
  })
  const path = join(dir, name)
  writeFileSync(path, JSON.stringify(t2Config(fake, ['a', 'b'])))
  if (map !== undefined)
    writeFileSync(calibrationFile(path), typeof map === 'string' ? map : JSON.stringify(map))
  return path
}

/// The t2 consensus on one claim, checked by an engine on the config file `path`.
async function decide(path: string) {
  server = await startServer({ configPath: path, runner: { retryDelayMs: () => 10 } })
  const check = await submitT2(server, 'The Eiffel Tower is 330 metres tall.')
  expect((await waitForEnd(server, check.id)).status).toBe('completed')
  expect(judged(fake!).some((r) => r.body.response_format.json_schema.name === 'decision')).toBe(true)
  return (await report(server, check.id)).claims[0]!.consensus.t2!
}

describe('calibrated confidence', () => {
  it('with a map beside the config file: the judge’s confidence read through it', async () => {
    const consensus = await decide(await configWith('calibrated.json', MAP))
    expect(server!.engine.warnings).toEqual([])
    expect(consensus).toMatchObject({ verdict: 'refuted', confidence: 0.7, calibratedConfidence: 0.6 })
  })

  it('without one: none, as before', async () => {
    const consensus = await decide(await configWith('plain.json'))
    expect(consensus).toMatchObject({ verdict: 'refuted', confidence: 0.7, calibratedConfidence: null })
  })

  it('with one it cannot use: a warning that says why, and none', async () => {
    const path = await configWith('malformed.json', { t2: [{ confidence: 2, probability: 0.5 }] })
    const consensus = await decide(path)
    expect(consensus.calibratedConfidence).toBeNull()
    expect(server!.engine.warnings).toEqual([
      expect.stringMatching(
        /^The calibration map .*malformed\.json\.calibration\.json is not valid \(t2\.0\.confidence: .*\); verdicts show agreement and sources/,
      ),
    ])
  })

  it('factdesk starts with a map that is not JSON, and says so', async () => {
    const path = await configWith('broken.json', '{"t2": [')
    const result = await factdesk(['token', 'list', '--config', path, '--data-dir', tempDir()])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(
      /^factdesk: warning: The calibration map .*broken\.json\.calibration\.json cannot be read as JSON/,
    )
    expect(result.stderr).toContain('--calibrate')
  })

  it('reads a confidence as the share of its step (the first step’s below it), and only for the models it was fitted for', () => {
    const steps = MAP.t2
    expect([0.3, 0.5, 0.79, 0.8, 1].map((confidence) => calibrated(steps, confidence))).toEqual([
      0.6, 0.6, 0.6, 0.9, 0.9,
    ])
    const model = (id: string) => ({ id, provider: 'openai-compatible' as const, model: id })
    const fitted = Config.parse({ models: { panel: [model('a'), model('b')], judge: model('j') } }).models
    const map = MAP as CalibrationMap
    expect(calibrationFor(map, fitted, { ...fitted, batchSize: 4 })).toBe(map)
    // Models chosen in the app's settings instead were never calibrated.
    expect(calibrationFor(map, fitted, { ...fitted, panel: [model('a'), model('c')] })).toBeNull()
    expect(calibrationFor(null, fitted, fitted)).toBeNull()
  })
})

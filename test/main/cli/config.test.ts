import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openEngine } from '../../../src/main/engine/engine'
import { Report } from '../../../src/shared/schemas'
import { exited, factdesk, spawnFactdesk } from '../../helpers/cli'
import { startFakeOpenAI, type FakeOpenAI } from '../../helpers/fakeOpenAI'
import { tempDir } from '../../helpers/server'
import { t2Config } from '../engine/tiers/t2/setup'

// What a new user of the command line meets: an explicit --config against models saved in Settings, the
// advice when providers cannot be reached, the balance after the charge, and the verdicts counted per claim.
let fake: FakeOpenAI
beforeAll(async () => {
  fake = await startFakeOpenAI({
    'model-a': { overrides: { verdict: 'supported' } },
    'model-judge': { overrides: { verdict: 'supported' } },
  })
})
afterAll(() => fake.close())

const TEXT =
  'The letter was recieved in 1932 by the mayor of Paris.\n\nThe Eiffel Tower was finished in 1889.\n'

/// A data folder whose Settings name a model on a port nothing listens on, as a user's earlier choice.
async function folderWithSavedModels(): Promise<{ dir: string; data: string; file: string; config: string }> {
  const dir = tempDir()
  const data = join(dir, 'data')
  const engine = await openEngine({ dataDir: data })
  await engine.settings.update(await engine.localPrincipal(), {
    models: {
      panel: [{ id: 'saved-a', provider: 'openai-compatible', baseURL: 'http://127.0.0.1:1/v1', model: 'x' }],
      judge: {
        id: 'saved-judge',
        provider: 'openai-compatible',
        baseURL: 'http://127.0.0.1:1/v1',
        model: 'x',
      },
    },
  })
  await engine.close()
  const file = join(dir, 'article.md')
  writeFileSync(file, TEXT)
  const config = join(dir, 'fake.json')
  writeFileSync(config, JSON.stringify(t2Config(fake, ['a'])))
  return { dir, data, file, config }
}

describe('factdesk check with models saved in Settings', { timeout: 120_000 }, () => {
  it('an explicit --config wins for that run; the balance is printed after the charge, each claim counted once', async () => {
    const { data, file, config } = await folderWithSavedModels()
    const result = await factdesk(['check', file, '--tiers', 't1,t2', '--config', config, '--data-dir', data])
    expect(result.stderr).toMatch(
      /^2 claims, 10 credits\nbalance 990 after the charge\nCheck chk_\w+ completed: export it with factdesk export chk_\w+ --format [\w|]+\n$/,
    )
    expect(result.code).toBe(0)
    expect(fake.of('model-a').length).toBeGreaterThan(0)
    // Two claims, each with a t1 and a t2 verdict: counted by t2's, the check's headline tier.
    expect(result.stdout).toMatch(/\nverdicts: supported 2\n?$/)

    const json = await factdesk([
      'check',
      file,
      '--tiers',
      't2',
      '--json',
      '--config',
      config,
      '--data-dir',
      data,
    ])
    const report = Report.parse(JSON.parse(json.stdout))
    expect(report.claims[0]?.evaluations.map((evaluation) => evaluation.model)).toEqual(['panel-a'])
  })

  it('without --config, the saved models are used, and a refusal gives advice for the command line', async () => {
    const { data, file } = await folderWithSavedModels()
    const result = await factdesk(['check', file, '--tiers', 't2', '--data-dir', data])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(
      /\nfactdesk: The providers this check needs cannot be reached \(model "saved-a"/,
    )
    expect(result.stderr).toMatch(/Nothing was charged; try again when you are online\.\n$/)
    expect(result.stderr).not.toMatch(/POST|pending-checks/)
  })

  it('serve says at start which store it uses and where its models and search provider come from', async () => {
    const { data, config } = await folderWithSavedModels()
    const child = spawnFactdesk(['serve', '--port', '0', '--config', config, '--data-dir', data])
    let said = ''
    child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()))
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
    child.kill('SIGTERM')
    expect(await exited(child)).toBe(0)
    expect(said).toBe(
      `factdesk: store: SQLite at ${join(data, 'factdesk.db')}\n` +
        `factdesk: models from Settings (saved in the data folder); search from ${config}\n`,
    )
  })
})

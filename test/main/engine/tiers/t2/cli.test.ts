import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Report } from '../../../../../src/shared/schemas'
import { factdesk } from '../../../../helpers/cli'
import { startFakeOpenAI, type FakeOpenAI } from '../../../../helpers/fakeOpenAI'
import { tempDir } from '../../../../helpers/server'
import { t2Config } from './setup'

// `factdesk check FILE --tiers t2` in a child process, with a config file pointing at an OpenAI-compatible
// server (the fake here; Ollama in the README).
let fake: FakeOpenAI
beforeAll(async () => {
  fake = await startFakeOpenAI({
    'model-a': { overrides: { verdict: 'refuted' } },
    'model-judge': { overrides: { verdict: 'refuted', correction: 'The tower is 330 metres tall.' } },
  })
})
afterAll(() => fake.close())

describe('factdesk check --tiers t2', () => {
  it('runs the panel and the judge and prints the verdicts', async () => {
    const dir = tempDir()
    const file = join(dir, 'article.md')
    writeFileSync(file, 'The Eiffel Tower is 300 metres tall.\n')
    const config = join(dir, 'factdesk.json')
    writeFileSync(config, JSON.stringify(t2Config(fake, ['a'])))
    const args = ['check', file, '--tiers', 't2', '--config', config, '--data-dir', join(dir, 'data')]

    const text = await factdesk(args)
    expect(text.stderr).toMatch(
      /^1 claim, 4 credits\nbalance 996 after the charge\nCheck chk_\w+ completed: export it with factdesk export chk_\w+ --format [\w|]+\n$/,
    )
    expect(text.code).toBe(0)
    expect(text.stdout).toContain('t2: refuted')
    expect(text.stdout).toContain('suggested: (unverified) The tower is 330 metres tall.')

    const json = await factdesk([...args, '--json'])
    expect(json.code).toBe(0)
    const report = Report.parse(JSON.parse(json.stdout))
    expect(report.check.status).toBe('completed')
    // The second run's vote came from the cache in the same data folder; only the judge was asked again.
    expect(report.claims[0]!.evaluations).toMatchObject([
      { model: 'panel-a', verdict: 'refuted', cached: true },
    ])
    expect(fake.of('model-a')).toHaveLength(1)
    expect(fake.of('model-judge')).toHaveLength(2)
  })

  it('without models, says how to configure them', async () => {
    const dir = tempDir()
    const file = join(dir, 'article.md')
    writeFileSync(file, 'The Eiffel Tower is 300 metres tall.\n')
    const result = await factdesk(['check', file, '--tiers', 't2', '--data-dir', join(dir, 'data')])
    expect(result.code).not.toBe(0)
    expect(result.stderr).toMatch(/t2 needs language models: add a panel and a judge under "models"/)
  })
})

// Settings saved on one replica of a team server reach the others while they run: models, search provider and
// keys are read again when the database tells of a change, and the tiers use them for new work.
import { afterEach, describe, expect, it } from 'vitest'
import { Config } from '../../../../src/shared/config'
import { hasEnded } from '../../../../src/shared/vocabulary'
import { openEngine, type Engine } from '../../../../src/main/engine/engine'
import { startFakeOpenAI, type FakeOpenAI } from '../../../helpers/fakeOpenAI'
import { postgresForTests } from '../../../helpers/postgres'
import { tempDir } from '../../../helpers/server'

const postgres = postgresForTests()

const [KEY, NEW_KEY] = ['sk-test-first-key-1111', 'sk-test-second-key-2222']

let opened: { close(): Promise<void> }[] = []
afterEach(async () => {
  const closing = opened.reverse()
  opened = []
  for (const each of closing) await each.close()
})

async function replica(database: string, runJobs: boolean): Promise<Engine> {
  const engine = await openEngine({ dataDir: tempDir(), database, config: Config.parse({}), runJobs })
  opened.push(engine)
  return engine
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition();) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/// A t2 check of the one claim `text` on `engine`, to its end (a claim of its own: no vote from the cache).
async function checkOn(engine: Engine, text: string): Promise<void> {
  const principal = await engine.localPrincipal()
  const { check } = await engine.service.submit(principal, { text, tiers: ['t2'] })
  const now = await engine.service.getCheck(principal, check.id)
  const end = hasEnded(now) ? now : await engine.events.ended(check.id)
  expect(end.status).toBe('completed')
}

describe.skipIf(postgres.skip)('settings saved on one replica', () => {
  let fake: FakeOpenAI | undefined
  afterEach(async () => {
    await fake?.close()
    fake = undefined
  })

  it("reach the other replica's tiers for new work, and so does a key saved later", async () => {
    const started = await startFakeOpenAI({ '*': { overrides: { verdict: 'supported', confidence: 0.9 } } })
    fake = started
    const model = (id: string, name: string, apiKey?: string) => ({
      id,
      provider: 'openai-compatible' as const,
      baseURL: started.baseURL,
      model: name,
      ...(apiKey === undefined ? {} : { apiKey }),
    })
    const database = await postgres.database()
    // The replica the settings are saved on runs no work: the other one checks.
    const saving = await replica(database, false)
    const checking = await replica(database, true)
    expect(checking.settings.effective().models.panel).toEqual([])

    const owner = await saving.localPrincipal()
    await saving.settings.update(owner, {
      models: { panel: [model('panel-a', 'model-a', KEY)], judge: model('judge', 'model-judge') },
    })
    await until(() => checking.settings.effective().models.panel.length === 1)
    await checkOn(checking, 'Paris is the capital of France.')
    expect(started.of('model-a').at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`)

    // The same model with another key: only the sealed key changed.
    await saving.settings.update(owner, { models: { panel: [model('panel-a', 'model-a', NEW_KEY)] } })
    await until(() => checking.settings.keys.model('panel-a', undefined) === NEW_KEY)
    await checkOn(checking, 'Rome is the capital of Italy.')
    expect(started.of('model-a').at(-1)?.headers.authorization).toBe(`Bearer ${NEW_KEY}`)
  })

  it('on the replica that saves them, each save reads back at once, whatever the telling of the one before does', async () => {
    const engine = await replica(await postgres.database(), false)
    const owner = await engine.localPrincipal()
    for (let n = 0; n < 40; n++) {
      const word = `word${n}`
      await engine.settings.update(owner, { writing: { dictionary: [word] } })
      // The save before told every replica, this one too, which reads the settings again: never over this save.
      expect(engine.settings.view(owner).writing.dictionary).toEqual([word])
      await new Promise((resolve) => setTimeout(resolve, n % 3))
      expect(engine.settings.view(owner).writing.dictionary).toEqual([word])
    }
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { modelHandle } from '../../../../../src/main/engine/models'
import { apiKeys } from '../../../../../src/main/engine/base/keys'
import { PermanentError } from '../../../../../src/main/engine/base/errors'
import { startFakeOpenAI, type FakeOpenAI } from '../../../../helpers/fakeOpenAI'
import { waitForEnd, type TestServer } from '../../../../helpers/server'
import { report, startT2Server, submitT2, t2Config } from './setup'

let fake: FakeOpenAI
let server: TestServer
beforeAll(async () => {
  fake = await startFakeOpenAI({ 'model-o': { overrides: { verdict: 'misleading' } } })
})
afterAll(async () => {
  await server?.close()
  await fake.close()
})

describe('model providers', () => {
  it('ollama: votes through Ollama’s native /api/chat with the schema as `format`', async () => {
    const config = t2Config(fake, ['a'])
    config.models!.panel = [{ id: 'local', provider: 'ollama', baseURL: fake.ollamaURL, model: 'model-o' }]
    server = await startT2Server(config)
    const check = await submitT2(server, 'The Eiffel Tower is 330 metres tall.')
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    const [request] = fake.of('model-o')
    expect(request).toMatchObject({ path: '/api/chat', stream: false, outcome: 200 })
    expect(request!.body.format).toMatchObject({
      type: 'object',
      required: ['rationale', 'confidence', 'detail', 'verdict'],
    })
    const [vote] = (await report(server, check.id)).claims[0]!.evaluations
    expect(vote).toMatchObject({
      model: 'local',
      verdict: 'misleading',
      usage: { inputTokens: request!.usage!.prompt_tokens, outputTokens: request!.usage!.completion_tokens },
    })
  })

  it('openai, anthropic and google models are made from the config with the key from the environment', async () => {
    const env = { KEY: 'k-123' }
    for (const provider of ['openai', 'anthropic', 'google'] as const) {
      const handle = modelHandle(
        { id: provider, provider, model: 'some-model', apiKeyEnv: 'KEY' },
        'models.judge',
        apiKeys(null, env),
      )
      const model = await handle.languageModel()
      expect(typeof model === 'object' && model.modelId).toBe('some-model')
      expect(handle.providerKey).toMatch(/^\w+ https:\/\//)
    }
  })

  it('an openai-compatible model without a baseURL is a configuration error, reported when used', async () => {
    const handle = modelHandle({ id: 'x', provider: 'openai-compatible', model: 'm' }, 'models.panel[0]')
    await expect(handle.languageModel()).rejects.toThrow(PermanentError)
    await expect(handle.languageModel()).rejects.toThrow(
      /"x" \(models\.panel\[0\]\) is openai-compatible and needs a baseURL/,
    )
  })
})

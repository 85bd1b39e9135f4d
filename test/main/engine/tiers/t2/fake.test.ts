import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import { generateText, Output, streamText } from 'ai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { startFakeOpenAI, type FakeOpenAI } from '../../../../helpers/fakeOpenAI'

// The fake itself, through the real AI SDK provider: what every t2 test relies on.
let fake: FakeOpenAI
beforeAll(async () => {
  fake = await startFakeOpenAI({ '*': { overrides: { verdict: 'misleading' } } })
})
afterAll(() => fake.close())

const schema = z.object({
  verdict: z.enum(['supported', 'refuted', 'misleading', 'unverifiable']),
  confidence: z.number().min(0).max(1),
  rationale: z.string(),
  note: z.string().nullable(),
  tags: z.array(z.string()),
})

const provider = () =>
  createOpenAICompatible({
    name: 'fake',
    baseURL: fake.baseURL,
    apiKey: 'test-key',
    supportsStructuredOutputs: true,
    includeUsage: true,
  })

describe('the fake OpenAI-compatible server', () => {
  it('answers response_format json_schema with an object that follows the schema, with usage', async () => {
    const result = await generateText({
      model: provider()('model-x'),
      prompt: 'Check this.',
      output: Output.object({ schema, name: 'vote' }),
      maxRetries: 0,
    })
    expect(schema.parse(result.output)).toMatchObject({ verdict: 'misleading', confidence: 0.8 })
    expect(result.totalUsage.inputTokens).toBeGreaterThan(10)
    expect(result.totalUsage.outputTokens).toBeGreaterThan(5)
    const request = fake.of('model-x').at(-1)!
    expect(request.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'vote' } })
    expect(request.body.tools).toBeUndefined()
    expect(request.headers.authorization).toBe('Bearer test-key')
    expect(request.outcome).toBe(200)
  })

  it('streams the same answer as server-sent events, with usage at the end', async () => {
    const result = streamText({
      model: provider()('model-s'),
      prompt: 'Check this.',
      output: Output.object({ schema, name: 'vote' }),
      maxRetries: 0,
    })
    let chunks = 0
    for await (const _ of result.textStream) chunks++
    expect(chunks).toBeGreaterThan(1)
    expect(schema.parse(await result.output)).toMatchObject({ verdict: 'misleading' })
    expect((await result.totalUsage).outputTokens).toBeGreaterThan(5)
    expect(fake.of('model-s').at(-1)).toMatchObject({ stream: true, outcome: 200 })
  })

  it('fails as told: 429 with Retry-After, 500, and a request that never answers until the client leaves', async () => {
    fake.behave('model-f', { failures: [{ status: 429, retryAfter: '7' }, { status: 500 }, { hang: true }] })
    const call = (signal?: AbortSignal) =>
      generateText({ model: provider()('model-f'), prompt: 'x', maxRetries: 0, abortSignal: signal })
    await expect(call()).rejects.toMatchObject({ statusCode: 429, responseHeaders: { 'retry-after': '7' } })
    await expect(call()).rejects.toMatchObject({ statusCode: 500 })
    await expect(call(AbortSignal.timeout(100))).rejects.toThrow()
    await expect.poll(() => fake.of('model-f').map((r) => r.outcome)).toEqual([429, 500, 'closed'])
    expect((await call()).text).toBe('This is the fake model.')
  })
})

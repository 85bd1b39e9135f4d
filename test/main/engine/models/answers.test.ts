import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ModelClient, modelHandle, UnusableAnswerError } from '../../../../src/main/engine/models'
import { startFakeOpenAI, type FakeOpenAI } from '../../../helpers/fakeOpenAI'

// A model's answer is untrusted input: read what can be read, ask again once saying what was wrong, and tell the
// caller what was still wrong after that. Through the AI SDK, over HTTP, to the fake OpenAI-compatible server.
const Vote = z.object({
  passage: z.string(),
  confidence: z.number().min(0).max(1),
  verdict: z.enum(['supported', 'refuted', 'not_checkable']).nullable(),
})

let fake: FakeOpenAI
afterEach(() => fake?.close())

async function ask(answers: unknown[], check?: (vote: z.infer<typeof Vote>) => string | null) {
  let served = 0
  fake = await startFakeOpenAI({ m: { answer: () => answers[Math.min(served++, answers.length - 1)] } })
  const client = new ModelClient({
    requestTimeoutMs: 5000,
    maxRetries: 0,
    retryDelayMs: 10,
    concurrencyPerProvider: 2,
  })
  const handle = modelHandle(
    { id: 'm', provider: 'openai-compatible', baseURL: fake.baseURL, model: 'm' },
    'test',
  )
  const request = {
    system: 'Vote.',
    prompt: 'Vote on the claim.',
    schema: Vote,
    name: 'vote',
    signal: AbortSignal.timeout(10_000),
  }
  return client.generate(handle, check ? { ...request, check } : request)
}

describe('a structured answer', () => {
  it('is read through code fences, words around it, an enum in another case and a confidence in percent', async () => {
    const answer = await ask([
      'Sure! ```json\n{"passage": "P1", "confidence": "80%", "verdict": " Supported"}\n```',
    ])
    expect(answer).toMatchObject({
      object: { passage: 'P1', confidence: 0.8, verdict: 'supported' },
      problem: null,
    })
    expect(fake.requests).toHaveLength(1)
  })

  it('reads members named in another case', async () => {
    const answer = await ask([{ Passage: 'P1', ' CONFIDENCE': 0.6, Verdict: 'refuted' }])
    expect(answer.object).toEqual({ passage: 'P1', confidence: 0.6, verdict: 'refuted' })
    expect(fake.requests).toHaveLength(1)
  })

  it('reads a member that may be null, left out, as null', async () => {
    const answer = await ask([{ passage: 'P1', confidence: 0.6 }])
    expect(answer.object).toEqual({ passage: 'P1', confidence: 0.6, verdict: null })
    expect(fake.requests).toHaveLength(1)
  })

  it('reads "not checkable" and the string "null" as the schema means them', async () => {
    expect((await ask([{ passage: 'P1', confidence: 0.5, verdict: 'Not Checkable' }])).object.verdict).toBe(
      'not_checkable',
    )
    expect((await ask([{ passage: 'P1', confidence: 0.5, verdict: 'null' }])).object.verdict).toBeNull()
  })

  it('that is not JSON is asked for again once, with the answer and what was wrong', async () => {
    const answer = await ask([
      'I think it is supported.',
      { passage: 'P2', confidence: 0.7, verdict: 'refuted' },
    ])
    expect(answer.object).toEqual({ passage: 'P2', confidence: 0.7, verdict: 'refuted' })
    expect(fake.requests).toHaveLength(2)
    const again = fake.requests[1]!.body.messages
    expect(again.map((m: { role: string }) => m.role)).toEqual(['system', 'user', 'assistant', 'user'])
    expect(JSON.stringify(again[2])).toContain('I think it is supported.')
    expect(JSON.stringify(again[3])).toContain('it is not JSON')
    // Both requests' tokens are counted.
    expect(answer.usage!.inputTokens).toBe(fake.requests.reduce((sum, r) => sum + r.usage!.prompt_tokens, 0))
  })

  it('that keeps breaking the schema fails as unusable after the second request', async () => {
    await expect(ask([{ passage: 1 }, { verdict: 'maybe' }])).rejects.toBeInstanceOf(UnusableAnswerError)
    expect(fake.requests).toHaveLength(2)
  })

  it('that its check finds wrong is asked again, told why, and returned with the problem when still wrong', async () => {
    const check = (vote: { passage: string }) => (vote.passage === 'P9' ? 'there is no passage P9' : null)
    const mended = await ask(
      [
        { passage: 'P9', confidence: 0.5, verdict: null },
        { passage: 'P1', confidence: 0.5, verdict: null },
      ],
      check,
    )
    expect(mended).toMatchObject({ object: { passage: 'P1' }, problem: null })
    expect(JSON.stringify(fake.requests[1]!.body.messages[3])).toContain('there is no passage P9')
    const still = await ask([{ passage: 'P9', confidence: 0.5, verdict: null }], check)
    expect(still).toMatchObject({ object: { passage: 'P9' }, problem: 'there is no passage P9' })
    expect(fake.requests).toHaveLength(2)
  })
})

import type { ConfigInput } from '../../../../../src/shared/config'
import { Report } from '../../../../../src/shared/schemas'
import type { FakeOpenAI, RecordedRequest } from '../../../../helpers/fakeOpenAI'
import { call, startServer, type TestServer } from '../../../../helpers/server'

/// The t2 members of a config whose models are all served by `fake`: panel ids `panel-a`… answer as models
/// `model-a`…, the judge as `model-judge`, the resolver of claims into statements as `model-resolver`.
/// Requests time out and back off quickly.
export function t2Config(
  fake: FakeOpenAI,
  panel: string[] = ['a', 'b', 'c'],
  tuning: NonNullable<ConfigInput['models']> = {},
): ConfigInput {
  const model = (id: string, name: string) => ({
    id,
    provider: 'openai-compatible' as const,
    baseURL: fake.baseURL,
    model: name,
  })
  return {
    models: {
      panel: panel.map((letter) => model(`panel-${letter}`, `model-${letter}`)),
      judge: model('judge', 'model-judge'),
      resolver: model('resolver', 'model-resolver'),
      requestTimeoutMs: 2000,
      retryDelayMs: 20,
      maxRetries: 2,
      ...tuning,
    },
  }
}

/// The real engine and HTTP server with t2 on the fake; the runner retries units after 10 ms.
export const startT2Server = (config: ConfigInput): Promise<TestServer> =>
  startServer({ config, runner: { retryDelayMs: () => 10 } })

/// Submits `text` for t2 and returns the new check.
export async function submitT2(server: TestServer, text: string): Promise<any> {
  const res = await call(server, 'POST', '/checks', { body: { text, tiers: ['t2'] } })
  if (res.status !== 202) throw new Error(`submit: ${res.status} ${JSON.stringify(res.json)}`)
  return res.json
}

/// The check's report, validated against the contract.
export async function report(server: TestServer, checkId: string): Promise<Report> {
  return Report.parse((await call(server, 'GET', `/checks/${checkId}/report`)).json)
}

/// Requests that asked a judge, those that asked the panel, and those that resolved claims into statements.
export const judged = (fake: FakeOpenAI): RecordedRequest[] => fake.of('model-judge')
export const panelRequests = (fake: FakeOpenAI): RecordedRequest[] =>
  fake.requests.filter((r) => r.model !== 'model-judge' && r.model !== 'model-resolver')
export const resolverRequests = (fake: FakeOpenAI): RecordedRequest[] => fake.of('model-resolver')

/// Tokens the fake reported for requests it answered.
export function tokensOf(requests: readonly RecordedRequest[]): { input: number; output: number } {
  return requests.reduce(
    (sum, r) => ({
      input: sum.input + (r.usage?.prompt_tokens ?? 0),
      output: sum.output + (r.usage?.completion_tokens ?? 0),
    }),
    { input: 0, output: 0 },
  )
}

import type { ReportUpdate } from '../../../../src/shared/api'
import type { ConfigInput } from '../../../../src/shared/config'
import type { Clock } from '../../../../src/main/engine/base/clock'
import type { RunnerOptions } from '../../../../src/main/engine/jobs/runner'
import { DATA_CLOSE, DATA_OPEN } from '../../../../src/main/engine/tiers/t2/prompts'
import { readEvents } from '../../../helpers/events'
import type { RecordedRequest } from '../../../helpers/fakeOpenAI'
import { call, startServer, tempDir, type TestServer } from '../../../helpers/server'

/// `startServer` with short retries of the job runner, which runs deep research too, and its other options.
export function startResearchServer(
  config: ConfigInput,
  runner: Partial<RunnerOptions> = {},
  dataDir = tempDir(),
  clock?: Clock,
): Promise<TestServer> {
  return startServer({ config, dataDir, clock, runner: { retryDelayMs: () => 10, ...runner } })
}

/// Polls `GET /research/{id}` until it has ended.
export async function waitForResearch(server: TestServer, id: string, timeoutMs = 15_000): Promise<any> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { json } = await call(server, 'GET', `/research/${id}`)
    if (json.status === 'completed' || json.status === 'failed') return json
    if (Date.now() > deadline) throw new Error(`research ${id} still ${json.status}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/// The JSON inside a request's data block, and the name of the answer's schema.
export function data(request: RecordedRequest): any {
  const start = request.user.indexOf(`${DATA_OPEN}\n`) + DATA_OPEN.length + 1
  return JSON.parse(request.user.slice(start, request.user.lastIndexOf(`\n${DATA_CLOSE}`)))
}
export const schemaName = (request: RecordedRequest): string =>
  request.body.response_format?.json_schema?.name ?? ''

/// An open `GET /events` stream of one token: `until` reads its updates (from the start) until `done` says
/// enough has come, then closes it.
export async function openEvents(server: TestServer, token: string) {
  const response = await fetch(`${server.api}/events`, { headers: { Authorization: `Bearer ${token}` } })
  if (response.status !== 200) throw new Error(`GET /events answered ${response.status}`)
  return {
    until: (done: (updates: ReportUpdate[]) => boolean, timeoutMs?: number): Promise<ReportUpdate[]> =>
      readEvents(response, done, timeoutMs),
  }
}

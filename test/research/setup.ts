import type { ReportUpdate } from '../../src/shared/api'
import type { ConfigInput } from '../../src/shared/config'
import type { ResearchOptions } from '../../src/main/engine/research'
import { DATA_CLOSE, DATA_OPEN } from '../../src/main/engine/tiers/t2/prompts'
import type { RecordedRequest } from '../helpers/fakeOpenAI'
import { call, startServer, tempDir, type TestServer } from '../helpers/server'

/// `startServer` with deep research's retry options and short unit retries.
export function startResearchServer(
  config: ConfigInput,
  research: Partial<ResearchOptions>,
  dataDir = tempDir(),
): Promise<TestServer> {
  return startServer({ config, research, dataDir, runner: { retryDelayMs: () => 10 } })
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
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  return {
    async until(done: (updates: ReportUpdate[]) => boolean, timeoutMs = 15_000): Promise<ReportUpdate[]> {
      const updates: ReportUpdate[] = []
      const deadline = Date.now() + timeoutMs
      let buffer = ''
      while (!done(updates)) {
        if (Date.now() > deadline) throw new Error(`the stream ended early: ${JSON.stringify(updates)}`)
        const { value, done: ended } = await reader.read()
        if (ended) throw new Error('the stream closed')
        buffer += value
        let cut: number
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer
            .slice(0, cut)
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n')
          buffer = buffer.slice(cut + 2)
          if (data) updates.push(JSON.parse(data) as ReportUpdate)
        }
      }
      await reader.cancel()
      return updates
    },
  }
}

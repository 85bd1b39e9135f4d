import type { ConfigInput } from '../../src/shared/config'
import { Config } from '../../src/shared/config'
import { openEngine } from '../../src/main/engine/engine'
import type { ResearchOptions } from '../../src/main/engine/research'
import { API_BASE, createApp } from '../../src/main/server/app'
import { listen } from '../../src/main/server/listen'
import { DATA_CLOSE, DATA_OPEN } from '../../src/main/engine/tiers/t2/prompts'
import type { RecordedRequest } from '../helpers/fakeOpenAI'
import { call, tempDir, type TestServer } from '../helpers/server'

/// Like test/helpers/server.ts's startServer, with deep research's retry options.
export async function startResearchServer(
  config: ConfigInput,
  research: Partial<ResearchOptions>,
  dataDir = tempDir(),
): Promise<TestServer & { dataDir: string }> {
  const engine = openEngine({
    dataDir,
    config: Config.parse(config),
    runner: { retryDelayMs: () => 10 },
    research,
    runJobs: true,
  })
  const server = await listen(createApp(engine), '127.0.0.1', 0)
  const organizationId = engine.admin.defaultOrganization().id
  return {
    engine,
    dataDir,
    origin: server.origin,
    api: server.origin + API_BASE,
    write: engine.admin.createToken('write', organizationId, 'test write').value,
    read: engine.admin.createToken('read', organizationId, 'test read').value,
    organizationId,
    close: async () => {
      await server.close()
      await engine.close()
    },
  }
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

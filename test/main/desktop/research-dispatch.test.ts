import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ErrorEnvelope, Research } from '../../../src/shared/schemas'
import { parseConfig } from '../../../src/main/engine/base/config'
import { openEngine, type Engine } from '../../../src/main/engine/engine'
import { appPage } from '../../../src/main/desktop/appPage'
import { createDispatch, type Dispatch } from '../../../src/main/desktop/dispatch'
import { startFakeOpenAI, type FakeOpenAI } from '../../helpers/fakeOpenAI'

const page = appPage(undefined)
const APP = `${page.href}#/`
// Reachable (a check or a research run is accepted only when its models and search can be reached): the models
// answer only the claim's resolution, asked when research starts on a claim; the engine does not run jobs here, so
// a run stays queued and search is never asked.
let models: FakeOpenAI
let search: Server
beforeAll(async () => {
  models = await startFakeOpenAI()
  search = createServer((_, response) => response.writeHead(503).end())
  await new Promise<void>((resolve) => search.listen(0, '127.0.0.1', resolve))
})
afterAll(async () => {
  await models.close()
  await new Promise<void>((resolve) => search.close(() => resolve()))
})
const model = (id: string) => ({ id, provider: 'openai-compatible', baseURL: models.baseURL, model: id })

let dataDir: string
let engine: Engine
let dispatch: Dispatch

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'factdesk-ipc-research-'))
  const config = parseConfig({
    models: { panel: [model('panel-a'), model('panel-b')], judge: model('judge') },
    search: { baseURL: `http://127.0.0.1:${(search.address() as AddressInfo).port}/w/api.php` },
    web: { allowLocalTargets: true },
    pricing: { research: 600 },
  })
  engine = await openEngine({ dataDir, runJobs: false, config })
  dispatch = createDispatch(engine, page)
})

afterEach(async () => {
  vi.restoreAllMocks()
  await engine.close()
  rmSync(dataDir, { recursive: true, force: true })
})

async function data(operation: Parameters<Dispatch>[0], args: unknown[]): Promise<any> {
  const result = (await dispatch(operation, args, APP)) as { ok: boolean; data: unknown }
  expect(structuredClone(result)).toEqual(result)
  expect(result.ok, JSON.stringify(result)).toBe(true)
  return result.data
}

async function failure(operation: Parameters<Dispatch>[0], args: unknown[]): Promise<ErrorEnvelope['error']> {
  const result = await dispatch(operation, args, APP)
  expect(result).toMatchObject({ ok: false })
  return ErrorEnvelope.parse(result).error
}

describe('deep research over IPC', () => {
  it('starts research on a claim of a check, charged the flat price, and reads it back', async () => {
    const estimate = await data('estimate', [{ text: 'The Eiffel Tower is 330 metres tall.', tiers: ['t1'] }])
    await data('submit', [{ documentId: estimate.documentId, tiers: ['t1'] }])
    const claimId: string = estimate.claims[0].claimId
    const before = (await data('credits', [])).balance as number

    const started = Research.parse(await data('research', [{ claimId }]))
    expect(started).toMatchObject({ status: 'queued', claimId, credits: { charged: 600, refunded: 0 } })
    expect(started.text).toBe('The Eiffel Tower is 330 metres tall.')
    expect((await data('credits', [])).balance).toBe(before - 600)
    expect(Research.parse(await data('getResearch', [started.id]))).toEqual(started)
  })

  it('refuses a short balance with 402 and charges nothing', async () => {
    await data('research', [{ text: 'Ottawa is the capital of Canada.' }])
    const left = (await data('credits', [])).balance as number
    expect(left).toBeLessThan(600)
    expect((await failure('research', [{ text: 'Paris is the capital of France.' }])).code).toBe(
      'insufficient_credits',
    )
    expect((await data('credits', [])).balance).toBe(left)
  })

  it('checks the arguments against the contract before the engine sees them', async () => {
    const create = vi.spyOn(engine.research, 'create')
    const both = await failure('research', [{ claimId: 'clm_1', text: 'Both.' }])
    expect(both.code).toBe('bad_request')
    expect(both.details?.[0]?.field).toMatch(/^args/)
    expect((await failure('research', [{}])).code).toBe('bad_request')
    expect((await failure('getResearch', [7])).code).toBe('bad_request')
    expect(create).not.toHaveBeenCalled()
    expect((await failure('getResearch', ['rsc_missing'])).code).toBe('not_found')
    expect((await failure('research', [{ claimId: 'clm_missing' }])).code).toBe('not_found')
  })

  it("reports the panel's size per tier with a panel, for the badges' votes out of panel size", async () => {
    const check = await data('submit', [
      { text: 'The Eiffel Tower is 330 metres tall.', tiers: ['t1', 't2'] },
    ])
    expect((await data('report', [check.id])).panel).toEqual({ t2: 2 })
    const spelling = await data('submit', [{ text: 'Paris is in France.', tiers: ['t1'] }])
    expect((await data('report', [spelling.id])).panel).toEqual({})
  })

  it('answers only the app page', async () => {
    const get = vi.spyOn(engine.research, 'get')
    const result = await dispatch('getResearch', ['rsc_1'], 'https://evil.example/')
    expect(ErrorEnvelope.parse(result).error.code).toBe('forbidden')
    expect(get).not.toHaveBeenCalled()
  })
})

import { describe, expect, it } from 'vitest'
import type { FactdeskIpc, ReportUpdate } from '../../../src/shared/api'
import { httpApi } from '../../../src/renderer/src/bridge/http'
import { ipcApi } from '../../../src/renderer/src/bridge/ipc'
import type { Page } from '../../../src/renderer/src/bridge/session'
import { FakeEventStream } from '../../helpers/eventStream'
import { memoryStorage } from '../../helpers/storage'
import { researchRun } from '../../helpers/resources'

const RESEARCH = researchRun({
  status: 'queued',
  claimId: 'clm_1',
  updatedAt: '2026-01-01T00:00:00.000Z',
})

/// A page on the server's origin whose requests all get `body`; it records them.
function answering(body: unknown, status = 200) {
  const requests: { path: string; init?: RequestInit }[] = []
  const page = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push({ path: String(input), init })
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
    },
    location: new URL('http://127.0.0.1:4000/') as unknown as Location,
    history: { state: null, replaceState: () => undefined } as unknown as History,
    localStorage: memoryStorage(),
  } as Page
  return { page, requests }
}

describe('the bridges for deep research', () => {
  it('posts the request to /research and reads a run from /research/{id}', async () => {
    const { page, requests } = answering(RESEARCH)
    const api = httpApi(page)
    expect(await api.research({ claimId: 'clm_1' })).toEqual(RESEARCH)
    expect(await api.getResearch('rsc/1')).toEqual(RESEARCH)
    expect(requests.map((r) => `${r.init?.method} ${r.path}`)).toEqual([
      'POST /api/v1/research',
      'GET /api/v1/research/rsc%2F1',
    ])
    expect(JSON.parse(String(requests[0]?.init?.body))).toEqual({ claimId: 'clm_1' })
  })

  it('rejects a short balance as insufficient_credits and a malformed run as an unexpected answer', async () => {
    const short = answering(
      { error: { code: 'insufficient_credits', message: 'Not enough credits.', details: null } },
      402,
    )
    await expect(httpApi(short.page).research({ text: 'x' })).rejects.toMatchObject({
      code: 'insufficient_credits',
    })
    const odd = answering({ ...RESEARCH, status: 'thinking' })
    await expect(httpApi(odd.page).getResearch('rsc_1')).rejects.toMatchObject({ code: 'internal_error' })
  })

  it('goes through the preload in the desktop app, unwrapping results and failures', async () => {
    const asked: unknown[][] = []
    const ipc = {
      research: async (...args: unknown[]) => {
        asked.push(['research', ...args])
        return { ok: true, data: RESEARCH }
      },
      getResearch: async (...args: unknown[]) => {
        asked.push(['getResearch', ...args])
        return { ok: false, error: { code: 'not_found', message: 'No research rsc_2.', details: null } }
      },
    } as unknown as FactdeskIpc
    const api = ipcApi(ipc)
    expect(await api.research({ text: 'Ottawa is the capital of Canada.' })).toEqual(RESEARCH)
    await expect(api.getResearch('rsc_2')).rejects.toMatchObject({ code: 'not_found' })
    expect(asked).toEqual([
      ['research', { text: 'Ottawa is the capital of Canada.' }],
      ['getResearch', 'rsc_2'],
    ])
  })

  it('hands research progress from the event stream to listeners', async () => {
    const { page } = answering({})
    const stream = new FakeEventStream()
    const heard: ReportUpdate[] = []
    httpApi(page, () => stream).subscribe((update) => heard.push(update))
    await new Promise((resolve) => setTimeout(resolve, 0))
    const update: ReportUpdate = { type: 'research', research: RESEARCH, step: 'plan', sourcesRead: 0 }
    stream.send(update)
    expect(heard).toEqual([update])
  })
})

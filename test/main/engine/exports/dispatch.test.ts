import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appPage } from '../../../../src/main/desktop/appPage'
import { createDispatch, type Dispatch } from '../../../../src/main/desktop/dispatch'
import { openEngine, type Engine } from '../../../../src/main/engine/engine'
import { hasEnded } from '../../../../src/shared/vocabulary'
import type { ExportedFile } from '../../../../src/shared/api'
import { ErrorEnvelope } from '../../../../src/shared/schemas'
import { ServiceSwitch } from '../../../../src/main/remote/switch'
import { call, startServer, tempDir, waitForEnd } from '../../../helpers/server'

// The desktop's export operation: the file crosses IPC whole (structured clone), the PDF through the printer
// the shell hands in.

const page = appPage(undefined)
const APP = `${page.href}#/`

let engine: Engine
let dispatch: Dispatch
let checkId: string
const printed: string[] = []

beforeAll(async () => {
  engine = await openEngine({ dataDir: tempDir(), runJobs: true })
  dispatch = createDispatch(engine, page, undefined, async (html) => {
    printed.push(html)
    return new TextEncoder().encode('%PDF-1.7 printed')
  })
  const principal = await engine.localPrincipal()
  const { check } = await engine.service.submit(principal, {
    text: 'Lake Baikal is the deepest lake in the world.',
    tiers: ['t1'],
  })
  checkId = check.id
  if (!hasEnded(await engine.service.getCheck(principal, check.id))) await engine.events.ended(check.id)
}, 60_000)

afterAll(() => engine.close())

describe('the export operation over IPC', () => {
  it('answers the file with its name, media type and bytes, intact after a structured clone', async () => {
    const result = structuredClone(await dispatch('export', [checkId, { format: 'md' }], APP))
    expect(result.ok).toBe(true)
    const file = (result as { data: ExportedFile }).data
    expect(file.fileName).toBe(`${checkId}-factcheck.md`)
    expect(file.contentType).toBe('text/markdown; charset=utf-8')
    expect(new TextDecoder().decode(file.data)).toContain(
      'Lake Baikal is the deepest lake in the world.[^claim-1]',
    )
  })

  it('prints the PDF from the HTML export with the printer it was given', async () => {
    const result = await dispatch('export', [checkId, { format: 'pdf' }], APP)
    expect(new TextDecoder().decode((result as { data: ExportedFile }).data.data)).toBe('%PDF-1.7 printed')
    expect(printed.at(-1)).toContain('<mark class="claim verdict-')
  })

  it('refuses an unknown format and another page', async () => {
    const bad = ErrorEnvelope.parse(await dispatch('export', [checkId, { format: 'rtf' }], APP)).error
    expect(bad.code).toBe('bad_request')
    const stranger = ErrorEnvelope.parse(
      await dispatch('export', [checkId, { format: 'md' }], 'https://evil.example/'),
    ).error
    expect(stranger.code).toBe('forbidden')
  })
})

describe('the export operation with a remote service chosen', () => {
  it("exports the remote check's report, not a local one", async () => {
    const desktop = await openEngine({ dataDir: tempDir(), runJobs: false })
    desktop.settings.switches.offerRemoteService()
    const services = new ServiceSwitch(desktop.settings.switches, { poll: { intervalMs: 20 } })
    const server = await startServer()
    try {
      const token = (await server.engine.admin.createToken('write', server.organizationId, 'desktop')).value
      const remote = createDispatch(desktop, page, services)
      const saved = await remote(
        'updateSettings',
        [{ service: { mode: 'remote', baseURL: server.api, token } }],
        APP,
      )
      expect(saved.ok).toBe(true)
      const submitted = await call(server, 'POST', '/checks', {
        body: { text: 'The Danube flows into the Black Sea.', tiers: ['t1'], name: 'rivers' },
      })
      await waitForEnd(server, submitted.json.id, 60_000)
      const result = await remote('export', [submitted.json.id, { format: 'html' }], APP)
      expect(result.ok).toBe(true)
      const file = (result as { data: ExportedFile }).data
      expect(file.fileName).toBe('rivers-factcheck.html')
      expect(new TextDecoder().decode(file.data)).toMatch(
        /<mark class="claim verdict-clean"[^>]*>The Danube flows into the Black Sea\.<\/mark>/,
      )
    } finally {
      services.close()
      await desktop.close()
      await server.close()
    }
  }, 90_000)
})

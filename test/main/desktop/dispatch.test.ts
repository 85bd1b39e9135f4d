import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../src/shared/errors'
import { Credits, ErrorEnvelope, Me } from '../../../src/shared/schemas'
import { openEngine, type Engine } from '../../../src/main/engine/engine'
import { appPage } from '../../../src/main/desktop/appPage'
import { createDispatch, type Dispatch } from '../../../src/main/desktop/dispatch'

const page = appPage(undefined)
const APP = `${page.href}#/`

let dataDir: string
let engine: Engine
let dispatch: Dispatch

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'factdesk-ipc-'))
  engine = await openEngine({ dataDir, runJobs: false })
  dispatch = createDispatch(engine, page)
})

afterEach(async () => {
  vi.restoreAllMocks()
  await engine.close()
  rmSync(dataDir, { recursive: true, force: true })
})

/// What the page would receive: IPC results are structured-cloned on the way, so they must survive a clone.
async function call(...request: Parameters<Dispatch>): Promise<unknown> {
  const result = await dispatch(...request)
  expect(structuredClone(result)).toEqual(result)
  return result
}

function failure(result: unknown): ErrorEnvelope['error'] {
  expect(result).toMatchObject({ ok: false })
  return ErrorEnvelope.parse(result).error
}

describe('the IPC dispatch', () => {
  it("answers the app's page with the engine's data", async () => {
    const me = await call('me', [], APP)
    expect(me).toMatchObject({ ok: true })
    expect(Me.parse((me as { data: unknown }).data).token.scope).toBe('write')
    const credits = await call('credits', [], APP)
    expect(Credits.safeParse((credits as { data: unknown }).data).success).toBe(true)
  })

  it('refuses arguments the operation does not take, before the engine sees them', async () => {
    const credits = vi.spyOn(engine.service, 'credits')
    const error = failure(await call('credits', [{ organizationId: 'org_other' }], APP))
    expect(error.code).toBe('bad_request')
    expect(error.details?.length).toBeGreaterThan(0)
    expect(error.details?.[0]?.field).toMatch(/^args/)
    expect(credits).not.toHaveBeenCalled()
  })

  it('estimates, submits the estimated document, reads, lists, edits and cancels a check', async () => {
    const data = async (operation: Parameters<Dispatch>[0], args: unknown[]): Promise<any> => {
      const result = (await call(operation, args, APP)) as { ok: boolean; data: unknown }
      expect(result.ok, JSON.stringify(result)).toBe(true)
      return result.data
    }
    const estimate = await data('estimate', [{ text: 'The Eiffel Tower is 330 metres tall.', tiers: ['t1'] }])
    expect(estimate.claimCount).toBeGreaterThan(0)
    const check = await data('submit', [{ documentId: estimate.documentId, tiers: ['t1'] }])
    expect(check.status).toBe('queued')
    expect((await data('getCheck', [check.id])).id).toBe(check.id)
    expect((await data('report', [check.id])).claims).toHaveLength(estimate.claimCount)
    expect((await data('listChecks', [{ limit: 5 }])).data.map((c: { id: string }) => c.id)).toEqual([
      check.id,
    ])
    expect((await data('patch', [check.id, { name: 'Piece', author: null }])).name).toBe('Piece')
    const cancelled = await data('cancel', [check.id])
    expect(cancelled).toMatchObject({ status: 'cancelled', credits: { refunded: check.credits.charged } })
  })

  it('passes previousCheckId through: a check not completed is refused as 422, before anything is charged', async () => {
    const text = 'The Eiffel Tower is 330 metres tall.'
    const check = ((await call('submit', [{ text, tiers: ['t1'] }], APP)) as { data: { id: string } }).data
    const balance = (await engine.service.credits(await engine.localPrincipal())).balance
    for (const operation of ['estimate', 'submit'] as const) {
      const error = failure(await call(operation, [{ text, tiers: ['t1'], previousCheckId: check.id }], APP))
      expect(error).toMatchObject({ code: 'unprocessable', details: [{ field: 'previousCheckId' }] })
    }
    expect((await engine.service.credits(await engine.localPrincipal())).balance).toBe(balance)
  })

  it('checks the arguments of the check operations against the contract', async () => {
    const estimate = vi.spyOn(engine.service, 'estimate')
    expect(failure(await call('estimate', [{ text: 'x', tiers: [] }], APP)).code).toBe('bad_request')
    expect(failure(await call('estimate', [{ text: 'x', tiers: ['t1'], extra: 1 }], APP)).code).toBe(
      'bad_request',
    )
    expect(failure(await call('patch', ['chk_1', { status: 'completed' }], APP)).code).toBe('bad_request')
    expect(failure(await call('listChecks', [{ limit: 1000 }], APP)).code).toBe('bad_request')
    expect(failure(await call('getCheck', [42], APP)).code).toBe('bad_request')
    expect(failure(await call('getCheck', ['chk_missing'], APP)).code).toBe('not_found')
    expect(estimate).not.toHaveBeenCalled()
  })

  it('refuses any sender but the app page', async () => {
    const me = vi.spyOn(engine.service, 'me')
    for (const sender of ['https://evil.example/', 'file:///tmp/evil.html', 'about:blank', undefined]) {
      expect(failure(await call('me', [], sender)).code, String(sender)).toBe('forbidden')
    }
    expect(me).not.toHaveBeenCalled()
  })

  it("passes the engine's own errors through as their envelope", async () => {
    vi.spyOn(engine.service, 'credits').mockImplementation(() => {
      throw new ApiError('insufficient_credits', 'Not enough credits.')
    })
    expect(failure(await call('credits', [], APP))).toEqual({
      code: 'insufficient_credits',
      message: 'Not enough credits.',
      details: null,
    })
  })

  it('turns an unexpected failure into internal_error, logged in the main process but never shown', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const crash = new Error('SQLITE_CORRUPT: database disk image is malformed in /home/ada/.config/Factdesk')
    vi.spyOn(engine.service, 'me').mockImplementation(() => {
      throw crash
    })
    const result = await call('me', [], APP)
    const error = failure(result)
    expect(error.code).toBe('internal_error')
    expect(error.details).toBeNull()
    const text = JSON.stringify(result)
    const firstFrame = crash.stack?.split('\n')[1]?.trim()
    expect(firstFrame).toMatch(/^at /)
    for (const secret of ['SQLITE', '/home/ada', firstFrame ?? '']) {
      expect(text).not.toContain(secret)
    }
    expect(log).toHaveBeenCalledWith(expect.stringContaining('me'), crash)
  })
})

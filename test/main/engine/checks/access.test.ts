import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorEnvelope } from '../../../../src/shared/schemas'
import {
  OPERATION_TABLE,
  OPERATIONS,
  restRouteOf,
  type Access,
  type Operation,
} from '../../../../src/shared/operations'
import { mayCall, type Principal } from '../../../../src/main/engine/checks/access'
import { openEngine, type Engine } from '../../../../src/main/engine/engine'
import { appPage } from '../../../../src/main/desktop/appPage'
import { createDispatch } from '../../../../src/main/desktop/dispatch'
import { call, startServer, tempDir, type TestServer } from '../../../helpers/server'
import { databaseOf } from '../../../helpers/database'

// Who may call what is each operation's declared `access`, and nothing else: this walks the table and sends every
// operation, on REST and over IPC, as each caller below its access, and as one that may call it.

const BELOW: Record<Access, ('read' | 'write')[]> = { read: [], write: ['read'], owner: ['read', 'write'] }

/// Valid arguments for each operation (checked against its declaration below), so that a refusal over IPC,
/// where arguments are checked first, can only be the access's. A new operation needs a row here.
const TEXT = 'Paris is the capital of France.'
const MODEL = { id: 'm', provider: 'ollama', model: 'llama3' }
const SAMPLE_ARGS: Record<Operation, unknown[]> = {
  me: [],
  credits: [],
  estimate: [{ text: TEXT, tiers: ['t1'] }],
  submit: [{ text: TEXT, tiers: ['t1'] }],
  getCheck: ['chk_none'],
  report: ['chk_none'],
  export: ['chk_none', { format: 'json' }],
  listChecks: [{}],
  cancel: ['chk_none'],
  patch: ['chk_none', { name: 'A name' }],
  webhookSecret: [],
  rotateWebhookSecret: [],
  research: [{ text: TEXT }],
  listResearch: [],
  getResearch: ['res_none'],
  queueCheck: [{ text: TEXT, tiers: ['t1'] }],
  listPendingChecks: [{}],
  getPendingCheck: ['pnd_none'],
  cancelPendingCheck: ['pnd_none'],
  settings: [],
  updateSettings: [{}],
  testModel: [MODEL],
  detectOllama: [],
  testService: [{ baseURL: 'http://127.0.0.1:9/api/v1' }],
  testSearch: [{ provider: 'wikipedia', baseURL: 'http://127.0.0.1:9/w/api.php' }],
  listTokens: [],
  createToken: [{ scope: 'read' }],
  revokeToken: ['tok_none'],
  grantCredits: [{ amount: 1 }],
  listDrafts: [],
  createDraft: [{ title: 'A draft' }],
  openDraft: ['drf_none'],
  saveDraft: ['drf_none', { text: TEXT }],
  importFile: [{ name: 'a.md', content: '' }],
}

const refusal = (envelope: unknown): string => ErrorEnvelope.parse(envelope).error.code

describe('the access of each operation', () => {
  it('is the one rule of who may call: read any token, write a write token, owner the person here', () => {
    const as = (scope: 'read' | 'write', owner: boolean): Principal => ({
      organizationId: 'org_a',
      tokenId: 'tok_a',
      scope,
      owner,
    })
    const rows = [as('read', false), as('write', false), as('write', true)].map((principal) =>
      (['read', 'write', 'owner'] as const).map((access) => mayCall(principal, access)),
    )
    expect(rows).toEqual([
      [true, false, false],
      [true, true, false],
      [true, true, true],
    ])
  })

  it('gives every operation valid sample arguments here', () => {
    for (const operation of OPERATIONS) {
      expect(OPERATION_TABLE[operation].args.safeParse(SAMPLE_ARGS[operation]).success, operation).toBe(true)
    }
  })

  it('lets read tokens call GET routes only: every route of another method needs write or owner', () => {
    const others = OPERATIONS.filter((operation) => {
      const route = restRouteOf(operation)
      return route !== undefined && route.method !== 'get' && OPERATION_TABLE[operation].access === 'read'
    })
    expect(others).toEqual([])
  })
})

describe('on REST', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  /// The operation's route with its path's ids filled in, and a body that is not even JSON: a refusal must come
  /// before the body is read.
  const send = (operation: Operation, token: string) => {
    const route = restRouteOf(operation)
    if (!route) throw new Error(`${operation} has no route`)
    const path = route.path.replace(/\{\w+\}/g, 'none')
    return call(server, route.method.toUpperCase(), path, {
      token,
      ...(route.method === 'get' ? {} : { rawBody: '{ not json' }),
    })
  }
  const routed = OPERATIONS.filter((operation) => restRouteOf(operation) !== undefined)

  it.each(routed)(
    '%s refuses a token below its access with 403, before reading its body',
    async (operation) => {
      for (const below of BELOW[OPERATION_TABLE[operation].access]) {
        const answer = await send(operation, server[below])
        expect(answer.status, `${operation} as ${below}`).toBe(403)
        expect(refusal(answer.json)).toBe('forbidden')
      }
    },
  )

  it.each(routed.filter((operation) => OPERATION_TABLE[operation].access !== 'owner'))(
    '%s lets a token of its access through',
    async (operation) => {
      const token = OPERATION_TABLE[operation].access === 'read' ? server.read : server.write
      expect((await send(operation, token)).status, operation).not.toBe(403)
    },
  )
})

describe('over IPC', () => {
  const page = appPage(undefined)
  const APP = `${page.href}#/`
  let dataDir: string
  let engine: Engine
  beforeAll(async () => {
    dataDir = tempDir()
    engine = await openEngine({ dataDir, ...(await databaseOf(dataDir)), runJobs: false })
  })
  afterAll(async () => {
    await engine.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  /// The page's dispatch as if the window's principal were `scope`'s, and the owner or not.
  const dispatchAs = async (scope: 'read' | 'write', owner: boolean) => {
    const principal = { ...(await engine.localPrincipal()), scope, owner }
    return createDispatch({ ...engine, localPrincipal: async () => principal }, page)
  }

  it.each(OPERATIONS)('%s refuses a caller below its access, its arguments valid', async (operation) => {
    for (const below of BELOW[OPERATION_TABLE[operation].access]) {
      const result = await (await dispatchAs(below, false))(operation, SAMPLE_ARGS[operation], APP)
      expect(result.ok, `${operation} as ${below}`).toBe(false)
      expect(refusal(result), `${operation} as ${below}`).toBe('forbidden')
    }
  })

  it.each(OPERATIONS)('%s lets the desktop owner through', async (operation) => {
    const result = await (await dispatchAs('write', true))(operation, SAMPLE_ARGS[operation], APP)
    if (!result.ok) expect(refusal(result), operation).not.toBe('forbidden')
  })
})

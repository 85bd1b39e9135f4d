import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ClaimReview } from '../../../src/shared/schemas'
import { startFakeOpenAI, type FakeOpenAI } from '../../helpers/fakeOpenAI'
import { FakeWiki } from '../../helpers/fakeWiki'
import { tempDir } from '../../helpers/server'
import { closedPort } from '../../helpers/ports'
import { startOwnerServer, type OwnerServer } from '../engine/settings/session'
import { t2Config } from '../engine/tiers/t2/setup'

// The OpenAPI document the server serves is linted with Redocly CLI, and every operation it names is sent, once
// as a success and once as an error, through Stoplight Prism's validating proxy in front of the real server:
// a request or an answer that differs from the document fails the test.

const BIN = join(import.meta.dirname, '../../../node_modules/.bin')

let server: OwnerServer
let fake: FakeOpenAI
let wiki: FakeWiki
let prism: ChildProcess
let proxy: string
let documentFile: string
let release = (): void => undefined
const held = new Promise<void>((resolve) => (release = resolve))

beforeAll(async () => {
  wiki = await new FakeWiki().start()
  wiki.article('Ottawa', ['Ottawa is the capital city of Canada.'])
  // The panel's model never answers: a t2 check stays running, to be cancelled.
  fake = await startFakeOpenAI({ 'model-a': { hold: () => held } })
  server = await startOwnerServer({
    config: { ...t2Config(fake, ['a']), search: { baseURL: wiki.apiUrl }, web: { allowLocalTargets: true } },
  })
  documentFile = join(tempDir(), 'openapi.json')
  writeFileSync(documentFile, await (await fetch(`${server.api}/openapi.json`)).text())
  const port = await closedPort()
  prism = spawn(
    join(BIN, 'prism'),
    ['proxy', documentFile, server.api, '--errors', '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  await new Promise<void>((resolve, reject) => {
    let output = ''
    prism.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Prism is listening')) resolve()
    })
    prism.once('exit', (code) => reject(new Error(`prism exited (${code}): ${output}`)))
  })
  proxy = `http://127.0.0.1:${port}`
}, 60_000)

afterAll(async () => {
  prism?.kill()
  release()
  await server?.close()
  await fake?.close()
  await wiki?.close()
})

describe('the OpenAPI document', () => {
  it('passes Redocly CLI’s recommended rules without a warning', async () => {
    const lint = spawn(
      join(BIN, 'redocly'),
      [
        'lint',
        documentFile,
        '--config',
        join(import.meta.dirname, '../../../redocly.yaml'),
        '--format',
        'json',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let output = ''
    lint.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const code = await new Promise((resolve) => lint.once('exit', resolve))
    const report = JSON.parse(output) as { totals: object; problems: { ruleId: string; message: string }[] }
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
    expect(code).toBe(0)
  }, 60_000)

  it('holds for a success and an error of every operation, through a validating proxy', async () => {
    const answered = new Set<string>()
    const as = {
      write: { Authorization: `Bearer ${server.write}` },
      read: { Authorization: `Bearer ${server.read}` },
      owner: server.ownerHeaders,
      unknown: { Authorization: 'Bearer fdk_not_a_token' },
      none: {},
    }
    /// Sends a request through the proxy: it must be answered `status`, and without a violation of the document.
    async function send(
      operation: string,
      status: number,
      method: string,
      path: string,
      { who = 'write', body, headers = {} }: { who?: keyof typeof as; body?: unknown; headers?: object } = {},
    ) {
      const response = await fetch(proxy + path, {
        method,
        headers: {
          ...as[who],
          ...headers,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      const label = `${operation}: ${method} ${path}`
      expect(response.headers.get('sl-violations'), label).toBeNull()
      expect(response.headers.get('content-type'), `${label}: ${text}`).not.toMatch(/problem\+json/)
      expect(response.status, `${label}: ${text}`).toBe(status)
      answered.add(operation)
      return {
        response,
        json: /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text,
      }
    }
    const text = 'Ottawa is the capital of Canada. It has about one million people.'
    const missing = { chk: 'chk_0000000000', pnd: 'pnd_0000000000', drf: 'drf_0000000000' }

    await send('openapi', 200, 'GET', '/openapi.json', { who: 'none' })
    await send('me', 200, 'GET', '/me')
    await send('me', 401, 'GET', '/me', { who: 'unknown' })
    await send('credits', 200, 'GET', '/credits', { who: 'read' })
    await send('credits', 401, 'GET', '/credits', { who: 'unknown' })
    await send('events', 401, 'GET', '/events', { who: 'unknown' })
    await send('estimate', 200, 'POST', '/checks/estimate', { body: { text, tiers: ['t1'] } })
    await send('estimate', 403, 'POST', '/checks/estimate', { who: 'read', body: { text, tiers: ['t1'] } })

    // Submitted twice under one key: the repeat answers the first, saying so in a header.
    const submission = { body: { text, tiers: ['t2'] }, headers: { 'Idempotency-Key': 'conformance-1' } }
    const { json: check } = await send('submit', 202, 'POST', '/checks', submission)
    const replay = await send('submit', 202, 'POST', '/checks', submission)
    expect(replay.response.headers.get('Idempotent-Replayed')).toBe('true')
    await send('submit', 403, 'POST', '/checks', { ...submission, who: 'read' })
    await send('getCheck', 200, 'GET', `/checks/${check.id}`, { who: 'read' })
    await send('getCheck', 404, 'GET', `/checks/${missing.chk}`)
    await send('report', 200, 'GET', `/checks/${check.id}/report`)
    await send('report', 404, 'GET', `/checks/${missing.chk}/report`)
    const exported = await send('export', 200, 'GET', `/checks/${check.id}/export?format=json`)
    expect(exported.response.headers.get('Content-Disposition')).toMatch(/^attachment/)
    await send('export', 200, 'GET', `/checks/${check.id}/export?format=md`)
    // Prism matches a media type without its suffix (`application/ld+json` as `application/json`, the JSON
    // export's): the ClaimReview export is asked of the server itself and read with the schema the document's
    // `ClaimReview` is generated from.
    const reviews = await fetch(`${server.api}/checks/${check.id}/export?format=claimreview`, {
      headers: as.write,
    })
    expect(reviews.headers.get('content-type')).toBe('application/ld+json')
    expect(z.array(ClaimReview).safeParse(await reviews.json()).success).toBe(true)
    const documented = (await (await fetch(`${server.api}/openapi.json`)).json()) as {
      paths: Record<string, { get: { responses: { 200: { content: Record<string, { schema: unknown }> } } } }>
    }
    expect(
      documented.paths['/checks/{id}/export']?.get.responses[200].content['application/ld+json']?.schema,
    ).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/ClaimReview' },
    })
    await send('export', 404, 'GET', `/checks/${missing.chk}/export?format=html`)
    await send('listChecks', 200, 'GET', '/checks?limit=5')
    await send('listChecks', 400, 'GET', '/checks?cursor=%24%24%24')
    await send('patch', 200, 'PATCH', `/checks/${check.id}`, { body: { name: 'Capitals' } })
    await send('patch', 404, 'PATCH', `/checks/${missing.chk}`, { body: { name: 'Capitals' } })
    await send('cancel', 200, 'POST', `/checks/${check.id}/cancel`)
    await send('cancel', 404, 'POST', `/checks/${missing.chk}/cancel`)
    await send('webhookSecret', 200, 'GET', '/webhook-secret')
    await send('webhookSecret', 403, 'GET', '/webhook-secret', { who: 'read' })
    await send('rotateWebhookSecret', 200, 'POST', '/webhook-secret/rotate')
    await send('rotateWebhookSecret', 403, 'POST', '/webhook-secret/rotate', { who: 'read' })

    const { json: research } = await send('research', 202, 'POST', '/research', { body: { text } })
    await send('research', 403, 'POST', '/research', { who: 'read', body: { text } })
    await send('listResearch', 200, 'GET', '/research')
    await send('getResearch', 200, 'GET', `/research/${research.id}`)
    await send('getResearch', 404, 'GET', '/research/rsc_0000000000')

    const queued = { body: { text, tiers: ['t1'] }, headers: { 'Idempotency-Key': 'conformance-2' } }
    const { json: pending } = await send('queueCheck', 202, 'POST', '/pending-checks', queued)
    await send('queueCheck', 403, 'POST', '/pending-checks', { ...queued, who: 'read' })
    await send('listPendingChecks', 200, 'GET', '/pending-checks?status=waiting')
    await send('listPendingChecks', 401, 'GET', '/pending-checks', { who: 'unknown' })
    await send('getPendingCheck', 200, 'GET', `/pending-checks/${pending.id}`)
    await send('getPendingCheck', 404, 'GET', `/pending-checks/${missing.pnd}`)
    await send('cancelPendingCheck', 404, 'POST', `/pending-checks/${missing.pnd}/cancel`)
    // Submitted at once (its providers answer) or cancelled while waiting: either is declared.
    const cancelled = await fetch(`${proxy}/pending-checks/${pending.id}/cancel`, {
      method: 'POST',
      headers: as.write,
    })
    expect(cancelled.headers.get('sl-violations')).toBeNull()
    expect([200, 422]).toContain(cancelled.status)

    const owner = { who: 'owner' as const }
    await send('settings', 200, 'GET', '/settings', owner)
    await send('settings', 403, 'GET', '/settings')
    await send('updateSettings', 200, 'PATCH', '/settings', { ...owner, body: {} })
    await send('updateSettings', 403, 'PATCH', '/settings', { body: {} })
    const model = { id: 'probe', provider: 'openai-compatible', baseURL: fake.baseURL, model: 'model-b' }
    await send('testModel', 200, 'POST', '/settings/models/test', { ...owner, body: model })
    await send('testModel', 403, 'POST', '/settings/models/test', { body: model })
    await send('detectOllama', 200, 'GET', '/settings/ollama', owner)
    await send('detectOllama', 403, 'GET', '/settings/ollama')
    const search = { provider: 'wikipedia', baseURL: wiki.apiUrl }
    await send('testSearch', 200, 'POST', '/settings/search/test', { ...owner, body: search })
    await send('testSearch', 403, 'POST', '/settings/search/test', { body: search })
    await send('listTokens', 200, 'GET', '/tokens', owner)
    await send('listTokens', 403, 'GET', '/tokens')
    const { json: created } = await send('createToken', 201, 'POST', '/tokens', {
      ...owner,
      body: { scope: 'read', name: 'conformance' },
    })
    await send('createToken', 403, 'POST', '/tokens', { body: { scope: 'read' } })
    await send('revokeToken', 200, 'POST', `/tokens/${created.token.id}/revoke`, owner)
    await send('revokeToken', 403, 'POST', `/tokens/${created.token.id}/revoke`)
    await send('grantCredits', 201, 'POST', '/credits/grants', { ...owner, body: { amount: 10 } })
    await send('grantCredits', 403, 'POST', '/credits/grants', { body: { amount: 10 } })

    await send('listDrafts', 200, 'GET', '/drafts')
    await send('listDrafts', 401, 'GET', '/drafts', { who: 'unknown' })
    const { json: draft } = await send('createDraft', 201, 'POST', '/drafts', {
      body: { title: 'Notes', text },
    })
    await send('createDraft', 403, 'POST', '/drafts', { who: 'read', body: { title: 'Notes' } })
    await send('openDraft', 200, 'POST', `/drafts/${draft.id}/open`)
    await send('openDraft', 404, 'POST', `/drafts/${missing.drf}/open`)
    await send('saveDraft', 200, 'PATCH', `/drafts/${draft.id}`, { body: { text: `${text} More.` } })
    await send('saveDraft', 404, 'PATCH', `/drafts/${missing.drf}`, { body: { text } })
    const file = { name: 'notes.md', content: Buffer.from(`# Notes\n\n${text}\n`).toString('base64') }
    await send('importFile', 201, 'POST', '/drafts/import', { body: file })
    await send('importFile', 422, 'POST', '/drafts/import', { body: { ...file, name: 'notes.exe' } })

    const document = JSON.parse(await (await fetch(`${server.api}/openapi.json`)).text()) as {
      paths: Record<string, Record<string, { operationId: string }>>
    }
    const declared = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    )
    expect([...answered].sort()).toEqual(declared.sort())
  }, 60_000)
})

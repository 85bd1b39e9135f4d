import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../../../helpers/fakeOpenAI'
import { factdesk } from '../../../helpers/cli'
import { call, expectEnvelope, waitForEnd, type TestServer } from '../../../helpers/server'
import { startT2Server, submitT2, t2Config } from '../tiers/t2/setup'

// A t2 check on the fake OpenAI server whose every model finds no evidence: every claim is quiet. Exported over
// REST and by the CLI, by default and with a comment on every claim.
const TEXT =
  'The first lighthouse on the island was lit in 1821. Its keeper kept a diary for forty years.\n\n' +
  'The diary was sold at auction in 1998.'

let fake: FakeOpenAI
let server: TestServer
let checkId: string
let claims: number
let running = true

beforeAll(async () => {
  const nothingFound = { overrides: { verdict: 'unverifiable', detail: 'no_evidence' } }
  fake = await startFakeOpenAI({ '*': nothingFound })
  server = await startT2Server(t2Config(fake))
  checkId = (await submitT2(server, TEXT)).id
  expect((await waitForEnd(server, checkId, 30_000)).status).toBe('completed')
  claims = (await call(server, 'GET', `/checks/${checkId}/report`)).json.claims.length
}, 60_000)

afterAll(async () => {
  if (running) await server.close()
  await fake.close()
})

const download = async (query: string) => {
  const response = await fetch(`${server.api}/checks/${checkId}/export?${query}`, {
    headers: { Authorization: `Bearer ${server.read}` },
  })
  return { status: response.status, bytes: new Uint8Array(await response.arrayBuffer()) }
}

/// The Word file's comments (none: no comments part at all, or an empty one).
const comments = (bytes: Uint8Array): number => {
  const part = unzipSync(bytes)['word/comments.xml']
  return part ? (strFromU8(part).match(/<w:comment /g)?.length ?? 0) : 0
}

describe('GET /checks/{id}/export?comments=…', () => {
  it('comments on no claim nothing confirmed by default, and on every claim with comments=all', async () => {
    expect(claims).toBeGreaterThanOrEqual(3)
    const quiet = await download('format=docx')
    expect(quiet.status).toBe(200)
    expect(comments(quiet.bytes)).toBe(0)
    const all = await download('format=docx&comments=all')
    expect(all.status).toBe(200)
    expect(comments(all.bytes)).toBe(claims)
    const markdown = new TextDecoder().decode((await download('format=md&comments=needed')).bytes)
    expect(markdown).toContain(`${claims} claims could not be confirmed: see the list at the end`)
    expect(markdown).not.toMatch(/^\[\^claim-\d+\]:/m)
  })

  it('refuses another value with the error envelope, and documents the choice in the OpenAPI document', async () => {
    const bad = await call(server, 'GET', `/checks/${checkId}/export?format=docx&comments=some`, {
      token: server.read,
    })
    expect(bad.status).toBe(400)
    expectEnvelope(bad.json, 'bad_request')
    const doc = await (await fetch(`${server.api}/openapi.json`)).json()
    const parameter = doc.paths['/checks/{id}/export'].get.parameters.find(
      (p: { name: string }) => p.name === 'comments',
    )
    expect(parameter.in).toBe('query')
    expect(parameter.required).not.toBe(true)
    expect(doc.components.schemas[parameter.schema.$ref.split('/').at(-1)].enum).toEqual(['needed', 'all'])
  })
})

describe('factdesk export --comments', () => {
  it('writes a footnote for every claim with --comments all, the list of them without, and refuses another value', async () => {
    // The data folder is the CLI's alone once the server is closed.
    await server.close()
    running = false
    const args = [
      'export',
      checkId,
      '--format',
      'md',
      '--data-dir',
      server.dataDir,
      '--org',
      server.organizationId,
    ]
    const all = await factdesk([...args, '--comments', 'all'])
    expect(all.code, all.stderr).toBe(0)
    expect(all.stdout.match(/^\[\^claim-\d+\]:/gm)).toHaveLength(claims)
    const quiet = await factdesk(args)
    expect(quiet.code, quiet.stderr).toBe(0)
    expect(quiet.stdout).not.toMatch(/^\[\^claim-\d+\]:/m)
    expect(quiet.stdout).toContain('**Could not be confirmed**')
    const bad = await factdesk([...args, '--comments', 'some'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--comments must be needed or all')
  }, 60_000)
})

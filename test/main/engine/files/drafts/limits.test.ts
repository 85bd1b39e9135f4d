import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConfigInput } from '../../../../../src/shared/config'
import { ManualClock } from '../../../../../src/main/engine/base/clock'
import { call, expectEnvelope, startServer, type TestServer } from '../../../../helpers/server'

// Drafts are free: so many per organization, so large in all, so many new ones a minute; imports so large and so
// many at once. Each refusal names its limit.

const MINUTE_MS = 60_000
const base64 = (text: string | Buffer): string => Buffer.from(text).toString('base64')

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const start = async (limits: ConfigInput['limits'], clock?: ManualClock): Promise<TestServer> => {
  server = await startServer({ config: { limits }, clock })
  return server
}

const newDraft = (subject: TestServer, text: string) => call(subject, 'POST', '/drafts', { body: { text } })

/// A POST of `body` with its Content-Length, over node:http: its answer even when the server answers before it
/// has read the body and closes the connection (fetch then fails for the body it could not send).
function post(subject: TestServer, path: string, body: unknown): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body)
    const sent = request(`${subject.api}${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${subject.write}`,
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(text),
      },
    })
    sent.on('response', (response) => {
      let answer = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (answer += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, json: JSON.parse(answer) }))
    })
    sent.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error)
    })
    sent.end(text)
  })
}

/// A POST /drafts/import whose JSON body is sent in chunks (no Content-Length) and never ended: `stop` aborts it.
/// Resolves with the answer when the server gives one before the body has ended. Sent as fast as the server
/// reads it, or, given `pauseMs`, a chunk (83 kB) each `pauseMs`: a slow upload, which stays under
/// limits.importBytes however long the machine takes to do the rest.
function endlessImport(
  subject: TestServer,
  pauseMs = 0,
): {
  answer: Promise<{ status: number; body: string }>
  stop(): void
} {
  const sent = request(`${subject.api}/drafts/import`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${subject.write}`, 'Content-Type': 'application/json' },
  })
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    sent.on('response', (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (body += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    sent.on('error', reject)
  })
  sent.write('{"name":"book.md","content":"')
  const chunk = base64('A chapter of a very long book. '.repeat(2000))
  const more = (): void => {
    if (sent.destroyed) return
    const room = sent.write(chunk)
    if (pauseMs > 0) setTimeout(more, pauseMs)
    else if (room) setImmediate(more)
    else sent.once('drain', more)
  }
  more()
  return { answer, stop: () => sent.destroy() }
}

describe('drafts', () => {
  it('past limits.draftBytes in all, a new draft or a longer autosave is 413; a shorter one is saved', async () => {
    const subject = await start({ draftBytes: 1_800_000 })
    expect((await newDraft(subject, 'a'.repeat(1_000_000))).status).toBe(201)
    const second = await newDraft(subject, 'b'.repeat(500_000))
    expect(second.status).toBe(201)
    const third = await newDraft(subject, 'c'.repeat(500_000))
    expect(third.status).toBe(413)
    expect(expectEnvelope(third.json, 'payload_too_large').message).toMatch(/\(limits\.draftBytes\)\.$/)
    // Nothing was kept of it.
    expect((await call(subject, 'GET', '/drafts')).json.data).toHaveLength(2)

    const longer = await call(subject, 'PATCH', `/drafts/${second.json.id}`, {
      body: { text: 'b'.repeat(1_000_000) },
    })
    expect(longer.status).toBe(413)
    expectEnvelope(longer.json, 'payload_too_large')
    const shorter = await call(subject, 'PATCH', `/drafts/${second.json.id}`, {
      body: { text: 'Short now.' },
    })
    expect(shorter.status).toBe(200)
    expect((await newDraft(subject, 'c'.repeat(700_000))).status).toBe(201)
  })

  it('past limits.drafts, a new draft is 413 naming the limit', async () => {
    const subject = await start({ drafts: 3 })
    for (let i = 0; i < 3; i++) expect((await newDraft(subject, `Draft ${i}.`)).status).toBe(201)
    const refused = await newDraft(subject, 'One too many.')
    expect(refused.status).toBe(413)
    expect(expectEnvelope(refused.json, 'payload_too_large').message).toBe(
      'This organization keeps 3 drafts, the most it may (limits.drafts).',
    )
    const imported = await call(subject, 'POST', '/drafts/import', {
      body: { name: 'notes.md', content: base64('# Notes') },
    })
    expect(imported.status).toBe(413)
  })

  it('past limits.draftsPerMinute new drafts, 429 with Retry-After until the minute has passed', async () => {
    const clock = new ManualClock()
    const subject = await start({ draftsPerMinute: 2 }, clock)
    expect((await newDraft(subject, 'One.')).status).toBe(201)
    expect(
      (await call(subject, 'POST', '/drafts/import', { body: { name: 'a.md', content: base64('Two.') } }))
        .status,
    ).toBe(201)
    const refused = await newDraft(subject, 'Three.')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('60')
    expect(expectEnvelope(refused.json, 'rate_limited').message).toMatch(/limits\.draftsPerMinute/)
    clock.advance(MINUTE_MS)
    expect((await newDraft(subject, 'Three.')).status).toBe(201)
  })

  it('the defaults hold what a writer has: a 100,000-word manuscript, autosaved and imported, many times', async () => {
    const subject = await start({})
    const manuscript = 'The writer wrote another careful sentence here. '.repeat(14_300)
    const draft = (await newDraft(subject, manuscript)).json
    for (let i = 0; i < 10; i++) {
      const saved = await call(subject, 'PATCH', `/drafts/${draft.id}`, {
        body: { text: `${manuscript}${i}` },
      })
      expect(saved.status).toBe(200)
    }
    for (let i = 0; i < 10; i++) {
      const imported = await call(subject, 'POST', '/drafts/import', {
        body: { name: `book${i}.md`, content: base64(manuscript) },
      })
      expect(imported.status).toBe(201)
    }
    const me = (await call(subject, 'GET', '/me')).json
    expect(me.limits).toMatchObject({
      drafts: 5000,
      draftBytes: 128 * 1024 * 1024,
      draftsPerMinute: 60,
      importBytes: 8 * 1024 * 1024,
      importsAtOnce: 2,
      pendingChecks: 200,
      keptEstimates: 100,
      estimatesPerMinute: 60,
    })
  })
})

describe('imports', () => {
  it('a file over limits.importBytes is 413: by the body’s length, or by the file’s', async () => {
    const subject = await start({ importBytes: 64 * 1024 })
    // The body is refused by its Content-Length, before it is read.
    const large = await post(subject, '/drafts/import', {
      name: 'book.md',
      content: base64('x'.repeat(200 * 1024)),
    })
    expect(large.status).toBe(413)
    expect(expectEnvelope(large.json, 'payload_too_large').message).toMatch(
      /^The request body is larger than .*: a file to import can be at most 0\.1 MB \(limits\.importBytes\)\.$/,
    )
    // A body within the slack of base64 and JSON whose file is still too large.
    const over = await call(subject, 'POST', '/drafts/import', {
      body: { name: 'book.md', content: base64('x'.repeat(100 * 1024)) },
    })
    expect(over.status).toBe(413)
    expect(expectEnvelope(over.json, 'payload_too_large').message).toBe(
      '"book.md" is 0.1 MB; a file to import can be at most 0.1 MB (limits.importBytes).',
    )
    const fits = await call(subject, 'POST', '/drafts/import', {
      body: { name: 'book.md', content: base64('x'.repeat(60 * 1024)) },
    })
    expect(fits.status).toBe(201)
  })

  it('a body sent in chunks is refused once it passes the limit, before it ends', async () => {
    const subject = await start({ importBytes: 64 * 1024 })
    const endless = endlessImport(subject)
    const { status, body } = await endless.answer
    endless.stop()
    expect(status).toBe(413)
    expectEnvelope(JSON.parse(body), 'payload_too_large')
  })

  it('no more than limits.importsAtOnce imports of an organization at once: the next is 429', async () => {
    // New drafts a minute are not what is measured: only the imports at once may refuse.
    const subject = await start({ importsAtOnce: 2, draftsPerMinute: 10_000 })
    // Two slow uploads: 8 MB (limits.importBytes) takes them 20 s.
    const held = [endlessImport(subject, 200), endlessImport(subject, 200)]
    const small = () =>
      call(subject, 'POST', '/drafts/import', { body: { name: 'a.md', content: base64('Small.') } })
    /// Imports a small file, a few milliseconds apart, until its answer is not `status` (for 10 s at most).
    const smallUntilNot = async (status: number) => {
      let answer = await small()
      for (const deadline = Date.now() + 10_000; answer.status === status && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 5))
        answer = await small()
      }
      return answer
    }
    // The two are read from now on, for as long as they are sent; the server sees them in a moment, however busy.
    const refused = await smallUntilNot(201)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(expectEnvelope(refused.json, 'rate_limited').message).toMatch(/limits\.importsAtOnce/)

    // Another organization imports meanwhile.
    const other = await subject.engine.admin.createOrganization('Other', 0)
    const otherToken = (await subject.engine.admin.createToken('write', other.id, 'other')).value
    const theirs = await call(subject, 'POST', '/drafts/import', {
      token: otherToken,
      body: { name: 'a.md', content: base64('Theirs.') },
    })
    expect(theirs.status).toBe(201)

    for (const each of held) each.stop()
    await Promise.allSettled(held.map((each) => each.answer))
    expect((await smallUntilNot(429)).status).toBe(201)
  })
})

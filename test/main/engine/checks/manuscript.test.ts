import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Check, CheckList, Estimate, Report } from '../../../../src/shared/schemas'
import {
  call,
  expectEnvelope,
  startServer,
  tempDir,
  waitForEnd,
  type TestServer,
} from '../../../helpers/server'

// A manuscript of three parts, each checked with the real t1 (Harper, whose issues carry offsets).
const PARTS = [
  '# The tower\n\nThe Eiffel Tower is 330 metres tall. It was completed in 1889 for the World Fair in Paris.\n\n',
  '# The wall\n\nThe Great Wall of China is more than 21,000 kilometres long according to a 2012 survey.\n\n',
  '# The bridge\n\nThe Golden Gate Bridge was opened in 1937. Around ten million people visit it every yaer.',
]
const TEXT = PARTS.join('')
const BOOK = 'mns_the-book'

const dataDir = tempDir()
let server: TestServer
let single: Check
beforeAll(async () => {
  server = await startServer({ dataDir })
  single = Check.parse((await submitted({ text: 'Paris is the capital of France.', tiers: ['t1'] })).json)
  await waitForEnd(server, single.id)
  for (const [index, text] of PARTS.entries()) {
    const res = await submitted(part(BOOK, index, { text }), `book-part-${index + 1}`)
    expect(res.status, JSON.stringify(res.json)).toBe(202)
  }
  await waitForEnd(server, BOOK, 30_000)
}, 60_000)
afterAll(() => server.close())

const part = (id: string, index: number, body: Record<string, unknown>) => ({
  tiers: ['t1'],
  name: 'The book',
  manuscript: { id, part: index + 1, parts: PARTS.length },
  ...body,
})
const submitted = (body: unknown, key?: string) =>
  call(server, 'POST', '/checks', { body, headers: key ? { 'Idempotency-Key': key } : {} })
const balance = async (): Promise<number> => (await call(server, 'GET', '/credits')).json.balance
const history = async (query = ''): Promise<CheckList> =>
  CheckList.parse((await call(server, 'GET', `/checks${query}`)).json)

describe('a manuscript checked in parts', () => {
  it('is stored as one: its parts name it, and history lists it once with their state together', async () => {
    const { data } = await history()
    expect(data.map((check) => check.id)).toEqual([BOOK, single.id])
    const book = data[0] as Check
    expect(book).toMatchObject({
      status: 'completed',
      name: 'The book',
      documentId: BOOK,
      tiers: ['t1'],
      manuscript: { id: BOOK, parts: 3 },
    })
    expect(book.manuscript?.part).toBeUndefined()
    expect(single.manuscript).toBeUndefined()
    const report = Report.parse((await call(server, 'GET', `/checks/${BOOK}/report`)).json)
    expect(book.claimCount).toBe(report.claims.length)
    expect(book.claimCount).toBeGreaterThanOrEqual(5)
    expect(book.credits.charged).toBe(book.claimCount)
    expect(book.progress.claimsDone).toEqual({ t1: book.claimCount })

    // Page by page, the manuscript once.
    const first = await history('?limit=1')
    expect(first.data.map((check) => check.id)).toEqual([BOOK])
    const second = await history(`?limit=1&cursor=${first.nextCursor}`)
    expect(second.data.map((check) => check.id)).toEqual([single.id])
    expect(second.nextCursor).toBeNull()
  })

  it('answers its check and report on the whole text, and is kept across a restart of the engine', async () => {
    await server.close()
    server = await startServer({ dataDir })
    expect((await history()).data.map((check) => check.id)).toEqual([BOOK, single.id])
    const check = Check.parse((await call(server, 'GET', `/checks/${BOOK}`)).json)
    expect(check).toMatchObject({ id: BOOK, status: 'completed', manuscript: { id: BOOK, parts: 3 } })
    const report = Report.parse((await call(server, 'GET', `/checks/${BOOK}/report`)).json)
    expect(report.check).toEqual(check)
    expect(report.text).toBe(TEXT)
    for (const claim of report.claims) expect(TEXT.slice(claim.charStart, claim.charEnd)).toBe(claim.text)
    expect(report.claims.map((claim) => claim.text)).toContain('The Golden Gate Bridge was opened in 1937.')
    const issues = report.claims.flatMap((claim) => claim.issues)
    expect(issues.map((issue) => TEXT.slice(issue.charStart, issue.charEnd))).toContain('yaer')
    expect(report.summary.claimCount).toBe(check.claimCount)

    // Another organization finds no such check.
    const other = await server.engine.admin.createOrganization('Other', 100)
    const token = (await server.engine.admin.createToken('write', other.id, 'other')).value
    expectEnvelope((await call(server, 'GET', `/checks/${BOOK}`, { token })).json, 'not_found')
    expect((await call(server, 'GET', `/checks/${BOOK}/export?format=json`, { token })).status).toBe(404)
  })

  it('exports as one report of the whole text, in every format the check of one text exports to', async () => {
    const json = await fetch(`${server.api}/checks/${BOOK}/export?format=json`, {
      headers: { Authorization: `Bearer ${server.write}` },
    })
    expect(json.status).toBe(200)
    expect(json.headers.get('content-disposition')).toContain('The-book-factcheck.json')
    const exported = Report.parse(await json.json())
    expect(exported).toEqual(Report.parse((await call(server, 'GET', `/checks/${BOOK}/report`)).json))
    const markdown = await fetch(`${server.api}/checks/${BOOK}/export?format=md`, {
      headers: { Authorization: `Bearer ${server.write}` },
    })
    const md = await markdown.text()
    for (const heading of ['# The tower', '# The wall', '# The bridge']) expect(md).toContain(heading)
    expect(md).toContain('yaer')
    for (const format of ['html', 'docx']) {
      const res = await fetch(`${server.api}/checks/${BOOK}/export?format=${format}`, {
        headers: { Authorization: `Bearer ${server.write}` },
      })
      expect(res.status, format).toBe(200)
      const body = Buffer.from(await res.arrayBuffer())
      if (format === 'html') expect(body.toString()).toContain('The Golden Gate Bridge')
      else expect(body.subarray(0, 2).toString()).toBe('PK')
    }
  })

  it('refuses a part that does not fit the parts submitted before, charging nothing', async () => {
    const before = await balance()
    const again = await submitted(part(BOOK, 1, { text: PARTS[1] }))
    expect(again.status).toBe(422)
    expect(expectEnvelope(again.json, 'unprocessable').message).toContain('does not fit manuscript')
    const otherCount = await submitted({
      ...part(BOOK, 3, { text: 'More.' }),
      manuscript: { id: BOOK, part: 4, parts: 4 },
    })
    expect(otherCount.status).toBe(422)
    const beyond = await submitted({
      ...part('mns_x', 0, { text: 'More.' }),
      manuscript: { id: 'mns_x', part: 3, parts: 2 },
    })
    expectEnvelope(beyond.json, 'bad_request')
    const badId = await submitted({ ...part('book', 0, { text: 'More.' }) })
    expectEnvelope(badId.json, 'bad_request')
    // The same part under its key again is its first submission, as for any check.
    const replay = await submitted(part(BOOK, 0, { text: PARTS[0] }), 'book-part-1')
    expect(replay.status).toBe(202)
    expect(replay.json.manuscript).toEqual({ id: BOOK, part: 1, parts: 3 })
    expect(await balance()).toBe(before)
    expect((await history()).data).toHaveLength(2)
  })

  it('cannot be cancelled once every part has completed, as a check of one text', async () => {
    const before = await balance()
    const cancel = await call(server, 'POST', `/checks/${BOOK}/cancel`)
    expect(cancel.status).toBe(422)
    expectEnvelope(cancel.json, 'unprocessable')
    expect(await balance()).toBe(before)
    expect((await call(server, 'GET', `/checks/${BOOK}`)).json.status).toBe('completed')
  })

  it('is renamed as one', async () => {
    const renamed = await call(server, 'PATCH', `/checks/${BOOK}`, { body: { name: 'The long book' } })
    expect(renamed.status).toBe(200)
    expect(renamed.json).toMatchObject({ id: BOOK, name: 'The long book' })
    const report = Report.parse((await call(server, 'GET', `/checks/${BOOK}/report`)).json)
    expect(report.check.name).toBe('The long book')
  })

  it('is re-checked part by part against the whole manuscript: only the claims about the edit are priced and checked', async () => {
    const edited = [PARTS[0], PARTS[1], (PARTS[2] as string).replace('1937', '1938')] as string[]
    const estimates = await Promise.all(
      edited.map(async (text) => {
        const res = await call(server, 'POST', '/checks/estimate', {
          body: { text, tiers: ['t1'], previousCheckId: BOOK },
        })
        expect(res.status, JSON.stringify(res.json)).toBe(200)
        return Estimate.parse(res.json)
      }),
    )
    const toCheck = estimates.flatMap((estimate) =>
      estimate.claims.filter((claim) => claim.carriedFrom === null).map((claim) => claim.text),
    )
    // The edited claim, and the next one, whose context it is.
    expect(toCheck).toEqual([
      'The Golden Gate Bridge was opened in 1938.',
      'Around ten million people visit it every yaer.',
    ])
    for (const claim of estimates.flatMap((estimate) => estimate.claims))
      if (claim.carriedFrom !== null) expect(claim.carriedFrom).toBe(BOOK)
    expect(estimates.reduce((all, estimate) => all + estimate.credits.total, 0)).toBe(2)

    const before = await balance()
    const again = 'mns_the-book-again'
    for (const [index, estimate] of estimates.entries()) {
      const res = await submitted(
        part(again, index, { documentId: estimate.documentId, previousCheckId: BOOK }),
      )
      expect(res.status, JSON.stringify(res.json)).toBe(202)
    }
    expect(await balance()).toBe(before - 2)
    expect((await waitForEnd(server, again, 30_000)).credits.charged).toBe(2)
    const report = Report.parse((await call(server, 'GET', `/checks/${again}/report`)).json)
    const whole = edited.join('')
    expect(report.text).toBe(whole)
    for (const claim of report.claims) {
      expect(whole.slice(claim.charStart, claim.charEnd)).toBe(claim.text)
      expect(claim.consensus.t1).toBeTruthy()
    }
    expect(report.claims.filter((claim) => claim.carriedFrom === null)).toHaveLength(2)
    const issues = report.claims.flatMap((claim) => claim.issues)
    expect(issues.map((issue) => whole.slice(issue.charStart, issue.charEnd))).toContain('yaer')
    expect((await history()).data.map((check) => check.id)).toEqual([again, BOOK, single.id])
  })

  it('is no previous check before all its parts have completed', async () => {
    const lone = 'mns_unfinished'
    const res = await submitted(part(lone, 0, { text: PARTS[0] }))
    expect(res.status).toBe(202)
    await waitForEnd(server, res.json.id)
    const estimate = await call(server, 'POST', '/checks/estimate', {
      body: { text: PARTS[0], tiers: ['t1'], previousCheckId: lone },
    })
    expect(estimate.status).toBe(422)
    expectEnvelope(estimate.json, 'unprocessable')
  })
})

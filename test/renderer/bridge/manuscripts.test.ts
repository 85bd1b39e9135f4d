import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { prose } from '../../../bench/prose'
import type { FactdeskApi } from '../../../src/shared/api'
import { answerError, restOperations, type RestRequest } from '../../../src/shared/rest'
import { withManuscripts } from '../../../src/renderer/src/bridge/manuscripts'
import { toUpdate } from '../../../src/main/engine/base/events'
import type { ReportUpdate } from '../../../src/shared/api'
import { call, startServer, waitForEnd, type TestServer } from '../../helpers/server'

const LIMIT = 2500
// A misspelling in the last part, whose finding must land on its word in the whole text.
const TEXT = `${prose(1200, 3)}\n\nAround seven million people visit the tower every yaer.`

let server: TestServer
beforeAll(async () => {
  server = await startServer({ config: { limits: { maxTextChars: LIMIT } } })
})
afterAll(() => server.close())

/// The editor's REST operations against the server with its write token; `failing` refuses the submissions it
/// names (by their Idempotency-Key) once each, as a dropped connection would.
function restApi(failing: Set<string>): { api: FactdeskApi; keys: string[] } {
  const keys: string[] = []
  const send = async <T>(request: RestRequest<T>): Promise<T> => {
    const key = request.headers?.['Idempotency-Key']
    if (key !== undefined) keys.push(key)
    if (key !== undefined && failing.delete(key)) throw new TypeError('fetch failed')
    const response = await fetch(server.api + request.path, {
      method: request.method,
      headers: {
        Authorization: `Bearer ${server.write}`,
        'Content-Type': 'application/json',
        ...request.headers,
      },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    })
    const body: unknown = await response.json()
    if (!response.ok) throw answerError(response.status, body, 'Factdesk')
    return request.schema.parse(body)
  }
  // Only the REST operations are reached here; pushed updates are not.
  const api = { ...restOperations(send), subscribe: () => () => undefined } as unknown as FactdeskApi
  return { api, keys }
}

const balance = async (): Promise<number> => (await call(server, 'GET', '/credits')).json.balance

describe('a manuscript longer than one check may be', () => {
  it('is estimated once at the service’s limit, checked in parts under one key prefix, and a retry charges no part twice', async () => {
    expect(
      (await call(server, 'POST', '/checks/estimate', { body: { text: TEXT, tiers: ['t1'] } })).status,
    ).toBe(422)
    const failing = new Set<string>()
    const { api: rest, keys } = restApi(failing)
    // The limit is the service's own (GET /me), far below the 200,000 characters a service takes by default.
    const api = withManuscripts(rest)
    const before = await balance()

    const estimate = await api.estimate({ text: TEXT, tiers: ['t1'] })
    expect(estimate.claimCount).toBeGreaterThan(20)
    for (const claim of estimate.claims) expect(TEXT.slice(claim.charStart, claim.charEnd)).toBe(claim.text)
    expect(estimate.credits.total).toBe(estimate.claimCount)

    // The third part's submission is lost on the way: the check fails, and is pressed again.
    const first = await api.estimate({ text: TEXT, tiers: ['t1'] })
    failing.add(`${first.documentId}-part-3`)
    const request = { documentId: first.documentId, tiers: ['t1' as const], name: 'The book' }
    await expect(api.submit(request)).rejects.toThrow()
    const halfway = await balance()
    expect(halfway).toBeLessThan(before)
    expect(halfway).toBeGreaterThan(before - first.credits.total)
    const check = await api.submit(request)
    expect(await balance()).toBe(before - first.credits.total)
    expect(check.claimCount).toBe(first.claimCount)
    expect(check.credits.charged).toBe(first.credits.total)
    // Parts 1 to 3 were sent twice under the same keys, the others once.
    const parts = new Set(keys).size
    expect(parts).toBeGreaterThan(3)
    expect(keys).toEqual([
      ...[1, 2, 3, 1, 2, 3].map((n) => `${first.documentId}-part-${n}`),
      ...Array.from({ length: parts - 3 }, (_, n) => `${first.documentId}-part-${n + 4}`),
    ])

    // One check in the service's history, named as asked; its report on the words of the whole text.
    expect(check.manuscript).toEqual({ id: check.id, parts })
    await waitForEnd(server, check.id, 90_000)
    const history = (await call(server, 'GET', '/checks?limit=100')).json.data
    expect(history).toHaveLength(1)
    expect(history[0]).toMatchObject({ id: check.id, status: 'completed', name: 'The book' })
    const report = await api.report(check.id)
    expect(report.text).toBe(TEXT)
    expect(report.claims).toHaveLength(first.claimCount)
    for (const claim of report.claims) expect(TEXT.slice(claim.charStart, claim.charEnd)).toBe(claim.text)
    const issues = report.claims.flatMap((claim) => claim.issues)
    expect(issues.map((issue) => TEXT.slice(issue.charStart, issue.charEnd))).toContain('yaer')

    // Checked again since then, as the page does: every claim of every part kept, nothing to pay.
    const again = await api.estimate({ text: TEXT, tiers: ['t1'], previousCheckId: check.id })
    expect(again.claimCount).toBe(first.claimCount)
    expect(again.claims.every((claim) => claim.carriedFrom === check.id)).toBe(true)
    expect(again.credits.total).toBe(0)
    const recheck = await api.submit({ ...request, documentId: again.documentId, previousCheckId: check.id })
    expect(recheck.credits.charged).toBe(0)
    const kept = await api.report((await waitForEnd(server, recheck.id, 90_000)).id)
    expect(kept.claims.every((claim) => claim.carriedFrom !== null && claim.consensus.t1)).toBe(true)
  }, 120_000)

  it('waits to be checked later part by part, and is checked as one', async () => {
    const { api: rest, keys } = restApi(new Set())
    const api = withManuscripts(rest)
    const estimate = await api.estimate({ text: TEXT, tiers: ['t1'] })
    const queued = await api.queueCheck(
      { documentId: estimate.documentId, tiers: ['t1'], name: 'Later' },
      'later',
    )
    // One pending check for all its parts, as the list of waiting checks shows it.
    expect(queued).toMatchObject({ id: estimate.documentId, label: 'Later' })
    const parts = keys.length
    expect(keys).toEqual(Array.from({ length: parts }, (_, n) => `later-part-${n + 1}`))
    expect(queued.manuscript).toEqual({ id: estimate.documentId, parts })
    // Submitted by the engine as its providers answer, each part as a part of the manuscript.
    const check = await waitForEnd(server, estimate.documentId, 90_000)
    expect(check).toMatchObject({
      status: 'completed',
      name: 'Later',
      claimCount: estimate.claimCount,
      manuscript: { id: estimate.documentId, parts },
    })
    const history = (await call(server, 'GET', '/checks?limit=100')).json.data
    expect(history[0]).toMatchObject({ id: estimate.documentId, name: 'Later' })
    expect(history.filter((each: { name: string }) => each.name === 'Later')).toHaveLength(1)
    expect((await api.report(check.id)).text).toBe(TEXT)
  }, 120_000)

  it('shows its claims as they land on a page that did not estimate it (reopened while it runs)', async () => {
    const { api: estimating } = restApi(new Set())
    const api = withManuscripts(estimating)
    // Another page of the same organization, with the engine's pushed updates.
    const { api: rest } = restApi(new Set())
    const heard: ReportUpdate[] = []
    const reopened = withManuscripts({
      ...rest,
      subscribe: (listener) => server.engine.events.subscribe((event) => listener(toUpdate(event))),
    })
    const stop = reopened.subscribe((update) => heard.push(update))
    try {
      const estimate = await api.estimate({ text: TEXT, tiers: ['t1'] })
      const check = await api.submit({ documentId: estimate.documentId, tiers: ['t1'], name: 'Elsewhere' })
      await waitForEnd(server, check.id, 90_000)
      const report = await api.report(check.id)
      const claims = () => heard.filter((update) => update.type === 'claim')
      // Every claim's verdict lands on the manuscript's check, its findings on the words of the whole text.
      await expect
        .poll(() => new Set(claims().map((update) => update.claimId)).size, { timeout: 30_000 })
        .toBe(report.claims.length)
      expect(claims().every((update) => update.checkId === check.id)).toBe(true)
      const issues = claims().flatMap((update) => update.issues)
      expect(issues.map((issue) => TEXT.slice(issue.charStart, issue.charEnd))).toContain('yaer')
      const ranges = (all: { charStart: number; charEnd: number }[]) =>
        [...new Set(all.map((issue) => `${issue.charStart}-${issue.charEnd}`))].sort()
      expect(ranges(issues)).toEqual(ranges(report.claims.flatMap((claim) => claim.issues)))
    } finally {
      stop()
    }
  }, 120_000)
})

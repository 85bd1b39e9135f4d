import { describe, expect, it } from 'vitest'
import { Research } from '../../../../src/shared/schemas'
import type { ReportUpdate } from '../../../../src/shared/api'
import { ManualClock, type Clock } from '../../../../src/main/engine/base/clock'
import type { RunnerOptions } from '../../../../src/main/engine/jobs/runner'
import { validMap } from '../../../../src/main/engine/research'
import { normaliseSpace } from '../../../../src/main/engine/web'
import {
  claimsToResolve,
  startFakeOpenAI,
  type FakeOpenAI,
  type RecordedRequest,
} from '../../../helpers/fakeOpenAI'
import { FakeSearch } from '../../../helpers/fakeSearch'
import { FakeWiki } from '../../../helpers/fakeWiki'
import { call, expectEnvelope, waitForEnd, type TestServer } from '../../../helpers/server'
import { t2Config } from '../tiers/t2/setup'
import { CAPITAL_PLAN, CLAIM, OTTAWA, serveCapitalArticles, TORONTO } from './capital'
import { data, openEvents, schemaName, startResearchServer, waitForResearch } from './setup'
import { closeAfterEach } from '../../../helpers/teardown'

const SERVED = normaliseSpace([...OTTAWA, ...TORONTO].join(' '))

let fake: FakeOpenAI | undefined
let server: (TestServer & { dataDir: string }) | undefined
let wiki: FakeWiki | undefined
closeAfterEach(
  () => [server, fake, wiki],
  () => (server = fake = wiki = undefined),
)

/// A model that answers every research step from the data it is given: as evidence it chooses the passage on
/// Queen Victoria; its map cites one real sentence per argument and one invented quote (which must be
/// dropped).
function researcher(request: RecordedRequest): unknown {
  const input = data(request)
  switch (schemaName(request)) {
    case 'relevant_passages': {
      const passages: Array<{ id: string; text: string }> = input.passages
      return { passages: passages.filter((p) => /Queen Victoria/.test(p.text)).map((p) => p.id) }
    }
    case 'research_plan':
      return CAPITAL_PLAN
    case 'argument_map': {
      const passages: Array<{ id: string; text: string }> = input.passages
      const find = (start: string) => passages.find((p) => p.text.startsWith(start))
      const ottawa = find('Ottawa is the capital')
      const toronto = find('Toronto')
      return {
        arguments: [
          {
            kind: 'proof',
            text: 'The encyclopedia names Ottawa as the capital.',
            citations: [
              { passage: ottawa?.id ?? 'P1', quote: 'Ottawa is the capital city of Canada.' },
              { passage: ottawa?.id ?? 'P1', quote: 'Ottawa has been the capital since 1066.' },
            ],
          },
          {
            kind: 'dissent',
            text: 'Toronto was once a capital.',
            citations: [
              {
                passage: toronto?.id ?? 'P2',
                quote: 'was the capital of the Province of Canada for several periods.',
              },
            ],
          },
        ],
      }
    }
    case 'stances': {
      // The quote on Ottawa confirms the claim; the one on Toronto's past says nothing about today's capital.
      const quotes: Array<{ id: string; quote: string }> = input.quotes
      return {
        stances: quotes.map((q) => ({
          quote: q.id,
          reasoning: 'What it says.',
          stance: q.quote.startsWith('Ottawa') ? 'supports' : 'neutral',
        })),
      }
    }
    case 'map_vote':
      return { verdict: 'supported', detail: null, confidence: 0.9, rationale: 'The proof is sourced.' }
    case 'research_finding':
      return {
        verdict: 'supported',
        detail: null,
        confidence: 0.85,
        summary: 'Ottawa is the capital; Toronto once was one.',
      }
    default:
      return {}
  }
}

/// The researcher with the slips small models make: passages named "Passage 2" and "p2.", quotes copied with
/// a doubled space and without their final full stop.
function sloppyResearcher(request: RecordedRequest): unknown {
  const answer = researcher(request) as any
  switch (schemaName(request)) {
    case 'relevant_passages':
      return { passages: answer.passages.map((id: string) => `Passage ${id.slice(1)}`) }
    case 'argument_map':
      return {
        arguments: answer.arguments.map((argument: any) => ({
          ...argument,
          citations: argument.citations.map((citation: { passage: string; quote: string }) => ({
            passage: `${citation.passage.toLowerCase()}.`,
            quote: citation.quote.replace(' ', '  ').replace(/\.$/, ''),
          })),
        })),
      }
    default:
      return answer
  }
}

async function setUp(
  runner: Partial<RunnerOptions> = {},
  answer: (r: RecordedRequest) => unknown = researcher,
  dataDir?: string,
  clock?: Clock,
) {
  wiki ??= await new FakeWiki().start()
  serveCapitalArticles(wiki)
  fake ??= await startFakeOpenAI({ '*': { answer } })
  server = await startResearchServer(
    { ...t2Config(fake, ['a', 'b']), search: { baseURL: wiki.apiUrl }, web: { allowLocalTargets: true } },
    runner,
    dataDir,
    clock,
  )
  return server
}

const balance = async (s: TestServer) => (await call(s, 'GET', '/credits')).json.balance as number

function expectGoodResult(research: any) {
  const parsed = Research.parse(research)
  const result = parsed.result!
  expect(parsed.status).toBe('completed')
  expect(validMap(result.argumentMap)).toBe(true)
  const ids = new Set(result.argumentMap.nodes.map((n) => n.id))
  for (const edge of result.argumentMap.edges) {
    expect(ids.has(edge.from) && ids.has(edge.to)).toBe(true)
  }
  expect(result.argumentMap.nodes.filter((n) => n.kind === 'proof')).toHaveLength(1)
  expect(result.argumentMap.nodes.filter((n) => n.kind === 'dissent')).toHaveLength(1)
  expect(result.argumentMap.edges).toContainEqual({ from: 'a2', to: 'claim', relation: 'attacks' })
  expect(result.votes.map((v) => v.model).sort()).toEqual(['panel-a', 'panel-b'])
  expect(result).toMatchObject({ verdict: 'supported', confidence: 0.85 })
  // The invented quote was dropped; every kept one is in a served page.
  expect(result.sources.map((s) => s.quote).sort()).toEqual([
    'Ottawa is the capital city of Canada.',
    'was the capital of the Province of Canada for several periods.',
  ])
  for (const node of result.argumentMap.nodes)
    for (const source of node.sources) expect(SERVED).toContain(source.quote)
  // Every quote of the map has its stance toward the claim: the one on Toronto's past does not bear on it.
  const stanceOf = (quote: string) =>
    result.argumentMap.nodes.flatMap((n) => n.sources).filter((source) => source.quote === quote)
  for (const source of stanceOf('Ottawa is the capital city of Canada.'))
    expect(source.stance).toBe('supports')
  const toronto = stanceOf('was the capital of the Province of Canada for several periods.')
  expect(toronto.length).toBeGreaterThan(0)
  for (const source of toronto) expect(source.stance).toBe('neutral')
  expect(result.sources.map((source) => source.stance).sort()).toEqual(['neutral', 'supports'])
}

describe('deep research', () => {
  it('by text: charged once on acceptance, completes with a valid map, every panel vote and progress events', async () => {
    const s = await setUp()
    const events: Array<Extract<ReportUpdate, { type: 'research' }>> = []
    s.engine.events.subscribe((event) => event.type === 'research' && events.push(event))
    const before = await balance(s)
    const res = await call(s, 'POST', '/research', { body: { text: CLAIM } })
    expect(res.status).toBe(202)
    expect(res.json).toMatchObject({
      status: 'queued',
      claimId: null,
      text: CLAIM,
      credits: { charged: 40, refunded: 0 },
    })
    expect(res.json.id).toMatch(/^rsc_/)
    expect(await balance(s)).toBe(before - 40)
    const done = await waitForResearch(s, res.json.id)
    expectGoodResult(done)
    expect(await balance(s)).toBe(before - 40)
    expect((await s.engine.admin.ledger(s.organizationId)).charge).toBe(40)
    expect(events.map((e) => e.step)).toEqual(
      expect.arrayContaining(['plan', 'search-support', 'search-contradiction', 'map', 'votes', 'verdict']),
    )
    expect(events.at(-1)).toMatchObject({ step: null, research: { status: 'completed', id: res.json.id } })
    // Two pages read: the sub-question's search and the support's both found Ottawa, counted once.
    expect(Math.max(...events.map((e) => e.sourcesRead))).toBe(2)
    // The planned sub-question was searched, besides the support and contradiction queries.
    expect(
      wiki!.requests
        .filter((r) => r.startsWith('/w/api.php'))
        .map((r) => new URL(r, wiki!.origin).searchParams.get('srsearch')),
    ).toEqual(['Which city is the capital of Canada?', 'Ottawa capital', 'Toronto capital'])
    // A read token may poll but not start.
    expect((await call(s, 'GET', `/research/${res.json.id}`, { token: s.read })).status).toBe(200)
    expect((await call(s, 'POST', '/research', { token: s.read, body: { text: CLAIM } })).status).toBe(403)
  })

  it('reads the evidence and the map’s citations as models write them, keeping the pages’ words', async () => {
    const s = await setUp({}, sloppyResearcher)
    const res = await call(s, 'POST', '/research', { body: { text: CLAIM } })
    expectGoodResult(await waitForResearch(s, res.json.id))
    // Each choice of evidence was read as written: none was asked for again.
    const choices = fake!.requests.filter((r) => schemaName(r) === 'relevant_passages')
    expect(choices.length).toBeGreaterThan(0)
    for (const choice of choices) expect(choice.user).not.toContain('could not be used')
  })

  it("by claimId: a claim of the organization's check or estimate, with its context; another organization's is not found", async () => {
    const s = await setUp()
    const check = await call(s, 'POST', '/checks', {
      body: { text: `Canada is a country in North America. ${CLAIM}`, tiers: ['t1'] },
    })
    expect(check.status).toBe(202)
    await waitForEnd(s, check.json.id)
    const report = (await call(s, 'GET', `/checks/${check.json.id}/report`)).json
    const claim = report.claims.find((c: any) => c.text.includes('Ottawa'))
    const res = await call(s, 'POST', '/research', { body: { claimId: claim.claimId } })
    expect(res.status).toBe(202)
    expect(res.json).toMatchObject({ claimId: claim.claimId, text: claim.text })
    expectGoodResult(await waitForResearch(s, res.json.id))
    const plan = fake!.requests.find((r) => schemaName(r) === 'research_plan')!
    expect(data(plan).context).toContain('North America')
    // The judge chose the sub-question's and the support search's evidence knowing the context (the
    // contradiction search found one passage: nothing to choose from); its choice leads the map's passages.
    const choices = fake!.requests.filter((r) => schemaName(r) === 'relevant_passages')
    expect(choices).toHaveLength(2)
    for (const choice of choices) expect(data(choice).context).toContain('North America')
    const map = fake!.requests.find((r) => schemaName(r) === 'argument_map')!
    expect(data(map).passages[0].text).toContain('Queen Victoria')
    expect(
      expectEnvelope(
        (await call(s, 'POST', '/research', { body: { claimId: 'clm_nope' } })).json,
        'not_found',
      ),
    )
    // A claim of an estimate, never checked, may be researched too (a claim "in estimate and report").
    const estimate = (await call(s, 'POST', '/checks/estimate', { body: { text: CLAIM, tiers: ['t1'] } }))
      .json
    const estimated = await call(s, 'POST', '/research', { body: { claimId: estimate.claims[0].claimId } })
    expect(estimated.status).toBe(202)
    expect(estimated.json).toMatchObject({ claimId: estimate.claims[0].claimId, text: CLAIM })
    expect((await waitForResearch(s, estimated.json.id)).status).toBe('completed')
    // Another organization learns nothing about the claim and pays nothing.
    const other = await s.engine.admin.createOrganization('Other', 100)
    const otherToken = (await s.engine.admin.createToken('write', other.id, 'other')).value
    const refused = await call(s, 'POST', '/research', {
      token: otherToken,
      body: { claimId: claim.claimId },
    })
    expect(refused.status).toBe(404)
    expect(expectEnvelope(refused.json, 'not_found').message).toBe(
      `No claim ${claim.claimId} in this organization's estimates or checks.`,
    )
    expect((await s.engine.admin.ledger(other.id)).charge).toBe(0)
    expect((await call(s, 'GET', '/credits', { token: otherToken })).json.balance).toBe(100)
  }, 60_000)

  it('by claimId: researches the claim as its self-contained statement, resolving it first when no check has', async () => {
    const s = await setUp()
    fake!.behave('model-resolver', {
      resolve: ({ claim }) => ({ statement: claim.replace(/^It/, 'Ottawa') }),
    })
    const text = 'Ottawa is a city in Ontario. It has been the capital of Canada since 1857.'
    const estimate = (await call(s, 'POST', '/checks/estimate', { body: { text, tiers: ['t2'] } })).json
    const claim = estimate.claims.find((c: any) => c.text.startsWith('It '))
    const res = await call(s, 'POST', '/research', { body: { claimId: claim.claimId } })
    expect(res.status).toBe(202)
    const statement = 'Ottawa has been the capital of Canada since 1857.'
    expect(res.json).toMatchObject({ claimId: claim.claimId, text: statement })
    expect((await waitForResearch(s, res.json.id)).status).toBe('completed')
    const plan = fake!.requests.find((r) => schemaName(r) === 'research_plan')!
    expect(data(plan).claim).toBe(statement)
    expect(fake!.of('model-resolver')).toHaveLength(1)
    // The claim keeps its statement: a check of its document does not resolve it again.
    for (const model of ['model-a', 'model-b', 'model-judge']) fake!.behave(model, {})
    const check = await call(s, 'POST', '/checks', {
      body: { documentId: estimate.documentId, tiers: ['t2'] },
    })
    expect(check.status).toBe(202)
    expect((await waitForEnd(s, check.json.id)).status).toBe('completed')
    const report = (await call(s, 'GET', `/checks/${check.json.id}/report`)).json
    expect(report.claims.find((c: any) => c.claimId === claim.claimId).statement).toBe(statement)
    expect(fake!.of('model-resolver')).toHaveLength(2)
    expect(claimsToResolve(fake!.of('model-resolver')[1]!)!.map((c) => c.claim)).toEqual([
      'Ottawa is a city in Ontario.',
    ])
  })

  it('by claimId: refused (503, nothing charged) while the resolver fails for now, never researched as bare words', async () => {
    const s = await setUp()
    fake!.behave('model-resolver', { alwaysFail: { status: 503 } })
    const text = 'Ottawa is a city in Ontario. It has been the capital of Canada since 1857.'
    const estimate = (await call(s, 'POST', '/checks/estimate', { body: { text, tiers: ['t2'] } })).json
    const claim = estimate.claims.find((c: any) => c.text.startsWith('It '))
    const before = await balance(s)
    const res = await call(s, 'POST', '/research', { body: { claimId: claim.claimId } })
    expect(res.status).toBe(503)
    expect(expectEnvelope(res.json, 'providers_unreachable').message).toMatch(/nothing was charged/)
    expect(await balance(s)).toBe(before)
    expect(fake!.requests.filter((r) => schemaName(r) === 'research_plan')).toEqual([])
  })

  it('refuses both or neither of claimId and text (400), and a short balance (402)', async () => {
    const s = await setUp()
    for (const body of [{}, { claimId: 'clm_x', text: CLAIM }, { text: 5 }]) {
      const res = await call(s, 'POST', '/research', { body })
      expect(res.status).toBe(400)
      expectEnvelope(res.json, 'bad_request')
    }
    const poor = await s.engine.admin.createOrganization('poor', 39)
    const token = (await s.engine.admin.createToken('write', poor.id, 'poor')).value
    const res = await call(s, 'POST', '/research', { token, body: { text: CLAIM } })
    expect(res.status).toBe(402)
    expectEnvelope(res.json, 'insufficient_credits')
    expect((await s.engine.admin.ledger(poor.id)).charge).toBe(0)
  })

  it('is refunded exactly once when it fails, also after a restart', async () => {
    const failing = (request: RecordedRequest) =>
      schemaName(request) === 'argument_map' ? { arguments: [] } : researcher(request)
    const s = await setUp({ maxAttempts: 2 }, failing)
    const ended: string[] = []
    s.engine.events.subscribe(
      (e) => e.type === 'research' && e.step === null && ended.push(e.research.status),
    )
    const before = await balance(s)
    const res = await call(s, 'POST', '/research', { body: { text: CLAIM } })
    const done = await waitForResearch(s, res.json.id)
    expect(done).toMatchObject({ status: 'failed', result: null, credits: { charged: 40, refunded: 40 } })
    expect(done.error.message).toContain('no proof or dissent')
    expect(fake!.requests.filter((r) => schemaName(r) === 'argument_map')).toHaveLength(2)
    expect(ended).toEqual(['queued', 'failed'])
    expect(await balance(s)).toBe(before)
    expect(await s.engine.admin.ledger(s.organizationId)).toMatchObject({ charge: 40, refund: 40 })
    const dataDir = s.dataDir
    await s.close()
    server = undefined
    const again = await setUp({ maxAttempts: 2 }, failing, dataDir)
    expect((await call(again, 'GET', `/research/${res.json.id}`)).json.status).toBe('failed')
    expect(await again.engine.admin.ledger(again.organizationId)).toMatchObject({ charge: 40, refund: 40 })
  })

  it('fails at once, refunded, when the search provider refuses its key', async () => {
    const brave = await new FakeSearch().start()
    process.env.FACTDESK_TEST_BRAVE_KEY = 'not-the-key'
    try {
      fake = await startFakeOpenAI({ '*': { answer: researcher } })
      server = await startResearchServer({
        ...t2Config(fake, ['a', 'b']),
        search: {
          provider: 'brave',
          baseURL: brave.baseURL('brave'),
          apiKeyEnv: 'FACTDESK_TEST_BRAVE_KEY',
        },
        web: { allowLocalTargets: true },
      })
      const res = await call(server, 'POST', '/research', { body: { text: CLAIM } })
      const done = await waitForResearch(server, res.json.id)
      expect(done).toMatchObject({ status: 'failed', credits: { charged: 40, refunded: 40 } })
      expect(done.error.message).toMatch(/^Brave Search refused the API key \(HTTP 401\)/)
      expect(done.error.message).toContain('FACTDESK_TEST_BRAVE_KEY')
      expect(done.error.message).not.toContain('not-the-key')
      // One attempt: no retry of what will not mend.
      expect(brave.requests.map((r) => r.key)).toEqual(['not-the-key'])
    } finally {
      delete process.env.FACTDESK_TEST_BRAVE_KEY
      await brave.close()
    }
  })

  it("streams its progress on GET /events in order, to the organization's stream only", async () => {
    const s = await setUp()
    const other = await s.engine.admin.createOrganization('Other', 100)
    const otherToken = (await s.engine.admin.createToken('write', other.id, 'other')).value
    const mine = await openEvents(s, s.read)
    const theirs = await openEvents(s, otherToken)
    const ended = (id: string) => (updates: ReportUpdate[]) =>
      updates.some((u) => u.type === 'research' && u.research.id === id && u.research.status === 'completed')
    const res = await call(s, 'POST', '/research', { body: { text: CLAIM } })
    const progress = (await mine.until(ended(res.json.id))).filter((u) => u.type === 'research')
    expect(progress.map((u) => [u.step, u.research.status])).toEqual([
      [null, 'queued'],
      ['plan', 'running'],
      ['search-support', 'running'],
      ['search-contradiction', 'running'],
      ['map', 'running'],
      ['votes', 'running'],
      ['votes', 'running'],
      ['verdict', 'running'],
      [null, 'completed'],
    ])
    expect(progress.map((u) => u.sourcesRead)).toEqual([0, 0, 1, 2, 2, 2, 2, 2, 2])
    expect(progress.every((u) => u.research.id === res.json.id && !('organizationId' in u))).toBe(true)
    expectGoodResult(progress.at(-1)!.research)
    // The other organization's stream, open all along, hears only its own run.
    const own = await call(s, 'POST', '/research', { token: otherToken, body: { text: CLAIM } })
    expect(own.status).toBe(202)
    const heard = await theirs.until(ended(own.json.id))
    expect(heard.length).toBeGreaterThan(0)
    expect(heard.every((u) => u.type === 'research' && u.research.id === own.json.id)).toBe(true)
  })

  it('resumes after a restart from the last finished step', async () => {
    const answer = (request: RecordedRequest) => researcher(request)
    wiki = await new FakeWiki().start()
    fake = await startFakeOpenAI({ '*': { answer } })
    // The panel's votes hang until the engine stops.
    fake.behave('model-a', { answer, latencyMs: 60_000 })
    const first = await setUp({}, answer)
    const reachedVotes = new Promise<void>((resolve) =>
      first.engine.events.subscribe(
        (event) => event.type === 'research' && event.step === 'map' && resolve(),
      ),
    )
    const res = await call(first, 'POST', '/research', { body: { text: CLAIM } })
    await reachedVotes
    await new Promise((resolve) => setTimeout(resolve, 50))
    const dataDir = first.dataDir
    await first.close()
    server = undefined
    fake.behave('model-a', { answer })
    const second = await setUp({}, answer, dataDir)
    const done = await waitForResearch(second, res.json.id)
    expectGoodResult(done)
    // The steps done before the restart were not done again; the run was charged once.
    expect(fake.requests.filter((r) => schemaName(r) === 'research_plan')).toHaveLength(1)
    expect(fake.requests.filter((r) => schemaName(r) === 'argument_map')).toHaveLength(1)
    expect(await second.engine.admin.ledger(second.organizationId)).toMatchObject({ charge: 40, refund: 0 })
  })

  it('a step that fails is retried by the job runner after its backoff, which a restart keeps', async () => {
    // The first argument map has no argument, so that step fails; the next is good.
    let maps = 0
    const answer = (request: RecordedRequest) =>
      schemaName(request) === 'argument_map' && ++maps === 1 ? { arguments: [] } : researcher(request)
    const failedAt = Date.parse('2026-03-02T10:00:00.000Z')
    const first = await setUp(
      { retryDelayMs: () => 60_000 },
      answer,
      undefined,
      new ManualClock(new Date(failedAt)),
    )
    const res = await call(first, 'POST', '/research', { body: { text: CLAIM } })
    // The runner puts the run back in the queue, due after its backoff, in the store.
    const store = await first.openStore()
    const due = new Date(failedAt + 60_000).toISOString()
    try {
      for (const deadline = Date.now() + 15_000; (await store.research.nextDue()) !== due;) {
        if (Date.now() > deadline) throw new Error(`research next due ${await store.research.nextDue()}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(await store.research.byId(res.json.id)).toMatchObject({ status: 'running', attempts: 1 })
    } finally {
      await store.close()
    }
    const dataDir = first.dataDir
    await first.close()
    server = undefined
    // Started again once it is due, the runner takes the run up from its saved steps: only the map is asked again.
    const second = await setUp({}, answer, dataDir, new ManualClock(new Date(failedAt + 61_000)))
    expectGoodResult(await waitForResearch(second, res.json.id))
    expect(fake!.requests.filter((r) => schemaName(r) === 'argument_map')).toHaveLength(2)
    expect(fake!.requests.filter((r) => schemaName(r) === 'research_plan')).toHaveLength(1)
    expect(await second.engine.admin.ledger(second.organizationId)).toMatchObject({ charge: 40, refund: 0 })
  })

  it('that reads no source fails and says so, refunded, without asking for a map', async () => {
    const s = await setUp()
    // The searches find pages that cannot be read (the wiki has none by those names).
    wiki!.search = () => [{ title: 'Missing page' }]
    const before = await balance(s)
    const res = await call(s, 'POST', '/research', { body: { text: CLAIM } })
    const ended = Research.parse(await waitForResearch(s, res.json.id))
    expect(ended).toMatchObject({ status: 'failed', result: null, credits: { charged: 40, refunded: 40 } })
    expect(ended.error?.message).toBe(
      'Deep research read no source for this claim: no page its searches found could be read, so there is ' +
        'no argument map to show.',
    )
    expect(await balance(s)).toBe(before)
    expect(fake!.requests.map(schemaName)).not.toContain('argument_map')
    // The history lists it with its charge and refund.
    const listed = await call(s, 'GET', '/research')
    expect(listed.status).toBe(200)
    expect(listed.json.data).toEqual([ended])
  })

  it('never shows an instruction echoed by the model as an argument of the map', async () => {
    const s = await setUp({}, (request) => {
      const answer = researcher(request) as { arguments?: unknown[] }
      if (schemaName(request) !== 'argument_map') return answer
      const echoed = {
        kind: 'proof',
        text: 'Build the argument map of "claim" from "passages".',
        citations: [],
      }
      return { arguments: [echoed, ...(answer.arguments ?? [])] }
    })
    const res = await call(s, 'POST', '/research', { body: { text: CLAIM } })
    const result = Research.parse(await waitForResearch(s, res.json.id)).result!
    expect(result.argumentMap.nodes.map((node) => node.text)).not.toContain(
      'Build the argument map of "claim" from "passages".',
    )
    expectGoodResult(await waitForResearch(s, res.json.id))
  })

  it('downgraded for want of sources, says so: no high confidence, a summary that no source could be verified', async () => {
    // Every quote of the map is invented, so none is verified; the judge still says refuted, 90% sure.
    const s = await setUp({}, (request) => {
      const name = schemaName(request)
      if (name === 'argument_map')
        return {
          arguments: [
            {
              kind: 'dissent',
              text: 'It is not.',
              citations: [{ passage: 'P1', quote: 'Toronto has always been the capital.' }],
            },
          ],
        }
      if (name === 'map_vote')
        return { verdict: 'refuted', detail: null, confidence: 0.9, rationale: 'The dissent.' }
      if (name === 'research_finding')
        return {
          verdict: 'refuted',
          detail: null,
          confidence: 0.9,
          summary: 'The retrieved sources contradict this claim.',
        }
      return researcher(request)
    })
    const res = await call(s, 'POST', '/research', { body: { text: CLAIM } })
    const result = (await waitForResearch(s, res.json.id)).result
    expect(result).toMatchObject({
      verdict: 'unverifiable',
      detail: 'no_evidence',
      confidence: 0,
      sources: [],
    })
    expect(result.summary).toMatch(
      /^No source could be verified for this claim: of the 2 pages read, none held a quote that contradicts it/,
    )
    expect(result.summary).not.toContain('The retrieved sources contradict')
  })

  it('judges every quote of the map in one request, and a finding whose quotes do not bear on the claim is unverifiable', async () => {
    // The map keeps only the quote on Toronto's past, which the verifier finds neutral; the judge still says
    // supported.
    const s = await setUp({}, (request) => {
      if (schemaName(request) !== 'argument_map') return researcher(request)
      const answer = researcher(request) as { arguments: Array<{ kind: string }> }
      return { arguments: answer.arguments.filter((argument) => argument.kind === 'dissent') }
    })
    const res = await call(s, 'POST', '/research', { body: { text: CLAIM } })
    const result = (await waitForResearch(s, res.json.id)).result
    expect(fake!.requests.filter((r) => schemaName(r) === 'stances')).toHaveLength(1)
    expect(result.sources).toEqual([
      expect.objectContaining({
        quote: 'was the capital of the Province of Canada for several periods.',
        stance: 'neutral',
      }),
    ])
    expect(result.verdict).toBe('unverifiable')
    expect(result.summary).toMatch(
      /^No source could be verified for this claim: .* none held a quote that confirms it/,
    )
  })

  it('carries its kind like a tier’s verdict: the finding’s and each vote’s, a kind that does not fit dropped', async () => {
    const s = await setUp({}, (request) => {
      const name = schemaName(request)
      if (name === 'map_vote')
        return request.model === 'model-a'
          ? { verdict: 'misleading', detail: 'partly true', confidence: 0.7, rationale: 'Only in part.' }
          : { verdict: 'supported', detail: 'missing_context', confidence: 0.9, rationale: 'It is.' }
      if (name === 'research_finding')
        return {
          verdict: 'misleading',
          detail: 'missing_context',
          confidence: 0.8,
          summary: 'Ottawa is the capital; Toronto was one before, which the claim leaves out.',
        }
      return researcher(request)
    })
    const res = await call(s, 'POST', '/research', { body: { text: CLAIM } })
    const result = Research.parse(await waitForResearch(s, res.json.id)).result!
    expect(result).toMatchObject({ verdict: 'misleading', detail: 'missing_context' })
    expect(result.votes.map(({ model, verdict, detail }) => ({ model, verdict, detail }))).toEqual([
      { model: 'panel-a', verdict: 'misleading', detail: 'partly_true' },
      // "Supported" of a missing context says nothing: no kind.
      { model: 'panel-b', verdict: 'supported', detail: null },
    ])
  })
})

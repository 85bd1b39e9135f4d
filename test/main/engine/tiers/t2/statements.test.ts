import { describe, expect, it } from 'vitest'
import type { Report, Verdict } from '../../../../../src/shared/schemas'
import { passageFor, resolvedAt } from '../../../../../src/main/engine/tiers/resolve'
import { DATA_OPEN } from '../../../../../src/main/engine/tiers/t2'
import { partsVerdict } from '../../../../../src/main/engine/tiers/resolve/parts'
import {
  claimsToResolve,
  startFakeOpenAI,
  type ClaimToResolve,
  type FakeOpenAI,
  type RecordedRequest,
} from '../../../../helpers/fakeOpenAI'
import { startServer, waitForEnd, type TestServer } from '../../../../helpers/server'
import { judged, panelRequests, report, resolverRequests, startT2Server, submitT2, t2Config } from './setup'
import { closeAfterEach } from '../../../../helpers/teardown'

let fake: FakeOpenAI
let server: TestServer
closeAfterEach(() => [server, fake])

/// A resolver that replaces a leading "It" with the subject of the nearest sentence before the claim that
/// starts with "The …" (its capitalised words).
const resolveIt = ({ claim, before }: ClaimToResolve) => {
  const subject = [...before]
    .reverse()
    .map((sentence) => /^The(?: [A-Z]\w+)+/.exec(sentence)?.[0])
    .find(Boolean)
  return { statement: subject ? claim.replace(/^It\b/, subject) : claim }
}

/// The data block of a panel model's request for one claim.
const voteData = (
  request: RecordedRequest,
): { claim: string; asWritten?: string; sentenceBefore?: string; sentenceAfter?: string } =>
  JSON.parse(request.user.split('\n')[2]!)

/// The data block of any request to the panel or the judge (a debate round's instructions take two lines).
const dataOf = (request: RecordedRequest): any => {
  const lines = request.user.split('\n')
  return JSON.parse(lines[lines.indexOf(DATA_OPEN) + 1]!)
}

/// A panelist that knows one fact: the Brooklyn Bridge was completed in 1883, the Eiffel Tower in 1889. It reads
/// the sentence before a claim given with its context.
const historian = (request: RecordedRequest) => {
  const { claim, sentenceBefore = '' } = voteData(request)
  const wrong = /Brooklyn Bridge/.test(`${sentenceBefore} ${claim}`) && !/1883/.test(claim)
  return {
    rationale: `On “${claim}”.`,
    confidence: 0.9,
    detail: null,
    verdict: wrong ? 'refuted' : 'supported',
  }
}

const run = async (text: string): Promise<Report> => {
  const check = await submitT2(server, text)
  expect((await waitForEnd(server, check.id)).status).toBe('completed')
  return report(server, check.id)
}

const claimOf = (result: Report, text: string) => result.claims.find((claim) => claim.text === text)!

describe('a multi-fact claim’s verdict from its parts’', () => {
  it('is refuted when a part is refuted, or misleading when another part holds; else misleading, supported or unverifiable', () => {
    const cases: [Verdict[], Verdict, number][] = [
      [['supported', 'supported'], 'supported', 0],
      [['supported', 'refuted'], 'misleading', 1],
      [['refuted', 'unverifiable'], 'refuted', 0],
      [['unverifiable', 'refuted', 'refuted'], 'refuted', 1],
      [['unverifiable', 'misleading', 'supported'], 'misleading', 1],
      [['supported', 'unverifiable'], 'unverifiable', 1],
      [['misleading', 'refuted', 'supported'], 'misleading', 1],
    ]
    for (const [verdicts, verdict, deciding] of cases)
      expect(partsVerdict(verdicts), verdicts.join(', ')).toEqual({ verdict, deciding })
  })
})

describe('what the resolver reads of a document', () => {
  it('each claim’s sentence with three before and one after, each sentence once, "…" where it skips some', () => {
    const sentences = Array.from({ length: 12 }, (_, i) => `Sentence ${i + 1} is here.`)
    const text = `# Title\n\n${sentences.join(' ')}`
    const claim = (n: number) => {
      const charStart = text.indexOf(`Sentence ${n} `)
      // The third claim is a clause of its sentence.
      const words = n === 3 ? 'Sentence 3 is' : `Sentence ${n} is here.`
      return {
        id: `c${n}`,
        documentId: 'd',
        text: words,
        charStart,
        charEnd: charStart + words.length,
        statement: null,
        parts: null,
        statementState: null,
      }
    }
    expect(passageFor(text, [claim(2), claim(10), claim(3)])).toEqual({
      title: 'Title',
      sentences: ['# Title', ...sentences.slice(0, 4), '…', ...sentences.slice(6, 11)],
      claims: [{ sentence: 3 }, { sentence: 10 }, { sentence: 4, claim: 'Sentence 3 is' }],
    })
  })
})

describe('the resolver’s answer', () => {
  it('is read by each claim’s key, else by place when every claim is answered in order', () => {
    const entry = (claim: string, statement: string) => ({
      claim,
      explanation: 'none',
      statement,
      unresolved: null,
      parts: null,
    })
    const keyed = { statements: [entry('claim_2', 'Second.'), entry('claim_1', 'First.')] }
    expect([0, 1].map((i) => resolvedAt(keyed, i, 2)?.statement)).toEqual(['First.', 'Second.'])
    const garbled = { statements: [entry('1', 'First.'), entry('2', 'Second.')] }
    expect([0, 1].map((i) => resolvedAt(garbled, i, 2)?.statement)).toEqual(['First.', 'Second.'])
    // One left out: the garbled one can be placed nowhere (checked as its own words), the keyed one stands.
    const short = { statements: [entry('claim_2', 'Second.'), entry('x', 'Lost.')] }
    expect([0, 1, 2].map((i) => resolvedAt(short, i, 3)?.statement)).toEqual([
      undefined,
      'Second.',
      undefined,
    ])
  })
})

describe('claims checked as self-contained statements', () => {
  it('checks the same bare words in another article as another claim: a new vote on the resolved subject, nothing from the cache', async () => {
    fake = await startFakeOpenAI({
      '*': { answer: historian },
      'model-b': { answer: historian },
      'model-resolver': { resolve: resolveIt },
    })
    server = await startT2Server(t2Config(fake, ['a', 'b']))
    const bare = 'It was completed in 1889.'

    const eiffel = await run(`The Eiffel Tower stands in Paris. ${bare}`)
    const first = claimOf(eiffel, bare)
    expect(first.statement).toBe('The Eiffel Tower was completed in 1889.')
    expect(first.consensus.t2?.verdict).toBe('supported')
    const asked = panelRequests(fake).length

    const brooklyn = await run(`The Brooklyn Bridge spans the East River. ${bare}`)
    const second = claimOf(brooklyn, bare)
    expect(second.statement).toBe('The Brooklyn Bridge was completed in 1889.')
    // Every panel model was asked again, about the bridge, and none of its votes came from the cache.
    expect(second.evaluations.map((e) => e.cached)).toEqual([false, false])
    const votes = panelRequests(fake)
      .slice(asked)
      .filter((r) => voteData(r).asWritten === bare)
    expect(votes.map((r) => r.model).sort()).toEqual(['model-a', 'model-b'])
    for (const request of votes)
      expect(voteData(request).claim).toBe('The Brooklyn Bridge was completed in 1889.')
    expect(second.evaluations.map((e) => e.verdict)).toEqual(['refuted', 'refuted'])
    // The panel agreed, and decided on the statement too.
    expect(second.consensus.t2).toMatchObject({ verdict: 'refuted', decidedBy: 'panel' })
    expect(second.consensus.t2?.reasoning).toContain('The Brooklyn Bridge was completed in 1889.')

    // The same statement in a third article is the same claim: its votes come from the cache.
    const again = await run(`The Eiffel Tower is in Paris. ${bare}`)
    expect(claimOf(again, bare).evaluations.map((e) => e.cached)).toEqual([true, true])
  })

  it('sends the panel and the judge a resolved statement without the sentences around it: the resolver read them', async () => {
    fake = await startFakeOpenAI({
      'model-a': { overrides: { verdict: 'refuted' } },
      'model-resolver': { resolve: resolveIt },
    })
    // A split panel: votes, a debate round and the judge are all asked.
    server = await startT2Server(t2Config(fake, ['a', 'b']))
    const result = await run(
      'The Brooklyn Bridge spans the East River. It was completed in 1889. It is long.',
    )
    expect(claimOf(result, 'It was completed in 1889.').statement).toBe(
      'The Brooklyn Bridge was completed in 1889.',
    )
    const asked = [...panelRequests(fake), ...judged(fake)]
    expect(asked.filter((r) => dataOf(r).otherVotes).length).toBeGreaterThan(0)
    expect(judged(fake).length).toBeGreaterThan(0)
    for (const request of asked) {
      const data = dataOf(request)
      expect(data).not.toHaveProperty('sentenceBefore')
      expect(data).not.toHaveProperty('sentenceAfter')
      expect(request.system).not.toContain('sentences around it')
      // The writer's words beside a statement that changed them, and the rule that says which is judged.
      if (data.claim === 'The Brooklyn Bridge was completed in 1889.') {
        expect(data.asWritten).toBe('It was completed in 1889.')
        expect(request.system).toContain('Judge only "claim"; "asWritten" the writer’s words.')
      } else {
        expect(data).not.toHaveProperty('asWritten')
        expect(request.system).not.toContain('Judge only')
      }
    }
  })

  it('resolves the claims of a check in batches, with today’s date and the document’s context, by the judge unless a resolver is configured', async () => {
    fake = await startFakeOpenAI()
    const config = t2Config(fake, ['a'])
    delete config.models!.resolver
    server = await startT2Server(config)
    const text =
      '# Crates\n\n' +
      Array.from({ length: 11 }, (_, i) => `Crate ${i + 1} weighs ${i + 10} kilograms.`).join(' ')
    const check = await submitT2(server, text)
    expect(check.claimCount).toBe(11)
    expect((await waitForEnd(server, check.id)).status).toBe('completed')

    const resolving = judged(fake).filter((r) => claimsToResolve(r))
    expect(resolving.map((r) => claimsToResolve(r)!.length).sort()).toEqual([3, 8])
    expect(fake.requests.filter((r) => claimsToResolve(r))).toHaveLength(2)
    const claims = resolving.flatMap((r) => claimsToResolve(r)!)
    expect(claims.map((c) => c.claim).sort()).toEqual(
      (await report(server, check.id)).claims.map((c) => c.text).sort(),
    )
    // Up to three sentences before, one after, and the title.
    const fifth = claims.find((c) => c.claim.startsWith('Crate 5 '))!
    expect(fifth).toMatchObject({
      title: 'Crates',
      before: [
        'Crate 2 weighs 11 kilograms.',
        'Crate 3 weighs 12 kilograms.',
        'Crate 4 weighs 13 kilograms.',
      ],
      after: ['Crate 6 weighs 15 kilograms.'],
    })
    // Each sentence goes once into a request, however many of its claims it is context for.
    for (const request of resolving) {
      const sent: string[] = JSON.parse(request.user.split('\n')[2]!).sentences.map((s: any) => s.text)
      expect(new Set(sent).size).toBe(sent.length)
    }
    const today = new Date().toISOString().slice(0, 10)
    for (const request of resolving) expect(request.system).toContain(`Today is ${today}`)
    // The answer is a list: the schema is the same for 3 claims as for 8 (none repeated per claim), and carries
    // no dialect address.
    const [three, eight] = resolving.map((r) => JSON.stringify(r.body.response_format.json_schema.schema))
    expect(three).toBe(eight)
    expect(three).not.toContain('$schema')
    const result = await report(server, check.id)
    expect(result.claims.every((c) => c.statement === c.text && c.parts === null)).toBe(true)
  })

  it('checks a claim as its own words when the resolver refuses the request, and the check completes', async () => {
    fake = await startFakeOpenAI({ 'model-resolver': { alwaysFail: { status: 400 } } })
    server = await startT2Server(t2Config(fake, ['a'], { maxRetries: 0 }))
    const result = await run('The Eiffel Tower stands in Paris. It was completed in 1889.')
    expect(resolverRequests(fake).map((r) => r.outcome)).toEqual([400])
    for (const claim of result.claims) {
      expect(claim.statement).toBe(claim.text)
      // The report says the claim was checked as written, no statement made.
      expect(claim.consensus.t2?.fallbacks).toEqual(['statement_unresolved'])
    }
    expect(
      panelRequests(fake)
        .map((r) => voteData(r).claim)
        .sort(),
    ).toEqual(result.claims.map((c) => c.text).sort())
    // Unresolved, the claim's words come with the sentences around them, and the panel is told what they are.
    const it = panelRequests(fake).find((r) => voteData(r).claim === 'It was completed in 1889.')!
    expect(voteData(it)).toEqual({
      claim: 'It was completed in 1889.',
      sentenceBefore: 'The Eiffel Tower stands in Paris.',
      sentenceAfter: '',
    })
    expect(it.system).toContain('Judge only "claim"; the sentences around it are context.')
  })

  it('tries again later when the resolver fails for now (503): nothing is checked on the bare words meanwhile', async () => {
    fake = await startFakeOpenAI({
      'model-resolver': { failures: [{ status: 503 }, { status: 503 }], resolve: resolveIt },
      'model-a': { answer: historian },
    })
    // No retries within a request: each 503 fails the units waiting for it, and the job runner tries again.
    server = await startT2Server(t2Config(fake, ['a'], { maxRetries: 0 }))
    const result = await run('The Brooklyn Bridge spans the East River. It was completed in 1889.')
    expect(resolverRequests(fake).map((r) => r.outcome)).toEqual([503, 503, 200])
    const claim = claimOf(result, 'It was completed in 1889.')
    expect(claim.statement).toBe('The Brooklyn Bridge was completed in 1889.')
    expect(claim.evaluations.map((vote) => vote.verdict)).toEqual(['refuted'])
    // Every vote asked was on a statement; none on the claim's bare words.
    expect(panelRequests(fake).map((r) => voteData(r).claim)).not.toContain('It was completed in 1889.')
    expect(panelRequests(fake).map((r) => voteData(r).claim)).toContain(
      'The Brooklyn Bridge was completed in 1889.',
    )
  })

  it('an answer that keeps not following the schema: asked once more, then checked as written', async () => {
    // A number where the schema asks for the statement's words.
    fake = await startFakeOpenAI({ 'model-resolver': { resolve: () => ({ statement: 42 as never }) } })
    server = await startT2Server(t2Config(fake, ['a'], { maxRetries: 0 }))
    const result = await run('The Eiffel Tower stands in Paris. It was completed in 1889.')
    expect(resolverRequests(fake)).toHaveLength(2)
    for (const claim of result.claims) expect(claim.statement).toBe(claim.text)
  })

  it('keeps a claim’s statement across a restart: the resumed check does not resolve it again', async () => {
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    fake = await startFakeOpenAI({
      'model-a': { hold: () => held },
      'model-resolver': { resolve: resolveIt },
    })
    server = await startT2Server(t2Config(fake, ['a']))
    const check = await submitT2(server, 'The Eiffel Tower stands in Paris. It was completed in 1889.')
    // Resolved, and both claims' votes asked for; the engine stops before they are answered.
    await expect.poll(() => panelRequests(fake).length).toBe(2)
    const dataDir = server.engine.dataDir
    await server.close()
    release()

    server = await startServer({ config: t2Config(fake, ['a']), dataDir, runner: { retryDelayMs: () => 10 } })
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    expect(resolverRequests(fake)).toHaveLength(1)
    const claim = claimOf(await report(server, check.id), 'It was completed in 1889.')
    expect(claim.statement).toBe('The Eiffel Tower was completed in 1889.')
    const asked = panelRequests(fake).slice(2)
    expect(asked.map((r) => voteData(r).claim)).toContain('The Eiffel Tower was completed in 1889.')
  })

  it('checks each fact of a multi-fact claim and aggregates the verdict, naming the part that fails', async () => {
    const claimText = 'The Brooklyn Bridge opened in 1883 and was designed by Gustave Eiffel.'
    const parts = [
      'The Brooklyn Bridge opened in 1883.',
      'The Brooklyn Bridge was designed by Gustave Eiffel.',
    ]
    const engineer = (request: RecordedRequest) => {
      const judge = (claim: string) => {
        const wrong = /Gustave Eiffel/.test(claim)
        const verdict = wrong ? 'refuted' : 'supported'
        return request.model === 'model-judge'
          ? { reasoning: `Judged “${claim}”.`, correction: null, confidence: 0.8, detail: null, verdict }
          : { rationale: `On “${claim}”.`, confidence: wrong ? 0.7 : 0.9, detail: null, verdict }
      }
      // Several claims in one request: a vote under each one's key.
      const { claim, claims } = dataOf(request)
      if (claims) return Object.fromEntries(claims.map((c: any) => [c.key, judge(c.claim)]))
      return judge(claim)
    }
    fake = await startFakeOpenAI({
      'model-a': { answer: engineer },
      'model-judge': { answer: engineer },
      'model-resolver': {
        resolve: ({ claim }) => ({ statement: claim, parts: claim === claimText ? parts : null }),
      },
    })
    // A panel of one: a single vote is no agreement, so the judge decides each part.
    server = await startT2Server(t2Config(fake, ['a']))
    const text = `The bridge links Manhattan and Brooklyn. ${claimText}`
    const result = await run(text)
    const claim = claimOf(result, claimText)

    // One range in the editor, one verdict: misleading, since one part holds and the other is refuted.
    expect(claim.charStart).toBe(text.indexOf(claimText))
    expect(claim.charEnd).toBe(text.length)
    expect(claim.parts).toEqual([
      { statement: parts[0], consensus: { t2: expect.objectContaining({ verdict: 'supported' }) } },
      { statement: parts[1], consensus: { t2: expect.objectContaining({ verdict: 'refuted' }) } },
    ])
    const consensus = claim.consensus.t2!
    expect(consensus).toMatchObject({ verdict: 'misleading', detail: 'partly_true', decidedBy: 'judge' })
    expect(consensus.reasoning).toMatch(
      /^Part 2 of 2 \(“The Brooklyn Bridge was designed by Gustave Eiffel\.”\) is refuted: Judged/,
    )
    expect(consensus.correction).toBeNull()
    // Each panel model voted on the parts in one request, a vote under each part's key, reasons first; its
    // vote on the claim is the aggregate.
    const onParts = panelRequests(fake).filter((r) => dataOf(r).claims)
    expect(onParts.map((r) => r.model)).toEqual(['model-a'])
    // The writer's words once, beside the parts.
    expect(dataOf(onParts[0]!)).toEqual({
      asWritten: claimText,
      claims: [
        { key: 'claim_1', claim: parts[0] },
        { key: 'claim_2', claim: parts[1] },
      ],
    })
    const schema = onParts[0]!.body.response_format.json_schema.schema
    expect(Object.keys(schema.properties)).toEqual(['claim_1', 'claim_2'])
    const [vote] = Object.values<any>(schema.$defs)
    expect(Object.keys(vote.properties)).toEqual(['rationale', 'confidence', 'detail', 'verdict'])
    // The other claim alone; no vote asked on the multi-fact claim's own words.
    expect(panelRequests(fake)).toHaveLength(2)
    expect(panelRequests(fake).map((r) => dataOf(r).claim)).not.toContain(claimText)
    for (const vote of claim.evaluations) {
      expect(vote).toMatchObject({ verdict: 'misleading', confidence: 0.7 })
      expect(vote.rationale).toContain(
        'Part 2 of 2 (“The Brooklyn Bridge was designed by Gustave Eiffel.”): refuted.',
      )
    }
    // The judge decided each part on that part's votes.
    const judges = judged(fake).filter((r) => parts.includes(voteData(r).claim))
    expect(judges).toHaveLength(2)
    for (const request of judges) {
      const data = JSON.parse(request.user.split('\n')[2]!)
      const expected = /Gustave/.test(data.claim) ? 'refuted' : 'supported'
      expect(data.votes.map((v: { verdict: string }) => v.verdict)).toEqual([expected])
    }
    // A claim of one fact has no parts.
    expect(claimOf(result, 'The bridge links Manhattan and Brooklyn.').parts).toBeNull()
    // The summary counts the claim once, by its aggregate.
    expect(result.summary.verdicts).toEqual({ misleading: 1, supported: 1 })
  })

  it('asks a panelist only about the parts it has no cached vote on', async () => {
    const opened = 'The Brooklyn Bridge opened in 1883.'
    const partsOf: Record<string, string[]> = {
      'The Brooklyn Bridge opened in 1883 and is 1834 metres long.': [
        opened,
        'The Brooklyn Bridge is 1834 metres long.',
      ],
      'The Brooklyn Bridge opened in 1883 and has two towers.': [
        opened,
        'The Brooklyn Bridge has two towers.',
      ],
    }
    fake = await startFakeOpenAI({
      'model-resolver': { resolve: ({ claim }) => ({ statement: claim, parts: partsOf[claim] ?? null }) },
    })
    server = await startT2Server(t2Config(fake, ['a']))
    const [first, second] = Object.keys(partsOf) as [string, string]
    await run(first)
    // The same claim again: both parts' votes come from the cache, and the panelist is not asked.
    const asked = panelRequests(fake).length
    expect(claimOf(await run(first), first).evaluations.map((e) => e.cached)).toEqual([true])
    expect(panelRequests(fake)).toHaveLength(asked)
    // A claim that shares one part: only the other is asked, alone.
    const result = await run(second)
    const [request, ...more] = panelRequests(fake).slice(asked)
    expect(more).toHaveLength(0)
    expect(request!.body.response_format.json_schema.name).toBe('vote')
    expect(dataOf(request!).claim).toBe('The Brooklyn Bridge has two towers.')
    const parts = claimOf(result, second).parts!.map((part) => part.statement)
    expect(parts).toEqual(partsOf[second])
  })
})

describe('statements checked against their claims', () => {
  const EIFFEL = 'The Eiffel Tower stands in Paris. It was completed in 1889.'
  const bare = 'It was completed in 1889.'

  it('rejects a rewrite that says something else, after asking again once, and checks that claim as written with its context', async () => {
    fake = await startFakeOpenAI({
      // The other claim needs nothing and is repeated; this one is answered with an instruction.
      'model-resolver': {
        resolve: ({ claim }) => ({
          statement: claim === bare ? 'Rewrite the claim as one statement.' : claim,
        }),
      },
    })
    server = await startT2Server(t2Config(fake, ['a']))
    const result = await run(EIFFEL)
    // Asked again once, told what was wrong with which claim.
    const [first, again] = resolverRequests(fake)
    expect(resolverRequests(fake)).toHaveLength(2)
    expect(first!.user).not.toContain('could not be used')
    expect(again!.user).toContain('claim_2: it leaves out “1889”')
    expect(again!.user).not.toContain('claim_1:')

    const rejected = claimOf(result, bare)
    expect(rejected.statement).toBe(bare)
    expect(rejected.consensus.t2?.fallbacks).toEqual(['statement_rejected'])
    const asked = panelRequests(fake).map(voteData)
    expect(asked.map((data) => data.claim)).not.toContain('Rewrite the claim as one statement.')
    expect(asked.find((data) => data.claim === bare)).toEqual({
      claim: bare,
      sentenceBefore: 'The Eiffel Tower stands in Paris.',
      sentenceAfter: '',
    })
    // Rejected per claim: the other's statement stands, with no fallback.
    const kept = claimOf(result, 'The Eiffel Tower stands in Paris.')
    expect(kept.consensus.t2?.fallbacks).toEqual([])
    expect(asked.find((data) => data.claim === kept.text)).toEqual({ claim: kept.text })
  })

  it('takes a rewrite mended when asked again: a statement that changed the year is asked for once more', async () => {
    fake = await startFakeOpenAI({
      'model-resolver': {
        resolve: (claim) => {
          const { statement } = resolveIt(claim)
          // The first answer slips on the year, as small models do.
          return {
            statement: resolverRequests(fake).length === 1 ? statement.replace('1889', '1898') : statement,
          }
        },
      },
    })
    server = await startT2Server(t2Config(fake, ['a']))
    const result = await run(EIFFEL)
    expect(resolverRequests(fake)).toHaveLength(2)
    expect(resolverRequests(fake)[1]!.user).toContain('claim_2: it leaves out “1889”')
    const claim = claimOf(result, bare)
    expect(claim.statement).toBe('The Eiffel Tower was completed in 1889.')
    expect(claim.consensus.t2?.fallbacks).toEqual([])
    expect(panelRequests(fake).map((r) => voteData(r).claim)).toContain(
      'The Eiffel Tower was completed in 1889.',
    )
  })

  it('with the resolver refusing every request, checks the same sentence in another article anew: its votes are keyed by its context', async () => {
    fake = await startFakeOpenAI({
      '*': { answer: historian },
      'model-b': { answer: historian },
      'model-resolver': { alwaysFail: { status: 400, message: 'model not loaded' } },
    })
    server = await startT2Server(t2Config(fake, ['a', 'b'], { maxRetries: 0 }))

    const eiffel = claimOf(await run(EIFFEL), bare)
    expect(eiffel.consensus.t2).toMatchObject({ verdict: 'supported', fallbacks: ['statement_unresolved'] })
    const asked = panelRequests(fake).length

    const brooklyn = claimOf(await run(`The Brooklyn Bridge spans the East River. ${bare}`), bare)
    // Both panel models were asked again, with the bridge before the sentence; no vote came from the cache.
    const votes = panelRequests(fake)
      .slice(asked)
      .filter((r) => voteData(r).claim === bare)
    expect(votes.map((r) => r.model).sort()).toEqual(['model-a', 'model-b'])
    for (const request of votes)
      expect(voteData(request).sentenceBefore).toBe('The Brooklyn Bridge spans the East River.')
    expect(brooklyn.evaluations.map((e) => e.cached)).toEqual([false, false])
    expect(brooklyn.consensus.t2).toMatchObject({ verdict: 'refuted', fallbacks: ['statement_unresolved'] })

    // The same sentence after the same sentences is the same claim: its votes come from the cache.
    const again = claimOf(await run(EIFFEL), bare)
    expect(again.evaluations.map((e) => e.cached)).toEqual([true, true])
    expect(again.consensus.t2?.verdict).toBe('supported')
  })

  it('remembers across a restart that the resolver failed on a claim: the resumed check reads it with its context, without asking again', async () => {
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    fake = await startFakeOpenAI({
      'model-a': { hold: () => held },
      'model-resolver': { alwaysFail: { status: 400 } },
    })
    server = await startT2Server(t2Config(fake, ['a'], { maxRetries: 0 }))
    const check = await submitT2(server, EIFFEL)
    await expect.poll(() => panelRequests(fake).length).toBe(2)
    const dataDir = server.engine.dataDir
    await server.close()
    release()

    server = await startServer({
      config: t2Config(fake, ['a'], { maxRetries: 0 }),
      dataDir,
      runner: { retryDelayMs: () => 10 },
    })
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    expect(resolverRequests(fake)).toHaveLength(1)
    const resumed = panelRequests(fake)
      .slice(2)
      .map(voteData)
      .find((data) => data.claim === bare)
    expect(resumed).toEqual({
      claim: bare,
      sentenceBefore: 'The Eiffel Tower stands in Paris.',
      sentenceAfter: '',
    })
    const claim = claimOf(await report(server, check.id), bare)
    expect(claim.consensus.t2?.fallbacks).toEqual(['statement_unresolved'])
  })

  it('tries a resolver that failed for now again after a restart: the claim is checked on its statement, never on its bare words', async () => {
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    fake = await startFakeOpenAI({
      'model-a': { answer: historian },
      'model-resolver': {
        // The first request fails (503); the next is held until the engine has stopped.
        failures: [{ status: 503 }],
        hold: () => (resolverRequests(fake).length > 1 ? held : undefined),
        resolve: resolveIt,
      },
    })
    server = await startT2Server(t2Config(fake, ['a'], { maxRetries: 0 }))
    const text = `The Brooklyn Bridge spans the East River. ${bare}`
    const check = await submitT2(server, text)
    await expect.poll(() => resolverRequests(fake).length).toBe(2)
    const dataDir = server.engine.dataDir
    await server.close()
    release()
    expect(panelRequests(fake)).toHaveLength(0)

    server = await startServer({
      config: t2Config(fake, ['a'], { maxRetries: 0 }),
      dataDir,
      runner: { retryDelayMs: () => 10 },
    })
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    expect(resolverRequests(fake).map((r) => r.outcome)).toEqual([503, 'closed', 200])
    const claim = claimOf(await report(server, check.id), bare)
    expect(claim.statement).toBe('The Brooklyn Bridge was completed in 1889.')
    expect(claim.evaluations.map((vote) => vote.verdict)).toEqual(['refuted'])
    expect(claim.consensus.t2?.fallbacks).toEqual([])
    expect(panelRequests(fake).map((r) => voteData(r).claim)).not.toContain(bare)
  })

  it('does not check a statement still saying “It” with nothing naming it: not checkable, no model asked', async () => {
    fake = await startFakeOpenAI({
      'model-resolver': {
        resolve: ({ claim }) =>
          // The model says what it could not resolve for one claim, not for the first (the code finds that
          // one: it opens the text), and writes "none" for the rest.
          claim.startsWith('The company')
            ? { statement: claim, unresolved: 'The company' }
            : { statement: claim, unresolved: claim === bare ? null : 'none' },
      },
    })
    server = await startT2Server(t2Config(fake, ['a', 'b']))
    const text = `${bare} The company raised its prices by 12% in 2025. Paris is the capital of France.`
    const result = await run(text)
    // Nothing before the text's first sentence could say what "It" is: the model is not asked again.
    expect(resolverRequests(fake)).toHaveLength(1)

    const unclear = claimOf(result, bare)
    expect(unclear.statement).toBe(bare)
    expect(unclear.evaluations).toEqual([])
    expect(unclear.consensus.t2).toMatchObject({
      verdict: 'unverifiable',
      detail: 'not_checkable',
      decidedBy: null,
      fallbacks: [],
    })
    expect(unclear.consensus.t2?.reasoning).toContain(
      '“It” in “It was completed in 1889.” refers to something',
    )
    const company = claimOf(result, 'The company raised its prices by 12% in 2025.')
    expect(company.evaluations).toEqual([])
    expect(company.consensus.t2).toMatchObject({ verdict: 'unverifiable', detail: 'not_checkable' })
    // No panel model or judge was asked about either; the claim the model said "none" for was checked.
    const asked = [...panelRequests(fake), ...judged(fake)].map((r) => dataOf(r).claim)
    expect(asked).not.toContain(bare)
    expect(asked).not.toContain(company.text)
    expect(asked).toContain('Paris is the capital of France.')
    expect(claimOf(result, 'Paris is the capital of France.').evaluations).toHaveLength(2)
    expect(result.summary.verdicts).toMatchObject({ unverifiable: 2 })
  })

  it('asks again about a pronoun the document names but the statement kept, then checks the claim as written with its context', async () => {
    // The resolver repeats every claim as written, "It" included.
    fake = await startFakeOpenAI()
    server = await startT2Server(t2Config(fake, ['a']))
    const result = await run(EIFFEL)
    expect(resolverRequests(fake)).toHaveLength(2)
    expect(resolverRequests(fake)[1]!.user).toContain('claim_2: the statement still says “It”')
    const claim = claimOf(result, bare)
    expect(claim.consensus.t2).toMatchObject({ detail: null, fallbacks: ['statement_unresolved'] })
    expect(claim.evaluations).toHaveLength(1)
    expect(panelRequests(fake).map(voteData)).toContainEqual({
      claim: bare,
      sentenceBefore: 'The Eiffel Tower stands in Paris.',
      sentenceAfter: '',
    })
  })
})

// `npm run eval -- <set> --file PATH --json` on tiny files: one line of JSON with the set's headline members
// (shares in [0, 1]), the shipped model's figures on the file, with the trivial baselines beside them; a file
// of the wrong shape refused; verification without models says so and exits 0, and against the fake OpenAI server
// (and a fake wiki for t3) measures a panel whose answers follow a rule, so the figures are known.
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkWorthiness, CHECKWORTHY_THRESHOLD, documentRegister } from '../../src/main/engine/claims'
import { loadCalibration } from '../../src/main/engine/tiers/calibration'
import { relevanceScores } from '../../src/main/engine/web/rank'
import { dataSet, readDataFile } from '../../eval/lines'
import { measure } from '../../eval/training/checkworthiness'
import { measureRanking, readGroups } from '../../eval/training/evidence'
import { DATA_CLOSE, DATA_OPEN } from '../../src/main/engine/tiers/t2/prompts'
import {
  fromSchema,
  requestData,
  startFakeOpenAI,
  type FakeOpenAI,
  type RecordedRequest,
} from '../helpers/fakeOpenAI'
import { FakeWiki } from '../helpers/fakeWiki'

const run = promisify(execFile)
const EVAL = join(import.meta.dirname, '../../eval/index.ts')
const dir = mkdtempSync(join(tmpdir(), 'factdesk-eval-test-'))
const results = join(dir, 'results')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/// Runs `npm run eval -- ARGS` (through tsx, results written to a temporary folder).
async function evaluate(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', EVAL, ...args], {
      timeout: 120_000,
      env: { ...process.env, FACTDESK_RESULTS_DIR: results },
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

/// The `--json` line: exactly one line, whose headline members are `members`, each a number in [0, 1] unless
/// named in `counts`.
async function jsonOf(
  args: string[],
  members: string[],
  counts: string[] = [],
): Promise<Record<string, any>> {
  const { code, stdout, stderr } = await evaluate([...args, '--json'])
  expect(code, stderr).toBe(0)
  const lines = stdout.trim().split('\n')
  expect(lines).toHaveLength(1)
  const result = JSON.parse(lines[0] ?? '') as Record<string, any>
  expect(Object.keys(result).slice(0, members.length)).toEqual(members)
  for (const member of members) {
    expect(typeof result[member]).toBe('number')
    if (!counts.includes(member)) expect(result[member]).toBeGreaterThanOrEqual(0)
    if (!counts.includes(member)) expect(result[member]).toBeLessThanOrEqual(1)
  }
  expect(JSON.parse(readFileSync(join(results, `eval-${result.set}.json`), 'utf8'))).toEqual(result)
  return result
}

const file = (name: string, lines: unknown[]): string => {
  const path = join(dir, name)
  writeFileSync(
    path,
    lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n'),
  )
  return path
}

describe('npm run eval -- <set> --json', () => {
  it('checkworthiness: the shipped model on the file is the headline, the trivial baselines beside it', async () => {
    const sentences = [
      { text: 'The bridge was opened in 1889 and carried 1,200 trains a week.', checkworthy: true },
      { text: 'Unemployment fell to 3.5 percent last year.', checkworthy: true },
      { text: 'What do you think about that?', checkworthy: false },
      { text: 'Thank you all for coming tonight.', checkworthy: false },
      { text: 'I am so glad to be here with you.', checkworthy: false },
    ]
    const path = file('checkworthiness.jsonl', sentences)
    const result = await jsonOf(['checkworthiness', '--file', path], ['precision', 'recall', 'f1'])
    // The shipped model's own scores, as the engine gives them, make the headline.
    const register = documentRegister(sentences.map((row) => row.text))
    const shipped = measure(
      sentences.map((row) => checkWorthiness(row.text, register)),
      sentences.map((row) => row.checkworthy),
      CHECKWORTHY_THRESHOLD,
    )
    expect(result.headlineRow).toBe('checkworthiness.jsonl: shipped model')
    expect(result.f1).toBe(Math.round(shipped.f1 * 1000) / 1000)
    expect(result.table['checkworthiness.jsonl: shipped model']).toMatchObject({
      sentences: 5,
      precision: result.precision,
      recall: result.recall,
      f1: result.f1,
    })
    // Every sentence check-worthy: every claim found, two of five right; the majority (not) finds none.
    expect(result.table['checkworthiness.jsonl: baseline, every sentence check-worthy']).toMatchObject({
      precision: 0.4,
      recall: 1,
      accuracy: 0.4,
    })
    expect(
      result.table['checkworthiness.jsonl: baseline, the majority label (not) for every sentence'],
    ).toMatchObject({ recall: 0, accuracy: 0.6 })
    expect(result.table).toHaveProperty([
      'checkworthiness.jsonl: baseline, plain bag of words trained on ClaimBuster',
    ])
  }, 120_000)

  it('spelling: t1 as shipped is the headline, its ranking retrained by 5-fold CV and Harper alone beside it', async () => {
    const path = file('spelling.jsonl', [
      { wrong: 'speling', right: 'spelling' },
      { wrong: 'recieve', right: 'receive' },
    ])
    const result = await jsonOf(['spelling', '--file', path], ['flagged', 'firstSuggestionRight'])
    expect(result.headlineRow).toBe('t1 as shipped')
    expect(result.flagged).toBe(1)
    expect(result.table['t1 as shipped']).toMatchObject({ pairs: 2, flagged: 1 })
    // Two pairs: each is ranked by the slips counted in the other.
    expect(result.table['t1, ranking retrained by 5-fold CV (not the shipped model)']).toMatchObject({
      pairs: 2,
      firstSuggestionRight: expect.any(Number),
    })
    expect(result.table['baseline: Harper alone']).toMatchObject({ pairs: 2, flagged: 1 })
  }, 120_000)

  it('grammar: precision and recall of flagged spans against the M2 edits', async () => {
    const path = file('tiny.m2', [
      'S He go to school every day .',
      'A 1 2|||R:VERB:SVA|||goes|||REQUIRED|||-NONE-|||0',
      '',
      'S This is a sentence with a a repeated word .',
      'A 5 6|||U:DET|||||||REQUIRED|||-NONE-|||0',
      '',
    ])
    const result = await jsonOf(['grammar', '--file', path], ['precision', 'recall'])
    expect(result.table.sentences).toBe(2)
  }, 120_000)

  it('evidence: precision@1, nDCG@3 and the irrelevant share of the top 3', async () => {
    const claims = ['The Eiffel Tower is in Paris.', 'Water boils at 100 degrees Celsius at sea level.']
    const rows = Array.from({ length: 5 }, (_, n) =>
      claims.map((claim, c) => [
        {
          claim: `${claim} (${n})`,
          evidence: `${claim} This is well documented.`,
          stance: 'completely-support',
        },
        {
          claim: `${claim} (${n})`,
          evidence: `A passage on something else entirely, ${c}.`,
          stance: 'irrelevant',
        },
        {
          claim: `${claim} (${n})`,
          evidence: `Another unrelated passage about gardens, ${c}.`,
          stance: 'irrelevant',
        },
      ]),
    ).flat(2)
    const result = await jsonOf(
      ['evidence', '--file', file('evidence.jsonl', rows)],
      ['precisionAt1', 'ndcgAt3', 'irrelevantTop3'],
    )
    // The shipped ranking's own scores make the headline, plain BM25 beside them; retrained rows say so.
    const groups = readGroups(join(dir, 'evidence.jsonl'))
    const shipped = measureRanking(groups, (group) => relevanceScores(group.claim, group.passages))
    expect(result.headlineRow).toBe('shipped model')
    expect(result.precisionAt1).toBe(Math.round(shipped['precision@1'] * 1000) / 1000)
    expect(result.table['shipped model']['precision@1']).toBe(result.precisionAt1)
    expect(result.table).toHaveProperty(['baseline: plain BM25'])
    expect(result.table).toHaveProperty([
      'retrained by 5-fold CV grouped by claim on this file + CLIMATE-FEVER (not the shipped model)',
    ])
    expect(result.table).toHaveProperty(['climate-fever.jsonl: baseline, plain BM25'])
    expect(result.table['best possible']['precision@1']).toBe(1)
  }, 120_000)
})

describe('npm run eval -- <set> --file in the wrong format', () => {
  // Each set given a file whose second line is of another set's shape (the raw Factcheck-Bench file's, for
  // check-worthiness): refused with exit 2, the line and the shape expected, and nothing measured.
  const cases: Array<[string, unknown[], string]> = [
    [
      'checkworthiness',
      [
        { text: 'Taxes rose.', checkworthy: true },
        { sentence: 'Taxes rose.', label: 'checkworthy' },
      ],
      '{"text": a sentence, "checkworthy": true or false}',
    ],
    ['spelling', [{ wrong: 'speling', right: 'spelling' }, 'speling spelling'], '{"wrong": a misspelt word'],
    [
      'evidence',
      [
        { claim: 'c', evidence: 'e', stance: 'refute' },
        { claim: 'c', evidence: 'e', stance: 'SUPPORTS' },
      ],
      '"stance": one of irrelevant, completely-support, partially-support, refute',
    ],
    ['grammar', ['S He go .', '{"wrong": "go"}'], 'expected M2'],
  ]
  it.each(cases)(
    '%s refuses it, naming the line and the shape expected',
    async (set, lines, expected) => {
      const path = file(`wrong-${set}.txt`, lines)
      const { code, stdout, stderr } = await evaluate([set, '--file', path, '--json'])
      expect(code).toBe(2)
      expect(stdout).toBe('')
      expect(stderr).toContain(`${path}:2: `)
      expect(stderr).toContain(expected)
    },
    120_000,
  )

  it('a file that is not there is refused, naming it; a missing data set says where the data sets are', async () => {
    const missing = join(tmpdir(), 'factdesk-no-such-set.jsonl')
    const { code, stdout, stderr } = await evaluate(['checkworthiness', '--file', missing, '--json'])
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toBe(`checkworthiness: ${missing}: cannot be read: no such file. Nothing was measured.\n`)
    expect(() => readDataFile(dataSet('evidence', 'gone.jsonl'))).toThrow(
      /gone\.jsonl: cannot be read: no such file\. The evaluation data sets are read from .*shared\/data, a folder named shared\/data beside the repository\./,
    )
  }, 120_000)

  it('an empty file is refused too', async () => {
    const { code, stderr } = await evaluate(['spelling', '--file', file('empty.jsonl', ['']), '--json'])
    expect(code).toBe(2)
    expect(stderr).toContain('the file has none')
  }, 120_000)
})

describe('npm run eval -- evidence --config', () => {
  let fake: FakeOpenAI
  afterAll(() => fake?.close())

  it('measures t3’s order: the passages the judge chooses first, then the shipped ranking', async () => {
    // Each claim's relevant passage shares few of its words; a decoy shares many.
    const rows = Array.from({ length: 10 }, (_, n) => [
      {
        claim: `The Eiffel Tower is in Paris (${n}).`,
        evidence: `Gustave Eiffel's iron lattice stands on the Champ de Mars in the French capital.`,
        stance: 'completely-support',
      },
      {
        claim: `The Eiffel Tower is in Paris (${n}).`,
        evidence: `The Eiffel Tower of Paris, Texas is a smaller tower in Paris (${n}), not the Eiffel Tower.`,
        stance: 'irrelevant',
      },
      {
        claim: `The Eiffel Tower is in Paris (${n}).`,
        evidence: `A passage about gardens (${n}).`,
        stance: 'irrelevant',
      },
    ]).flat()
    // The judge names the passage on the Champ de Mars.
    fake = await startFakeOpenAI({
      j: {
        answer: (request) => {
          const start = request.user.indexOf(`${DATA_OPEN}\n`) + DATA_OPEN.length + 1
          const { passages } = JSON.parse(
            request.user.slice(start, request.user.lastIndexOf(`\n${DATA_CLOSE}`)),
          ) as { passages: Array<{ id: string; text: string }> }
          return { passages: passages.filter((p) => p.text.includes('Champ de Mars')).map((p) => p.id) }
        },
      },
    })
    const model = { id: 'j', provider: 'openai-compatible', baseURL: fake.baseURL, model: 'j' }
    const config = join(dir, 'judge.json')
    writeFileSync(config, JSON.stringify({ models: { panel: [model], judge: model } }))
    const result = await jsonOf(
      ['evidence', '--config', config, '--file', file('decoys.jsonl', rows)],
      ['precisionAt1', 'ndcgAt3', 'irrelevantTop3'],
    )
    expect(result.headlineRow).toBe('shipped model')
    expect(result.table['chosen by the judge, then the shipped model']['precision@1']).toBe(1)
    expect(result.table['baseline: plain BM25']['precision@1']).toBe(0)
    expect(result.table['judge tokens per claim']['precision@1']).toBeGreaterThan(0)
    expect(fake.requests).toHaveLength(10)
  }, 120_000)
})

describe('npm run eval -- verification', () => {
  let fake: FakeOpenAI
  let wiki: FakeWiki
  const QUOTE = 'The city has many old museums and a famous river.'

  beforeAll(async () => {
    wiki = await new FakeWiki().start()
    const article = wiki.article('Cities', [`${QUOTE} Its people have written about it for centuries.`])
    wiki.search = () => [{ title: 'Cities', snippet: 'museums', url: article }]
    // Every model answers by a rule: a claim that mentions Paris is supported, any other is refuted.
    fake = await startFakeOpenAI({
      '*': {
        answer: (request) => {
          const schema = request.body.response_format.json_schema.schema
          const verdict = /Paris/.test(request.user) ? 'supported' : 'refuted'
          // t3 writes its first query, then asks for one more search, then reads the first result; its votes
          // cite the fake wiki's article (the first passage), verbatim, and the verifier finds the quote bears the
          // verdict out.
          const stance = verdict === 'supported' ? 'supports' : 'refutes'
          const overrides = {
            verdict,
            citations: [{ passage: 'P1', quote: QUOTE }],
            read: ['R1'],
            nextQuery: /"queries":\[\]/.test(request.user) ? 'museums of Paris' : 'old museums',
            stance,
          }
          return fromSchema(schema, schema, overrides, '')
        },
      },
    })
  })
  afterAll(() => Promise.all([fake.close(), wiki.close()]))

  it('without a configured model says so and exits 0', async () => {
    const { code, stdout, stderr } = await evaluate(['verification', '--json'])
    expect(code).toBe(0)
    expect(stdout).toBe('')
    expect(stderr).toContain('verification needs a panel and a judge')
  }, 120_000)

  /// A config file of a panel of two models and a judge on the fake (each at `price`, if given), and `more`
  /// members.
  const configFile = (name: string, more: object = {}, price?: object): string => {
    const model = (id: string) => ({
      id,
      provider: 'openai-compatible',
      baseURL: fake.baseURL,
      model: id,
      ...(price && { price }),
    })
    const path = join(dir, name)
    writeFileSync(
      path,
      JSON.stringify({ models: { panel: [model('a'), model('b')], judge: model('j') }, ...more }),
    )
    return path
  }
  const claims = () =>
    file('claims.jsonl', [
      { claim: 'Paris is the capital of France.', label: 'true' },
      { claim: 'The Louvre is in Paris.', label: 'true' },
      { claim: 'Berlin is the capital of Italy.', label: 'false' },
      { claim: 'Rome is the capital of Italy.', label: 'true' },
    ])

  it('measures the configured panel against the labels, with and without the evidence as context', async () => {
    const config = configFile('config.json')
    fake.requests.length = 0
    const result = await jsonOf(
      ['verification', '--config', config, '--file', claims()],
      ['accuracy', 'macroF1', 'tokensPerClaim'],
      ['tokensPerClaim'],
    )
    // Right on three of four; F1 of supported 0.8 (2 of 3 found, none wrong), of refuted 2/3 (1 of 2 right).
    expect(result.accuracy).toBe(0.75)
    expect(result.macroF1).toBe(0.733)
    expect(result.tokensPerClaim).toBeGreaterThan(0)
    // Each step of t2 switched off in turn, each row with its own requests (no vote cached by another row):
    // the four claims are one document, resolved in one request (but without that step), the panel always
    // agrees, so two votes per claim, and a judge too without the panel deciding. No web without a configured
    // search, and no row without t3's steps.
    expect(Object.keys(result.table)).toEqual([
      'claims.jsonl: t2',
      'claims.jsonl: t2 without statement',
      'claims.jsonl: t2 without date',
      'claims.jsonl: t2 without panelDecides',
      'claims.jsonl: t2 without debate',
      'claims.jsonl: t2 without reasoningFirst',
    ])
    expect(result.table['claims.jsonl: t2'].requestsPerClaim).toBe(2.25)
    expect(result.table['claims.jsonl: t2 without statement'].requestsPerClaim).toBe(2)
    expect(result.table['claims.jsonl: t2 without panelDecides'].requestsPerClaim).toBe(3.25)
    expect(fake.requests).toHaveLength(9 + 8 + 9 + 13 + 9 + 9)
    // Only the row without the statement step asked no resolver, which read the claims as one document; only
    // the row without the date sent verdict prompts without it.
    const resolving = fake.requests.filter((r) => r.body.response_format.json_schema.name === 'statements')
    expect(resolving).toHaveLength(5)
    expect(requestData(resolving[0] as RecordedRequest).sentences).toHaveLength(4)
    expect(fake.requests.filter((r) => !r.system.includes('Today is'))).toHaveLength(8)
    // Without reasoning first, the votes' schema asks for the verdict before the reasons.
    const members = (r: RecordedRequest) => Object.keys(r.body.response_format.json_schema.schema.properties)
    const votes = fake.requests.filter((r) => r.body.response_format.json_schema.name === 'vote')
    expect(votes.filter((r) => members(r)[0] === 'rationale')).toHaveLength(5 * 8)
    expect(votes.filter((r) => members(r).join() === 'confidence,detail,verdict,rationale')).toHaveLength(8)
    // No prices in the config, no cost column.
    expect(result.table['claims.jsonl: t2']).not.toHaveProperty('costPerClaim')

    // Climate-FEVER's evidence sentences reach the panel as context: this claim is supported only with them.
    const climate = file('climate.jsonl', [
      {
        claim: 'The tower stands in the capital of France.',
        claim_label: 'SUPPORTS',
        evidences: [{ evidence: 'The tower is in Paris.' }],
      },
    ])
    const withEvidence = await jsonOf(
      ['verification', '--config', config, '--file', climate],
      ['accuracy', 'macroF1', 'tokensPerClaim'],
      ['tokensPerClaim'],
    )
    expect(withEvidence.accuracy).toBe(0)
    expect(withEvidence.table['climate.jsonl: t2 with evidence'].accuracy).toBe(1)
  }, 120_000)
  it('switches a step off in every row with its flag, and fits the calibration of the confidence', async () => {
    const config = configFile('config-calibrate.json')
    fake.requests.length = 0
    const result = await jsonOf(
      ['verification', '--config', config, '--file', claims(), '--no-panel-decides', '--calibrate'],
      ['accuracy', 'macroF1', 'tokensPerClaim'],
      ['tokensPerClaim'],
    )
    expect(Object.keys(result.table)).toEqual([
      'claims.jsonl: t2',
      'claims.jsonl: t2 without statement',
      'claims.jsonl: t2 without date',
      'claims.jsonl: t2 without debate',
      'claims.jsonl: t2 without reasoningFirst',
    ])
    expect(result.table['claims.jsonl: t2'].requestsPerClaim).toBe(3.25)
    // The judge gave every verdict the same confidence and was right on three of four; the engine can read
    // the map.
    const map = JSON.parse(readFileSync(`${config}.calibration.json`, 'utf8'))
    expect(map).toEqual({ t2: [{ confidence: 0.8, probability: 0.75, claims: 4 }], t3: null })
    expect(loadCalibration(config)).toEqual({ map, warning: null })
  }, 120_000)

  it('--no-statement checks every row on the claims’ bare words, no resolver asked', async () => {
    const config = configFile('config-no-statement.json')
    fake.requests.length = 0
    const result = await jsonOf(
      ['verification', '--config', config, '--file', claims(), '--no-statement'],
      ['accuracy', 'macroF1', 'tokensPerClaim'],
      ['tokensPerClaim'],
    )
    expect(Object.keys(result.table)).toEqual([
      'claims.jsonl: t2',
      'claims.jsonl: t2 without date',
      'claims.jsonl: t2 without panelDecides',
      'claims.jsonl: t2 without debate',
      'claims.jsonl: t2 without reasoningFirst',
    ])
    expect(result.table['claims.jsonl: t2'].requestsPerClaim).toBe(2)
    expect(fake.requests.filter((r) => r.body.response_format.json_schema.name === 'statements')).toEqual([])
  }, 120_000)

  it('with a search provider in the config, measures t3 too, every request counted and priced', async () => {
    // Every model at $1000 per million tokens in and out: a claim costs a thousandth of a dollar per token.
    const config = configFile(
      'config-t3.json',
      { search: { baseURL: wiki.apiUrl }, web: { allowLocalTargets: true } },
      { inputPerMTok: 1000, outputPerMTok: 1000 },
    )
    fake.requests.length = 0
    const result = await jsonOf(
      ['verification', '--config', config, '--file', claims()],
      ['accuracy', 'macroF1', 'tokensPerClaim'],
      ['tokensPerClaim'],
    )
    // The article never names Paris, so t3's answers follow the same rule, with a verified citation each.
    expect(result.table['claims.jsonl: t3']).toMatchObject({
      claims: 4,
      failed: 0,
      accuracy: 0.75,
      macroF1: 0.733,
    })
    expect(result.table['claims.jsonl: t3'].tokensPerClaim).toBeGreaterThan(
      result.table['claims.jsonl: t2'].tokensPerClaim,
    )
    expect(wiki.requests.some((path) => path.startsWith('/w/api.php'))).toBe(true)
    // t3's own steps are switched off in its rows only.
    expect(Object.keys(result.table).filter((row) => row.includes(': t3'))).toEqual([
      'claims.jsonl: t3',
      'claims.jsonl: t3 without statement',
      'claims.jsonl: t3 without date',
      'claims.jsonl: t3 without panelDecides',
      'claims.jsonl: t3 without debate',
      'claims.jsonl: t3 without reasoningFirst',
      'claims.jsonl: t3 without searchLoop',
      'claims.jsonl: t3 without stanceCheck',
    ])
    // Per claim: a quarter of the document's resolver request, three search steps (the first query, one more
    // search, the results to read), two votes and the stance check of the agreeing panel's quotes (the article
    // is one passage: no evidence to choose). A single search saves one step, no stance check its request.
    expect(result.table['claims.jsonl: t3'].requestsPerClaim).toBe(6.25)
    expect(result.table['claims.jsonl: t3 without searchLoop'].requestsPerClaim).toBe(5.25)
    expect(result.table['claims.jsonl: t3 without stanceCheck'].requestsPerClaim).toBe(5.25)
    // Every request the fake answered is counted in some row.
    const rows = Object.values(result.table) as Array<{ claims: number; requestsPerClaim: number }>
    const counted = rows.reduce((sum, row) => sum + row.requestsPerClaim * row.claims, 0)
    expect(counted).toBeCloseTo(fake.requests.length, 6)
    // The cost of every row's tokens at the models' price.
    for (const row of ['claims.jsonl: t2', 'claims.jsonl: t3'])
      expect(result.table[row].costPerClaim).toBeCloseTo(result.table[row].tokensPerClaim / 1000, 2)
  }, 120_000)
})

// Every method of every store module, run on each store on one walk through the life of checks, estimates,
// research, drafts and pending checks, noting what each answers: PostgreSQL must answer exactly what SQLite does,
// and a method the walk leaves out fails the test (add it to the walk).
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Citation, Consensus, Evaluation } from '../../../../src/shared/schemas'
import { Checks, type CheckRecord } from '../../../../src/main/engine/store/checks'
import { Documents, type ClaimRecord } from '../../../../src/main/engine/store/documents'
import { Drafts } from '../../../../src/main/engine/store/drafts'
import { IdempotencyKeys } from '../../../../src/main/engine/store/idempotency'
import { Ledger } from '../../../../src/main/engine/store/ledger'
import { Organizations } from '../../../../src/main/engine/store/organizations'
import { Outbox } from '../../../../src/main/engine/store/outbox'
import { PendingChecks } from '../../../../src/main/engine/store/pendingChecks'
import { RecentRequests } from '../../../../src/main/engine/store/recentRequests'
import { ResearchRuns } from '../../../../src/main/engine/store/research'
import { Results } from '../../../../src/main/engine/store/results'
import { SettingsStore } from '../../../../src/main/engine/store/settings'
import { Tokens } from '../../../../src/main/engine/store/tokens'
import { Units } from '../../../../src/main/engine/store/units'
import { VoteCache } from '../../../../src/main/engine/store/voteCache'
import { WebhookSecrets } from '../../../../src/main/engine/store/webhookSecrets'
import { openEngine } from '../../../../src/main/engine/engine'
import type { Store } from '../../../../src/main/engine/store'
import type { Notifications } from '../../../../src/main/engine/store/database'
import { describeStores, type StorePlace } from '../../../helpers/stores'

/// Whether a listener heard what it was told (waiting up to 5 s), then stops it; true on SQLite, where nobody listens.
async function heardOnce(listening: Notifications | null, heard: readonly string[]): Promise<boolean> {
  if (!listening) return true
  for (let waited = 0; heard.length === 0 && waited < 5_000; waited += 10) await sleep(10)
  await listening.close()
  return heard.length > 0
}

const MODULES = {
  Organizations,
  Tokens,
  Ledger,
  WebhookSecrets,
  Documents,
  Checks,
  Units,
  Results,
  IdempotencyKeys,
  Outbox,
  VoteCache,
  ResearchRuns,
  SettingsStore,
  Drafts,
  PendingChecks,
  RecentRequests,
}

/// The methods called during the walk under way, as `Module.method` (private ones too: each holds SQL).
let called = new Set<string>()
const originals: [object, string, unknown][] = []
beforeAll(() => {
  for (const [name, module] of Object.entries(MODULES)) {
    const prototype = module.prototype as unknown as Record<string, unknown>
    for (const method of Object.getOwnPropertyNames(prototype)) {
      const original = prototype[method]
      if (method === 'constructor' || typeof original !== 'function') continue
      originals.push([prototype, method, original])
      prototype[method] = function (this: unknown, ...args: unknown[]) {
        called.add(`${name}.${method}`)
        return (original as (...args: unknown[]) => unknown).apply(this, args)
      }
    }
  }
})
afterAll(() => {
  for (const [prototype, method, original] of originals)
    (prototype as Record<string, unknown>)[method] = original
})

const every = (): string[] =>
  Object.entries(MODULES).flatMap(([name, module]) =>
    Object.getOwnPropertyNames(module.prototype)
      .filter((method) => method !== 'constructor')
      .map((method) => `${name}.${method}`),
  )

/// Seconds after the walk's start, as a stored timestamp.
const t = (seconds: number): string => new Date(Date.UTC(2026, 0, 1) + seconds * 1000).toISOString()

const TEXT =
  'The Eiffel Tower is 330 metres tall. Paris is the capital of France. Water boils at 100 degrees.'

const claimsOf = (documentId: string, text: string, prefix: string): ClaimRecord[] => {
  let at = 0
  return text.split(/(?<=\.) /).map((sentence, index) => {
    const claim = {
      id: `${prefix}_${index + 1}`,
      documentId,
      text: sentence,
      charStart: at,
      charEnd: at + sentence.length,
      statement: null,
      parts: null,
      statementState: null,
    }
    at += sentence.length + 1
    return claim
  })
}

const citation: Citation = {
  url: 'https://example.org/tower',
  title: 'The tower',
  quote: 'It is 330 metres tall.',
  retrievedAt: t(0),
  publishedAt: null,
  stance: null,
  preferred: false,
}

const vote = (model: string, round: 1 | 2, at: number): Evaluation => ({
  tier: 't2',
  model,
  verdict: model === 'panel-b' ? 'refuted' : 'supported',
  confidence: 0.75,
  rationale: `${model} says so.`,
  citations: [citation],
  createdAt: t(at),
  cached: false,
  usage: { inputTokens: 100, outputTokens: 20 },
  detail: null,
  round,
})

const consensus = (verdict: Consensus['verdict'], at: number): Consensus => ({
  verdict,
  confidence: 0.7,
  agreement: 0.5,
  reasoning: 'Weighed.',
  citations: verdict === 'clean' ? [] : [{ ...citation, stance: 'supports' }],
  correction: null,
  decidedAt: t(at),
  detail: null,
  sourced: false,
  sources: 1,
  decidedBy: verdict === 'clean' ? null : 'judge',
  calibratedConfidence: verdict === 'clean' ? null : 0.66,
  fallbacks: verdict === 'clean' ? [] : ['judge_unusable'],
})

const check = (id: string, documentId: string, extra: Partial<CheckRecord> = {}): CheckRecord => ({
  id,
  organizationId: 'org_a',
  documentId,
  status: 'queued',
  name: 'First',
  author: null,
  sourceUrl: 'https://example.org/a',
  callbackUrl: 'https://hooks.example.org/x',
  tiers: ['t1', 't2'],
  unitPrices: { t1: 1, t2: 4 },
  claimCount: 3,
  credits: { charged: 15, refunded: 0 },
  createdAt: t(10),
  updatedAt: t(10),
  completedAt: null,
  error: null,
  sourcePolicy: null,
  ...extra,
})

/// The walk: what each call answered, by name, in order.
async function walk(store: Store, place: StorePlace): Promise<[string, unknown][]> {
  const noted: [string, unknown][] = []
  const note = (what: string, value: unknown): void => void noted.push([what, value])
  const raw = async (sql: string, ...params: unknown[]): Promise<void> => {
    const db = await place.raw()
    try {
      await db.root.prepare(sql).run(...params)
    } finally {
      await db.close()
    }
  }
  const locked = <T>(work: (tx: Store) => Promise<T>): Promise<T> =>
    store.transaction(work, { lockOrg: 'org_a' })

  // Organizations and tokens.
  await store.organizations.insert({ id: 'org_a', name: 'Desk A', createdAt: t(0) }, true)
  await store.organizations.insert({ id: 'org_b', name: 'Desk B', createdAt: t(0) }, false)
  note('organization', await store.organizations.get('org_a'))
  note('no organization', await store.organizations.get('org_x'))
  note('default organization', await store.organizations.getDefault())
  await store.tokens.insert(
    {
      id: 'tok_1',
      organizationId: 'org_a',
      name: 'writer',
      scope: 'write',
      createdAt: t(1),
      sessionExpiresAt: null,
    },
    'hash-1',
  )
  await store.tokens.insert(
    {
      id: 'tok_2',
      organizationId: 'org_a',
      name: 'browser session',
      scope: 'write',
      createdAt: t(2),
      sessionExpiresAt: t(10),
    },
    'hash-2',
  )
  await store.tokens.insert(
    {
      id: 'tok_3',
      organizationId: 'org_b',
      name: null,
      scope: 'read',
      createdAt: t(3),
      sessionExpiresAt: null,
    },
    'hash-3',
  )
  note('token by hash', await store.tokens.findByHash('hash-1'))
  note('token', await store.tokens.get('tok_3'))
  await store.tokens.revokeEndedSessions(t(11))
  note('revoked', await store.tokens.revoke('tok_3', t(12)))
  note('revoked again', await store.tokens.revoke('tok_3', t(13)))
  note('tokens', await store.tokens.list())
  note("organization's tokens", await store.tokens.list('org_a'))

  // The ledger.
  await locked(async (tx) => {
    await tx.ledger.record('org_a', 'grant', 100, null, t(1))
    await tx.ledger.record('org_a', 'charge', 30, 'chk_1', t(2))
    await tx.ledger.record('org_a', 'refund', 5, 'chk_1', t(3))
    await tx.ledger.record('org_a', 'refund', 0, 'chk_0', t(3))
  })
  note('balance', await store.ledger.balance('org_a'))
  note('no balance', await store.ledger.balance('org_b'))
  note('totals', await store.ledger.totals('org_a'))

  // Webhook secrets, two of an older version's stored as they were (one looks sealed, in capitals).
  await store.webhookSecrets.insert('org_a', {
    id: 'whs_1',
    secret: 'whsec_first',
    createdAt: t(1),
    expiresAt: null,
  })
  await store.webhookSecrets.retireCurrent('org_a', t(100))
  await store.webhookSecrets.insert('org_a', {
    id: 'whs_2',
    secret: 'whsec_second',
    createdAt: t(2),
    expiresAt: null,
  })
  await raw(
    'INSERT INTO webhook_secrets (id, organization_id, secret, created_at) VALUES (?, ?, ?, ?), (?, ?, ?, ?)',
    ...['whs_3', 'org_b', 'whsec_plain', t(3)],
    ...['whs_4', 'org_b', 'SEALED:whsec_capitals', t(4)],
  )
  note('sealed', await store.transaction((tx) => tx.webhookSecrets.sealPlaintext()))
  note('sealed again', await store.transaction((tx) => tx.webhookSecrets.sealPlaintext()))
  note('valid secrets', await store.webhookSecrets.valid('org_a', t(50)))
  note('valid secrets later', await store.webhookSecrets.valid('org_a', t(200)))
  note("another's secrets", await store.webhookSecrets.valid('org_b', t(50)))

  // A document and its claims, resolved.
  const claims = claimsOf('doc_1', TEXT, 'clm')
  await store.documents.insert(
    {
      id: 'doc_1',
      organizationId: 'org_a',
      text: TEXT,
      tiers: ['t1', 't2'],
      unitPrices: { t1: 1, t2: 4 },
      createdAt: t(5),
      expiresAt: t(1000),
    },
    claims,
  )
  note('document', await store.documents.get('org_a', 'doc_1'))
  note("another's document", await store.documents.get('org_b', 'doc_1'))
  note('text', await store.documents.text('doc_1'))
  note('claims', await store.documents.claims('doc_1'))
  note('first page', await store.documents.claimsAfter('doc_1', null, 2))
  note('next page', await store.documents.claimsAfter('doc_1', claims[1]!, 2))
  note('no claim', await store.documents.claim('clm_x'))
  const told: unknown[] = []
  const stop = store.documents.onResolved((claim) => told.push(claim))
  const resolution = { statement: 'The tower is 330 m tall.', parts: null, state: 'resolved' as const }
  note(
    'resolved',
    await store.documents.resolve('clm_1', { ...resolution, usage: { inputTokens: 10, outputTokens: 2 } }),
  )
  note('resolved again', await store.documents.resolve('clm_1', { ...resolution, usage: null }))
  note(
    'resolved together',
    await store.documents.resolveAll([
      {
        claim: claims[1]!,
        resolution: {
          statement: 'Paris is the capital of France.',
          parts: ['Paris is a capital.', 'Paris is in France.'],
          state: 'rejected',
          usage: { inputTokens: 3, outputTokens: 1 },
        },
      },
      { claim: claims[0]!, resolution: { ...resolution, statement: 'Not this one.', usage: null } },
    ]),
  )
  stop()
  note('told', told)
  note('claim', await store.documents.claim('clm_2'))
  note('resolver usage', await store.documents.resolverUsage('clm_1'))
  note('no resolver usage', await store.documents.resolverUsage('clm_3'))
  note('next expiry', await store.documents.nextExpiry())
  note('kept', await store.documents.keep('doc_1'))
  note('nothing to keep', await store.documents.keep('doc_x'))

  // Estimates of another organization, expiring.
  for (const n of [1, 2, 3, 4]) {
    const id = `doc_e${n}`
    await store.documents.insert(
      {
        id,
        organizationId: 'org_b',
        text: `Estimate ${n} is here.`,
        tiers: ['t1'],
        unitPrices: null,
        createdAt: t(100 + n),
        expiresAt: t(200 + n),
      },
      claimsOf(id, `Estimate ${n} is here.`, `clm_e${n}`),
    )
  }
  note('next expiry of estimates', await store.documents.nextExpiry())
  note('expired beyond the newest two', await store.documents.expireOldest('org_b', 2, t(150)))
  note('expired lately', await store.documents.expired('org_b', 'doc_e1'))
  note('not for another', await store.documents.expired('org_a', 'doc_e1'))
  note('still there', await store.documents.get('org_b', 'doc_e3'))
  note('expired when due', await store.documents.expire(t(500), t(0)))
  note('expired when due, the others', await store.documents.expired('org_b', 'doc_e4'))
  note('expired and forgotten', await store.documents.expire(t(600), t(550)))
  note('forgotten', await store.documents.expired('org_b', 'doc_e1'))
  note('no expiry left', await store.documents.nextExpiry())

  // Checks, one of them a manuscript in two parts.
  await store.checks.insert(check('chk_1', 'doc_1'))
  const policy = { prefer: ['example.org'], only: [], never: ['bad.example'] }
  await store.checks.insert(
    check('chk_2', 'doc_1', { manuscript: { id: 'mns_book', part: 2, parts: 2 }, sourcePolicy: policy }),
  )
  await store.checks.insert(
    check('chk_3', 'doc_1', { manuscript: { id: 'mns_book', part: 1, parts: 2 }, createdAt: t(11) }),
  )
  note('check', await store.checks.get('org_a', 'chk_1'))
  note("another's check", await store.checks.get('org_b', 'chk_1'))
  note('check by id', await store.checks.byId('chk_2'))
  note('locked check', await store.transaction((tx) => tx.checks.lock('chk_1')))
  note('no check to lock', await store.transaction((tx) => tx.checks.lock('chk_x')))
  note('manuscript', await store.checks.ofManuscript('org_a', 'mns_book'))
  note('list', await store.checks.list('org_a', 10, null))
  note('list before', await store.checks.list('org_a', 1, 'chk_2'))
  note('started', await store.checks.start('chk_1', t(20)))
  note('started again', await store.checks.start('chk_1', t(21)))
  await store.checks.edit('chk_1', { name: 'Renamed', author: 'Ann', sourceUrl: null }, t(21))
  await store.checks.edit('chk_1', {}, t(22))
  note('edited', await store.checks.byId('chk_1'))
  note('active', await store.checks.activeIds())

  // Its units.
  // Queued units are told to another replica's listener on PostgreSQL, not to the store that told (it knows);
  // to nobody on SQLite.
  const replica = place.database === undefined ? store : await place.open()
  const queuedHeard: string[] = []
  const hearingUnits = await replica.units.listen(() => queuedHeard.push('queued'))
  const selfHeard: string[] = []
  const hearingItself = await store.units.listen(() => selfHeard.push('queued'))
  await store.units.enqueue(
    'chk_1',
    [
      { claimId: 'clm_1', tier: 't1', model: '' },
      { claimId: 'clm_2', tier: 't1', model: '' },
      { claimId: 'clm_3', tier: 't1', model: '' },
      { claimId: 'clm_1', tier: 't2', model: 'panel-a' },
      { claimId: 'clm_1', tier: 't2', model: 'panel-b' },
      { claimId: 'clm_2', tier: 't2', model: 'panel-a' },
    ],
    t(20),
  )
  await store.units.tellQueued()
  note('units told', await heardOnce(hearingUnits, queuedHeard))
  await hearingItself?.close()
  note('units not told to the teller', selfHeard)
  note('next due', await store.units.nextDue())
  note('leased', await store.units.lease(t(21), t(80), 'lease-1', 3))
  note('open for a claim-tier', await store.units.openFor('chk_1', 'clm_1', 't1'))
  note('panels', await store.units.panelSizes('chk_1', '#judge'))
  note('any open', await store.units.anyOpen('chk_1'))
  note('finished', await store.units.finish(1, 'lease-1'))
  note('finished again', await store.units.finish(1, 'lease-1'))
  await store.units.retryLater(2, 'lease-1', 'busy', t(30))
  note('failed', await store.units.fail(3, 'lease-1', 'broken'))
  note('failed again', await store.units.fail(3, 'lease-1', 'broken'))
  note('last error', await store.units.lastError('chk_1'))
  note('failed undecided', await store.units.failedUndecided('chk_1'))
  note(
    'judge queued',
    await store.units.enqueueOnce('chk_1', { claimId: 'clm_1', tier: 't2', model: '#judge' }, t(22)),
  )
  note(
    'judge queued again',
    await store.units.enqueueOnce('chk_1', { claimId: 'clm_1', tier: 't2', model: '#judge' }, t(22)),
  )
  note('leased the rest', await store.units.lease(t(31), t(90), 'lease-2', 10))
  note('renewed', (await store.units.renew(['lease-1', 'lease-2'], t(95))).sort())
  await store.units.expireLeases(t(40))
  note('leased again', await store.units.lease(t(41), t(90), 'lease-3', 2))

  // Their results.
  await store.results.addEvaluation('chk_1', 'clm_1', vote('panel-a', 1, 23))
  await store.results.addEvaluation('chk_1', 'clm_1', vote('panel-b', 1, 24), [vote('panel-b', 1, 24)])
  await store.results.addEvaluation('chk_1', 'clm_1', {
    ...vote('panel-a', 2, 25),
    cached: true,
    usage: null,
  })
  await store.results.addEvaluation('chk_1', 'clm_2', {
    ...vote('harper', 1, 26),
    tier: 't1',
    verdict: 'issues',
  })
  await store.results.judgeVoteCitations(
    'chk_1',
    'clm_1',
    't2',
    [{ ...citation, stance: 'supports' }],
    [[{ ...citation, stance: 'refutes' }]],
  )
  note('votes', await store.results.votes('chk_1', 'clm_1', 't2'))
  await store.results.setConsensus(
    'chk_1',
    'clm_1',
    't2',
    consensus('supported', 27),
    { inputTokens: 50, outputTokens: 5 },
    [consensus('supported', 27)],
  )
  await store.results.setConsensus('chk_1', 'clm_2', 't1', consensus('clean', 28))
  await store.results.addIssues('chk_1', 'clm_2', [
    { charStart: 37, charEnd: 42, message: 'Capital?', suggestions: ['paris'], rule: 'Case' },
    { charStart: 50, charEnd: 53, message: 'Spacing', suggestions: [], rule: 'Space' },
  ])
  note('verdicts', await store.results.verdicts('chk_1'))
  note('tokens', await store.results.tokens('chk_1'))
  note('tokens by claim', [...(await store.results.tokensByClaim('chk_1'))])
  note('tokens of claims', [...(await store.results.tokensByClaim('chk_1', ['clm_1', 'clm_3']))])
  note('decided', await store.results.decided('chk_1'))
  const results = async (checkId: string, claimIds: string[] | null = null) => {
    const found = await store.results.forCheck(checkId, claimIds)
    return Object.fromEntries(
      Object.entries(found).map(([name, map]) => [name, [...(map as Map<string, unknown>)]]),
    )
  }
  note('results', await results('chk_1'))
  note('results of a claim', await results('chk_1', ['clm_2']))

  // A re-check keeps a claim's results, moved with it.
  const moved = claimsOf('doc_2', `Intro. ${TEXT}`, 'clm_m')
  await store.documents.insert(
    {
      id: 'doc_2',
      organizationId: 'org_a',
      text: `Intro. ${TEXT}`,
      tiers: ['t1', 't2'],
      unitPrices: null,
      createdAt: t(60),
      expiresAt: null,
    },
    moved,
  )
  await store.checks.insert(check('chk_4', 'doc_2', { createdAt: t(60), claimCount: 4 }))
  await store.results.carry(
    { checkId: 'chk_1', claimId: 'clm_1', charStart: 0 },
    { checkId: 'chk_4', claimId: 'clm_m_2', charStart: 7 },
    ['t2'],
  )
  await store.results.carry(
    { checkId: 'chk_1', claimId: 'clm_2', charStart: 37 },
    { checkId: 'chk_4', claimId: 'clm_m_3', charStart: 44 },
    ['t1', 't2'],
  )
  note('carried', await results('chk_4'))
  note('carried statement', await store.documents.claim('clm_m_3'))
  note('carried tokens', [...(await store.results.tokensByClaim('chk_4'))])
  note('claims done', await store.checks.claimsDone('chk_1'))

  // The Idempotency-Key, taken first in its check's transaction (the check is written after it).
  note(
    'key taken',
    await locked(async (tx) => {
      const taken = await tx.idempotencyKeys.take('org_a', 'key-1', 'hash', 'chk_5', t(70))
      await tx.checks.insert(check('chk_5', 'doc_1', { createdAt: t(70) }))
      return taken
    }),
  )
  note(
    'key taken again',
    await locked((tx) => tx.idempotencyKeys.take('org_a', 'key-1', 'other', 'chk_6', t(71))),
  )
  note('key', await store.idempotencyKeys.find('org_a', 'key-1'))
  note("another's key", await store.idempotencyKeys.find('org_b', 'key-1'))

  // The check ends, its webhook event is delivered.
  const ending = {
    status: 'failed' as const,
    refunded: 5,
    error: { code: 'unit_failed', message: 'broken' },
    at: t(80),
  }
  note('ended', await store.checks.end('chk_1', ending))
  note('ended again', await store.checks.end('chk_1', { ...ending, status: 'completed' }))
  await store.units.cancelCheck('chk_1')
  note('none open', await store.units.anyOpen('chk_1'))
  note('nothing due', await store.units.nextDue())
  await store.outbox.insert({
    id: 'evt_1',
    organizationId: 'org_a',
    checkId: 'chk_1',
    type: 'check.failed',
    url: 'https://hooks.example.org/x',
    body: '{"id":"evt_1"}',
    createdAt: t(80),
  })
  note('event', await store.outbox.get('evt_1'))
  note("check's event", await store.outbox.forCheck('chk_1'))
  note('events leased', await store.outbox.lease(t(81), t(95), 'lease-4', 10))
  note('next event due', await store.outbox.nextDue())
  const attempt = (n: number, statusCode: number | null) => ({
    attempt: n,
    attemptedAt: t(80 + n),
    statusCode,
    error: statusCode === 200 ? null : 'refused',
  })
  note(
    'attempt',
    await store.outbox.recordAttempt('evt_1', 'lease-4', attempt(1, 500), {
      status: 'pending',
      nextAttemptAt: t(90),
    }),
  )
  note(
    'attempt again',
    await store.outbox.recordAttempt('evt_1', 'lease-4', attempt(1, 500), { status: 'failed' }),
  )
  note('events renewed', await store.outbox.renew(['lease-4'], t(96)))
  note('event leased while held', await store.outbox.lease(t(91), t(99), 'lease-x', 10))
  await store.outbox.expireLeases(t(91))
  note('leased for its second attempt', await store.outbox.lease(t(91), t(99), 'lease-5', 10))
  await store.outbox.release('evt_1', 'lease-5')
  note('leased again after release', await store.outbox.lease(t(91), t(99), 'lease-5', 10))
  note(
    'delivered',
    await store.outbox.recordAttempt('evt_1', 'lease-5', attempt(2, 200), { status: 'delivered' }),
  )
  note('attempts', await store.outbox.attempts('evt_1'))
  note('event delivered', await store.outbox.get('evt_1'))

  // The vote cache.
  const cached = {
    verdict: 'supported' as const,
    detail: null,
    confidence: 0.9,
    rationale: 'Known.',
    createdAt: t(90),
  }
  const claim = { text: 'The tower is 330 m tall.', context: null }
  store.voteCache.put('org_a', 'model', claim, cached)
  await expect.poll(() => store.voteCache.get('org_a', 'model', claim, t(0))).not.toBeNull()
  store.voteCache.put('org_a', 'model', claim, { ...cached, verdict: 'refuted', detail: 'no_evidence' })
  await expect
    .poll(async () => (await store.voteCache.get('org_a', 'model', claim, t(0)))?.verdict)
    .toBe('refuted')
  note('cached vote', await store.voteCache.get('org_a', 'model', claim, t(0)))
  note('too old', await store.voteCache.get('org_a', 'model', claim, t(91)))
  note('in its context', await store.voteCache.get('org_a', 'model', { ...claim, context: 'here' }, t(0)))
  note('pruned', await store.voteCache.prune(t(91)))

  // Deep research.
  for (const [id, claimId] of [
    ['rsc_1', 'clm_1'],
    ['rsc_2', null],
  ] as const) {
    await locked(async (tx) => {
      await tx.research.insert({
        id,
        organizationId: 'org_a',
        claimId,
        text: `Research ${id}`,
        context: claimId ? 'Paris is the capital of France.' : '',
        charged: 10,
        createdAt: id === 'rsc_1' ? t(100) : t(101),
      })
      await tx.ledger.record('org_a', 'charge', 10, id, t(100))
    })
  }
  note('research', await store.research.get('org_a', 'rsc_1'))
  note("another's research", await store.research.get('org_b', 'rsc_1'))
  note('recent research', await store.research.recent('org_a', 10))
  note('research due', await store.research.nextDue())
  note('research leased', await store.research.lease(t(102), t(150), 'lease-6', 1))
  await store.research.saveState('rsc_1', 'lease-6', '{"steps":["plan"]}', t(103))
  await store.research.retryLater('rsc_1', 'lease-6', t(110))
  note('research due later', await store.research.nextDue())
  note('research leased next', await store.research.lease(t(104), t(150), 'lease-7', 5))
  note('research renewed', (await store.research.renew(['lease-6', 'lease-7'], t(160))).sort())
  await store.research.expireLeases(t(105))
  note('research by id', await store.research.byId('rsc_2'))
  note(
    'research completed',
    await store.research.complete('rsc_2', 'lease-7', '{"verdict":"supported"}', t(106)),
  )
  note('research completed again', await store.research.complete('rsc_2', 'lease-7', '{}', t(107)))
  note(
    'research failed',
    await store.research.fail(
      'rsc_1',
      'lease-6',
      { code: 'research_failed', message: 'no sources', refunded: 10 },
      t(108),
    ),
  )
  note(
    'research failed again',
    await store.research.fail(
      'rsc_1',
      'lease-6',
      { code: 'research_failed', message: 'again', refunded: 10 },
      t(109),
    ),
  )
  note('research ended', await store.research.recent('org_a', 1))
  note('claim of the organization', await store.research.claimOfOrganization('org_a', 'clm_2'))
  note("another's claim", await store.research.claimOfOrganization('org_b', 'clm_2'))

  // Settings and sealed secrets.
  await store.settings.put('models', { panel: ['a', 'b'] }, t(110))
  // Heard by another replica on PostgreSQL once committed, not by the store that told; said to nobody on SQLite.
  const heard: string[] = []
  const listening = await replica.settings.listen(() => heard.push('changed'))
  const changedItself: string[] = []
  const hearingChanges = await store.settings.listen(() => changedItself.push('changed'))
  await store.transaction(async (tx) => {
    await tx.settings.put('models', { panel: ['c'] }, t(111))
    await tx.settings.tell()
  })
  note('settings told', await heardOnce(listening, heard))
  await hearingChanges?.close()
  note('settings not told to the teller', changedItself)
  if (replica !== store) await replica.close()
  note('setting', await store.settings.get('models'))
  note('no setting', await store.settings.get('search'))
  await store.settings.putSealed('openai', Buffer.from([0, 1, 2, 255, 0]), t(112))
  await store.settings.putSealed('anthropic', Buffer.from('sealed'), t(113))
  await store.settings.putSealed('anthropic', Buffer.from('sealed again'), t(114))
  const all = async () => {
    const { parts, sealed } = await store.settings.all()
    return { parts: [...parts], sealed: [...sealed].map(([name, bytes]) => [name, [...bytes]]) }
  }
  note('settings', await all())
  await store.settings.deleteSealed('openai')
  note('settings after', await all())

  // Drafts keep whatever was typed, U+0000 and half a surrogate pair too.
  const draft = {
    id: 'drf_1',
    organizationId: 'org_a',
    title: 'Notes \u0000 one',
    filePath: '/home/ann/notes\ud800.md',
    text: 'Typed \u0000 and \udc00 here.',
    fileDigest: 'abc',
    lastCheckId: null,
    anchors: [],
    createdAt: t(120),
    updatedAt: t(120),
    openedAt: t(120),
  }
  await store.drafts.insert(draft)
  await store.drafts.insert({
    ...draft,
    id: 'drf_2',
    filePath: null,
    title: 'Second',
    text: '',
    openedAt: t(121),
  })
  note('draft', await store.drafts.get('org_a', 'drf_1'))
  note("another's draft", await store.drafts.get('org_b', 'drf_1'))
  note('draft of a file', await store.drafts.byFile('org_a', draft.filePath))
  note('recent drafts', await store.drafts.recent('org_a', 10))
  note('draft usage', await store.drafts.usage('org_a'))
  await store.drafts.update('drf_1', {
    updatedAt: t(122),
    title: 'Renamed',
    filePath: null,
    text: 'New \u0000 text',
    fileDigest: null,
    lastCheckId: 'chk_1',
    anchors: [{ claimId: 'clm_1', exact: 'The', prefix: '', suffix: ' Eiffel', start: 0, end: 3 }],
    openedAt: t(123),
  })
  note('draft updated', await store.drafts.get('org_a', 'drf_1'))

  // Checks queued to run when online, one of them a manuscript in two parts.
  const request = (name: string, manuscript?: { id: string; part: number; parts: number }) => ({
    text: TEXT,
    tiers: ['t2' as const],
    name,
    ...(manuscript ? { manuscript } : {}),
  })
  for (const [n, manuscript] of [
    [1, undefined],
    [2, { id: 'mns_q', part: 1, parts: 2 }],
    [3, { id: 'mns_q', part: 2, parts: 2 }],
  ] as const) {
    await store.pendingChecks.insert({
      id: `pnd_${n}`,
      organizationId: 'org_a',
      tokenId: 'tok_1',
      request: request(`Queued ${n}`, manuscript),
      label: `Queued ${n}`,
      idempotencyKey: `pending-${n}`,
      createdAt: t(130 + n),
    })
  }
  note('pending', await store.pendingChecks.get('org_a', 'pnd_1'))
  note('pending by key', await store.pendingChecks.byKey('org_a', 'pending-2'))
  note('waiting', await store.pendingChecks.waiting('org_a'))
  note('pending list', await store.pendingChecks.list('org_a', 10, null))
  note('pending of a manuscript', await store.pendingChecks.ofManuscript('org_a', 'mns_q'))
  note('pending leased', await store.pendingChecks.lease(t(132), t(150), 'lease-8'))
  note('pending next due', await store.pendingChecks.nextDue())
  note(
    'tried',
    await store.pendingChecks.retryLater(
      'pnd_1',
      'lease-8',
      1,
      { nextAttemptAt: t(140), reason: 'offline' },
      t(133),
    ),
  )
  note(
    'tried as if for the first time',
    await store.pendingChecks.retryLater(
      'pnd_1',
      'lease-8',
      1,
      { nextAttemptAt: t(141), reason: 'offline' },
      t(133),
    ),
  )
  note('pending renewed', await store.pendingChecks.renew(['lease-8'], t(151)))
  await store.pendingChecks.release('pnd_1', 'lease-8')
  await store.pendingChecks.expireLeases(t(134))
  note('pending leased next', await store.pendingChecks.lease(t(134), t(150), 'lease-9'))
  note('submitted', await store.pendingChecks.submitted('pnd_2', 'lease-9', 1, 'chk_5', t(134)))
  note(
    'failed to submit',
    await store.pendingChecks.fail(
      'pnd_3',
      'lease-9',
      1,
      { code: 'insufficient_credits', message: 'Short.' },
      t(135),
    ),
  )
  note('waiting list', await store.pendingChecks.list('org_a', 10, 'waiting'))
  note('submitted list', await store.pendingChecks.list('org_a', 10, 'submitted'))
  note('cancelled', await store.pendingChecks.cancel('pnd_1', t(136)))
  note('cancelled again', await store.pendingChecks.cancel('pnd_1', t(137)))
  await store.pendingChecks.forgetEnded('org_a', 1)
  note('pending after forgetting', await store.pendingChecks.list('org_a', 10, null))

  // Requests counted against a limit of two a minute: at 140 s, 141 s and 142 s (the third refused, answering when
  // the oldest was made), then past the minute of the first two.
  const counted = (second: number, limit: 'draftsPerMinute' | 'estimatesPerMinute' = 'draftsPerMinute') =>
    locked((tx) => tx.recentRequests.take('org_a', limit, 2, t(second - 60), t(second)))
  for (const second of [140, 141, 142]) note(`request at ${second} s`, await counted(second))
  note('under another limit', await counted(142, 'estimatesPerMinute'))
  for (const second of [200, 201, 202]) note(`request at ${second} s`, await counted(second))
  note(
    'a request outside the lock',
    await store.recentRequests
      .take('org_a', 'draftsPerMinute', 2, t(143), t(203))
      .catch((error: Error) => error.name),
  )
  return noted
}

const walks = new Map<string, [string, unknown][]>()

describeStores('every method of every store module', (kind) => {
  it('runs on a walk through checks, estimates, research, drafts and pending checks', async () => {
    const place = await kind.place()
    const store = await place.open()
    called = new Set()
    try {
      walks.set(kind.name, await walk(store, place))
    } finally {
      await store.close()
    }
    expect(every().filter((method) => !called.has(method))).toEqual([])
  })

  it.runIf(kind.name === 'postgres')('answers on PostgreSQL exactly what it answers on SQLite', () => {
    const [sqlite, postgres] = [walks.get('sqlite'), walks.get('postgres')]
    expect(sqlite).toBeDefined()
    for (const [index, [what, value]] of (postgres ?? []).entries()) {
      expect(what).toBe(sqlite?.[index]?.[0])
      expect(value, what).toEqual(sqlite?.[index]?.[1])
    }
    expect(postgres).toHaveLength(sqlite?.length ?? 0)
  })
})

describeStores('text the database cannot store', (kind) => {
  it('U+0000 outside JSON: kept and read back cut on SQLite, as before; refused as a bad request on PostgreSQL, nothing written', async () => {
    const place = await kind.place()
    const engine = await openEngine({ dataDir: place.dataDir, database: place.database })
    const store = await place.open()
    try {
      const named = engine.admin.createOrganization('Desk\u0000 two', 10)
      if (kind.name === 'sqlite') {
        expect(await store.organizations.get((await named).id)).toMatchObject({ name: 'Desk' })
      } else {
        await expect(named).rejects.toMatchObject({
          code: 'bad_request',
          status: 400,
          message: "A text holds U+0000 at offset 4: the team server's database cannot store that character.",
        })
        const raw = await place.raw()
        expect(await raw.root.prepare('SELECT COUNT(*) AS n FROM organizations').get()).toEqual({ n: 1 })
        await raw.close()
      }
      // Where a person types it, the engine refuses it on both, naming the field.
      const principal = await engine.localPrincipal()
      await expect(
        engine.service.estimate(principal, { text: 'Paris\u0000 is in France.', tiers: ['t1'] }),
      ).rejects.toMatchObject({
        code: 'bad_request',
        details: [{ field: 'text', message: 'holds U+0000 at offset 5' }],
      })
    } finally {
      await store.close()
      await engine.close()
    }
  })
})

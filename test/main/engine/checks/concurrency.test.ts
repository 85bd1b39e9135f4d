// Money, idempotency and endings when requests and units arrive at once: on SQLite its one writer makes them one
// after the other; on PostgreSQL (READ COMMITTED, a pool of connections) the engine's locks must.
import { expect, it } from 'vitest'
import { ApiError } from '../../../../src/shared/errors'
import { Config } from '../../../../src/shared/config'
import type { Principal } from '../../../../src/main/engine/checks/access'
import { openEngine, type Engine } from '../../../../src/main/engine/engine'
import { queueJudge, settleCheck } from '../../../../src/main/engine/jobs/settle'
import type { Store } from '../../../../src/main/engine/store'
import type { ClaimRecord } from '../../../../src/main/engine/store/documents'
import { GatedTier } from '../../../helpers/tiers'
import { describeStores, type StoreKind } from '../../../helpers/stores'

const AT = '2026-01-01T00:00:00.000Z'
/// Leases that outlast the test.
const LEASED_UNTIL = '2026-01-01T01:00:00.000Z'
const ONE_CLAIM = 'Paris is the capital of France.'

/// An engine on a fresh store of `kind` whose t1 costs 10 credits a claim (its units wait), and an organization
/// holding `credits`.
async function engineWith(
  kind: StoreKind,
  credits: number,
): Promise<{ engine: Engine; principal: Principal; balance: () => Promise<number> }> {
  const { dataDir, database } = await kind.place()
  const engine = await openEngine({
    dataDir,
    database,
    config: Config.parse({ pricing: { t1: 10 } }),
    tiers: new Map([['t1', new GatedTier(false)]]),
  })
  const organization = await engine.admin.createOrganization('Tight', credits)
  const { value } = await engine.admin.createToken('write', organization.id, null)
  const principal = await engine.service.authenticate(value)
  const balance = async () => (await engine.service.credits(principal)).balance
  return { engine, principal, balance }
}

/// A promise each of `parties` waits on until all of them have come, or for `patienceMs` at most when given.
function barrier(parties: number, patienceMs?: number): () => Promise<void> {
  let arrived = 0
  let open: () => void = () => undefined
  const opened = new Promise<void>((resolve) => (open = resolve))
  return async () => {
    if (++arrived === parties) open()
    const patience =
      patienceMs === undefined
        ? null
        : new Promise<void>((resolve) => setTimeout(resolve, patienceMs).unref())
    await (patience ? Promise.race([opened, patience]) : opened)
  }
}

describeStores('requests at once', (kind) => {
  it('five checks of 10 credits submitted at once against a balance of 10: one is charged, four are 402', async () => {
    const { engine, principal, balance } = await engineWith(kind, 10)
    try {
      // Estimated first, so that the submissions have little to do before their transactions, which overlap.
      const estimates = await Promise.all(
        Array.from({ length: 5 }, () =>
          engine.service.estimate(principal, { text: ONE_CLAIM, tiers: ['t1'] }),
        ),
      )
      const submitted = await Promise.allSettled(
        estimates.map(({ documentId }) => engine.service.submit(principal, { documentId, tiers: ['t1'] })),
      )
      const charged = submitted.filter((each) => each.status === 'fulfilled')
      expect(charged).toHaveLength(1)
      for (const refused of submitted.filter((each) => each.status === 'rejected')) {
        expect(refused.reason).toBeInstanceOf(ApiError)
        expect(refused.reason).toMatchObject({ code: 'insufficient_credits', status: 402 })
      }
      expect(await balance()).toBe(0)
      expect(await engine.admin.ledger(principal.organizationId)).toEqual({
        grant: 10,
        charge: 10,
        refund: 0,
      })
      expect((await engine.service.listChecks(principal)).data).toHaveLength(1)
    } finally {
      await engine.close()
    }
  })

  it('ten submissions at once with one Idempotency-Key: one check, one charge, nine replays', async () => {
    const { engine, principal, balance } = await engineWith(kind, 100)
    try {
      const submitted = await Promise.all(
        Array.from({ length: 10 }, () =>
          engine.service.submit(principal, { text: ONE_CLAIM, tiers: ['t1'] }, 'the-one-key'),
        ),
      )
      expect(new Set(submitted.map(({ check }) => check.id)).size).toBe(1)
      expect(submitted.filter(({ replayed }) => replayed)).toHaveLength(9)
      expect(await balance()).toBe(90)
      expect((await engine.service.listChecks(principal)).data).toHaveLength(1)
      // The same key with another body, at once with a repeat: 422 for it, the first check for the repeat.
      const [other, again] = await Promise.allSettled([
        engine.service.submit(
          principal,
          { text: `${ONE_CLAIM} Rome is in Italy.`, tiers: ['t1'] },
          'the-one-key',
        ),
        engine.service.submit(principal, { text: ONE_CLAIM, tiers: ['t1'] }, 'the-one-key'),
      ])
      expect(other).toMatchObject({ status: 'rejected', reason: { code: 'unprocessable' } })
      expect(again).toMatchObject({ status: 'fulfilled', value: { replayed: true } })
      expect(await balance()).toBe(90)
    } finally {
      await engine.close()
    }
  })
})

/// A store with a running check of two claims on t2, one unit for each of two panel models per claim, all
/// leased (running).
async function runningCheck(store: Store): Promise<{ units: Awaited<ReturnType<Store['units']['lease']>> }> {
  await store.organizations.insert({ id: 'org_a', name: 'Desk', createdAt: AT }, false)
  const texts = ['The tower is 330 metres tall.', 'Paris is in France.']
  const claims: ClaimRecord[] = texts.map((text, i) => ({
    id: `clm_${i + 1}`,
    documentId: 'doc_1',
    text,
    charStart: i * 40,
    charEnd: i * 40 + text.length,
    statement: null,
    parts: null,
    statementState: null,
  }))
  await store.documents.insert(
    {
      id: 'doc_1',
      organizationId: 'org_a',
      text: texts.join(' '),
      tiers: ['t2'],
      unitPrices: null,
      createdAt: AT,
      expiresAt: null,
    },
    claims,
  )
  await store.transaction(
    async (tx) => {
      await tx.ledger.record('org_a', 'grant', 100, null, AT)
      await tx.checks.insert({
        id: 'chk_1',
        organizationId: 'org_a',
        documentId: 'doc_1',
        status: 'running',
        name: null,
        author: null,
        sourceUrl: null,
        callbackUrl: null,
        tiers: ['t2'],
        unitPrices: { t2: 4 },
        claimCount: 2,
        credits: { charged: 8, refunded: 0 },
        createdAt: AT,
        updatedAt: AT,
        completedAt: null,
        error: null,
      })
      await tx.ledger.record('org_a', 'charge', 8, 'chk_1', AT)
    },
    { lockOrg: 'org_a' },
  )
  await store.units.enqueue(
    'chk_1',
    claims.flatMap((claim) =>
      ['panel-a', 'panel-b'].map((model) => ({ claimId: claim.id, tier: 't2' as const, model })),
    ),
    AT,
  )
  return { units: await store.units.lease(AT, LEASED_UNTIL, 'lease-test', 10) }
}

describeStores('units that end at once', (kind) => {
  // On PostgreSQL each of the two transactions is held until both have written their unit, so that each could
  // read the other's unit still open; and then until both have read (or half a second: under the check's lock the
  // second cannot read before the first has committed), so that neither commits before the other reads. SQLite's
  // transactions cannot overlap: they run one after the other.
  const meeting = (parties: number, patienceMs?: number) =>
    kind.name === 'postgres' ? barrier(parties, patienceMs) : async () => undefined

  it('the last two panel units of a claim-tier, ended in two transactions at once: the judge is queued once', async () => {
    const store = await (await kind.place()).open()
    try {
      const { units } = await runningCheck(store)
      const panel = units.filter((unit) => unit.claimId === 'clm_1')
      const [written, read] = [meeting(panel.length), meeting(panel.length, 500)]
      await Promise.all(
        panel.map((unit) =>
          store.transaction(async (tx) => {
            await tx.units.finish(unit.id, unit.leaseId)
            await tx.results.addEvaluation('chk_1', 'clm_1', {
              tier: 't2',
              model: unit.model,
              verdict: 'supported',
              confidence: 0.8,
              rationale: 'Known.',
              citations: [],
              createdAt: AT,
              cached: false,
              usage: null,
              detail: null,
              round: 1,
            })
            await written()
            await queueJudge(tx, unit, AT)
            await read()
          }),
        ),
      )
      const judges = (await store.units.lease(AT, LEASED_UNTIL, 'lease-test', 10)).filter(
        (unit) => unit.model === '#judge',
      )
      expect(judges.map((unit) => unit.claimId)).toEqual(['clm_1'])
    } finally {
      await store.close()
    }
  })

  it("a check's last two units, ended in two transactions at once that each settle it: it ends once", async () => {
    const store = await (await kind.place()).open()
    try {
      const { units } = await runningCheck(store)
      const [last, beforeLast, ...others] = units.toReversed()
      for (const unit of others) await store.units.finish(unit.id, unit.leaseId)
      const [written, read] = [meeting(2), meeting(2, 500)]
      // A check that completes refunds nothing: its transactions need no organization's lock, and only the
      // check's own lock stands between them.
      const ended = await Promise.all(
        [last!, beforeLast!].map((unit) =>
          store.transaction(async (tx) => {
            await tx.units.finish(unit.id, unit.leaseId)
            await written()
            const settled = await settleCheck(tx, 'chk_1', AT)
            await read()
            return settled
          }),
        ),
      )
      expect(ended.filter(Boolean)).toHaveLength(1)
      expect(await store.checks.byId('chk_1')).toMatchObject({ status: 'completed', completedAt: AT })
    } finally {
      await store.close()
    }
  })

  it("a check's last two units failing at once, each settling it: it fails once, refunded once", async () => {
    const store = await (await kind.place()).open()
    try {
      const { units } = await runningCheck(store)
      const [last, beforeLast, ...others] = units.toReversed()
      for (const unit of others) await store.units.fail(unit.id, unit.leaseId, 'the model gave up')
      const ended = await Promise.all(
        [last!, beforeLast!].map((unit) =>
          store.transaction(
            async (tx) => {
              await tx.units.fail(unit.id, unit.leaseId, 'the model gave up')
              return await settleCheck(tx, 'chk_1', AT)
            },
            { lockOrg: 'org_a' },
          ),
        ),
      )
      expect(ended.filter(Boolean)).toHaveLength(1)
      expect(await store.checks.byId('chk_1')).toMatchObject({
        status: 'failed',
        credits: { charged: 8, refunded: 8 },
        error: { code: 'unit_failed', message: '4 claim checks failed: the model gave up' },
      })
      expect(await store.ledger.totals('org_a')).toEqual({ grant: 100, charge: 8, refund: 8 })
    } finally {
      await store.close()
    }
  })
})

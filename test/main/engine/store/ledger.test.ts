import fc from 'fast-check'
import { expect, it } from 'vitest'
import { ApiError } from '../../../../src/shared/errors'
import { chargeOrRefuse } from '../../../../src/main/engine/checks/credits'
import { OrganizationUnlockedError } from '../../../../src/main/engine/store/database'
import { InsufficientCreditsError } from '../../../../src/main/engine/store/ledger'
import { describeStores } from '../../../helpers/stores'

const AT = '2026-01-01T00:00:00.000Z'

describeStores('the credits ledger', (kind) => {
  it('after any sequence of operations: balance = grants - charges + refunds, never negative', async () => {
    const store = await (await kind.place()).open()
    let n = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ kind: fc.constantFrom('grant', 'charge', 'refund'), amount: fc.nat(500) }), {
          maxLength: 40,
        }),
        async (operations) => {
          const org = `org_${n++}`
          await store.organizations.insert({ id: org, name: org, createdAt: AT }, false)
          let expected = 0
          for (const { kind, amount } of operations) {
            try {
              await store.transaction((tx) => tx.ledger.record(org, kind, amount, null, AT), { lockOrg: org })
              expected += kind === 'charge' ? -amount : amount
            } catch (error) {
              expect(error).toBeInstanceOf(InsufficientCreditsError)
              expect(kind).toBe('charge')
              expect(amount).toBeGreaterThan(expected)
            }
            expect(await store.ledger.balance(org)).toBe(expected)
            expect(expected).toBeGreaterThanOrEqual(0)
          }
          const totals = await store.ledger.totals(org)
          expect(await store.ledger.balance(org)).toBe(totals.grant - totals.charge + totals.refund)
        },
      ),
      // A transaction on PostgreSQL is a few round trips: fewer runs keep the file's time alike on both.
      { numRuns: kind.name === 'sqlite' ? 100 : 25 },
    )
    await store.close()
  })

  it('the database itself refuses a charge that would make the balance negative', async () => {
    const place = await kind.place()
    const store = await place.open()
    await store.organizations.insert({ id: 'org_a', name: 'A', createdAt: AT }, false)
    await store.transaction((tx) => tx.ledger.record('org_a', 'grant', 5, null, AT), { lockOrg: 'org_a' })
    await store.close()
    // Past the store's own check: a statement of the database's own.
    const db = await place.raw()
    try {
      const insert = db.root.prepare(
        "INSERT INTO ledger_entries (organization_id, kind, amount, created_at) VALUES ('org_a', 'charge', ?, ?)",
      )
      await expect(insert.run(6, AT)).rejects.toThrow(/insufficient_credits/)
      await insert.run(5, AT)
      await expect(insert.run(1, AT)).rejects.toThrow(/insufficient_credits/)
    } finally {
      await db.close()
    }
  })

  it('refuses negative, fractional and unsafe amounts', async () => {
    const store = await (await kind.place()).open()
    await store.organizations.insert({ id: 'org_a', name: 'A', createdAt: AT }, false)
    for (const amount of [-1, 1.5, Number.MAX_SAFE_INTEGER + 2]) {
      await expect(
        store.transaction((tx) => tx.ledger.record('org_a', 'grant', amount, null, AT), { lockOrg: 'org_a' }),
      ).rejects.toThrow(RangeError)
    }
    await store.close()
  })

  it("refuses a row written outside its organization's lock: on the root store, without lockOrg, or under another's", async () => {
    const store = await (await kind.place()).open()
    for (const id of ['org_a', 'org_b'])
      await store.organizations.insert({ id, name: id, createdAt: AT }, false)
    await expect(store.ledger.record('org_a', 'grant', 5, null, AT)).rejects.toThrow(
      OrganizationUnlockedError,
    )
    for (const kind of ['grant', 'charge', 'refund'] as const) {
      await expect(store.transaction((tx) => tx.ledger.record('org_a', kind, 1, null, AT))).rejects.toThrow(
        OrganizationUnlockedError,
      )
      await expect(
        store.transaction((tx) => tx.ledger.record('org_a', kind, 1, null, AT), { lockOrg: 'org_b' }),
      ).rejects.toThrow(OrganizationUnlockedError)
    }
    // A transaction inside the locked one is the same transaction, with its lock.
    await store.transaction(
      (tx) => tx.transaction((inner) => inner.ledger.record('org_a', 'grant', 5, null, AT)),
      { lockOrg: 'org_a' },
    )
    expect(await store.ledger.totals('org_a')).toEqual({ grant: 5, charge: 0, refund: 0 })
    await store.close()
  })

  it('five concurrent charges of 10 against a balance of 10, each in its own transaction: one is charged, four are 402', async () => {
    const store = await (await kind.place()).open()
    await store.organizations.insert({ id: 'org_a', name: 'A', createdAt: AT }, false)
    await store.transaction((tx) => tx.ledger.record('org_a', 'grant', 10, null, AT), { lockOrg: 'org_a' })
    const charges = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        store.transaction((tx) => chargeOrRefuse(tx.ledger, 'org_a', 10, `chk_${i}`, AT, 'This check'), {
          lockOrg: 'org_a',
        }),
      ),
    )
    expect(charges.filter((charge) => charge.status === 'fulfilled')).toHaveLength(1)
    for (const charge of charges.filter((charge) => charge.status === 'rejected')) {
      expect(charge.reason).toBeInstanceOf(ApiError)
      expect((charge.reason as ApiError).code).toBe('insufficient_credits')
      expect((charge.reason as ApiError).message).toBe('This check costs 10 credits; the balance is 0.')
    }
    expect(await store.ledger.balance('org_a')).toBe(0)
    expect(await store.ledger.totals('org_a')).toEqual({ grant: 10, charge: 10, refund: 0 })
    await store.close()
  })
})

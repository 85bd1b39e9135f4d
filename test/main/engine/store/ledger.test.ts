import fc from 'fast-check'
import Database from 'libsql'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Store } from '../../../../src/main/engine/store'
import { InsufficientCreditsError, LedgerUnlockedError } from '../../../../src/main/engine/store/ledger'
import { tempDir } from '../../../helpers/server'

const AT = '2026-01-01T00:00:00.000Z'

describe('the credits ledger', () => {
  it('after any sequence of operations: balance = grants - charges + refunds, never negative', async () => {
    const store = await Store.open(tempDir())
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
      { numRuns: 100 },
    )
    await store.close()
  })

  it('the database itself refuses a charge that would make the balance negative', async () => {
    const dir = tempDir()
    const store = await Store.open(dir)
    await store.organizations.insert({ id: 'org_a', name: 'A', createdAt: AT }, false)
    await store.transaction((tx) => tx.ledger.record('org_a', 'grant', 5, null, AT), { lockOrg: 'org_a' })
    await store.close()
    const db = new Database(join(dir, 'factdesk.db'))
    const insert = db.prepare(
      "INSERT INTO ledger_entries (organization_id, kind, amount, created_at) VALUES ('org_a', 'charge', ?, ?)",
    )
    expect(() => insert.run(6, AT)).toThrow(/insufficient_credits/)
    insert.run(5, AT)
    expect(() => insert.run(1, AT)).toThrow(/insufficient_credits/)
    db.close()
  })

  it('refuses negative, fractional and unsafe amounts', async () => {
    const store = await Store.open(tempDir())
    await store.organizations.insert({ id: 'org_a', name: 'A', createdAt: AT }, false)
    for (const amount of [-1, 1.5, Number.MAX_SAFE_INTEGER + 2]) {
      await expect(
        store.transaction((tx) => tx.ledger.record('org_a', 'grant', amount, null, AT), { lockOrg: 'org_a' }),
      ).rejects.toThrow(RangeError)
    }
    await store.close()
  })

  it("refuses a row written outside its organization's lock: on the root store, without lockOrg, or under another's", async () => {
    const store = await Store.open(tempDir())
    for (const id of ['org_a', 'org_b'])
      await store.organizations.insert({ id, name: id, createdAt: AT }, false)
    await expect(store.ledger.record('org_a', 'grant', 5, null, AT)).rejects.toThrow(LedgerUnlockedError)
    for (const kind of ['grant', 'charge', 'refund'] as const) {
      await expect(store.transaction((tx) => tx.ledger.record('org_a', kind, 1, null, AT))).rejects.toThrow(
        LedgerUnlockedError,
      )
      await expect(
        store.transaction((tx) => tx.ledger.record('org_a', kind, 1, null, AT), { lockOrg: 'org_b' }),
      ).rejects.toThrow(LedgerUnlockedError)
    }
    // A transaction inside the locked one is the same transaction, with its lock.
    await store.transaction(
      (tx) => tx.transaction((inner) => inner.ledger.record('org_a', 'grant', 5, null, AT)),
      { lockOrg: 'org_a' },
    )
    expect(await store.ledger.totals('org_a')).toEqual({ grant: 5, charge: 0, refund: 0 })
    await store.close()
  })
})

// Rows written straight into a store, for the tests of what works on them (leases): an organization with a write
// token, and checks of a few claims whose units wait, without an engine to extract or charge anything.
import type { Store } from '../../src/main/engine/store'
import type { ClaimRecord } from '../../src/main/engine/store/documents'

export const ORGANIZATION = 'org_seeded'
export const TOKEN = 'tok_seeded'
/// Four claims, one a sentence.
export const TEXT =
  'Everest is 8849 m tall. The Nile is 6650 km long. Baikal is 1642 m deep. The Amazon is 6400 km long.'

/// The organization and its token, created at `at`.
export async function seedOrganization(store: Store, at: string): Promise<void> {
  await store.organizations.insert({ id: ORGANIZATION, name: 'Seeded', createdAt: at }, false)
  const token = { organizationId: ORGANIZATION, name: null, scope: 'write' as const, createdAt: at }
  await store.tokens.insert({ id: TOKEN, ...token, sessionExpiresAt: null }, 'hash')
}

let checks = 0

/// A t1 check of TEXT's four claims, queued at `at` with `callbackUrl`; its units wait from `at`. Gives its id.
export async function seedCheck(
  store: Store,
  at: string,
  callbackUrl: string | null = null,
): Promise<string> {
  const n = ++checks
  const [id, documentId] = [`chk_seeded_${n}`, `doc_seeded_${n}`]
  const claims: ClaimRecord[] = TEXT.split(/(?<=\.) /).map((text, i) => ({
    id: `clm_seeded_${n}_${i}`,
    documentId,
    text,
    charStart: TEXT.indexOf(text),
    charEnd: TEXT.indexOf(text) + text.length,
    statement: null,
    parts: null,
    statementState: null,
  }))
  await store.transaction(async (tx) => {
    const priced = { tiers: ['t1' as const], unitPrices: { t1: 1 }, createdAt: at }
    await tx.documents.insert(
      { id: documentId, organizationId: ORGANIZATION, text: TEXT, ...priced, expiresAt: null },
      claims,
    )
    await tx.checks.insert({
      id,
      organizationId: ORGANIZATION,
      documentId,
      status: 'queued',
      ...{ name: null, author: null, sourceUrl: null, callbackUrl },
      ...priced,
      claimCount: claims.length,
      credits: { charged: claims.length, refunded: 0 },
      updatedAt: at,
      completedAt: null,
      error: null,
    })
    await tx.units.enqueue(
      id,
      claims.map((claim) => ({ claimId: claim.id, tier: 't1' as const, model: '' })),
      at,
    )
  })
  return id
}

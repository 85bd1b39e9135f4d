import { createHash } from 'node:crypto'
import { expect, it } from 'vitest'
import { describeStores } from '../../../helpers/stores'

const SINCE = '2026-11-27T00:00:00.000Z'
const vote = {
  verdict: 'supported' as const,
  confidence: 0.9,
  rationale: 'Known.',
  detail: null,
  createdAt: '2026-11-28T00:00:00.000Z',
}

describeStores('the vote cache’s key', (kind) => {
  it('is a statement’s words, as before; a claim checked as its words is keyed by its context too', async () => {
    const place = await kind.place()
    const store = await place.open()
    await store.organizations.insert({ id: 'org_1', name: 'Desk', createdAt: vote.createdAt }, false)
    const cache = store.voteCache
    const statement = 'The Eiffel Tower was completed in 1889.'
    // A vote cached before contexts were keyed: the hash of the statement alone.
    const earlier = await place.raw()
    await earlier.root
      .prepare(
        `INSERT INTO vote_cache (organization_id, model_key, claim_hash, verdict, confidence, rationale, created_at)
         VALUES ('org_1', 'model', ?, 'supported', 0.9, 'Known.', ?)`,
      )
      .run(createHash('sha256').update(statement).digest('hex'), vote.createdAt)
    await earlier.close()
    expect(
      await cache.get('org_1', 'model', { text: ` ${statement.replace(' ', '  ')}`, context: null }, SINCE),
    ).toMatchObject({ verdict: 'supported' })

    const bare = 'It was completed in 1889.'
    cache.put('org_1', 'model', { text: bare, context: 'eiffel' }, vote)
    await expect
      .poll(() => cache.get('org_1', 'model', { text: bare, context: 'eiffel' }, SINCE))
      .not.toBeNull()
    expect(await cache.get('org_1', 'model', { text: bare, context: 'brooklyn' }, SINCE)).toBeNull()
    expect(await cache.get('org_1', 'model', { text: bare, context: null }, SINCE)).toBeNull()
    await store.close()
  })
})

import { expect, it } from 'vitest'
import { describeStores } from '../../../helpers/stores'

const at = '2026-01-01T00:00:00.000Z'

describeStores('batched writes', (kind) => {
  it('write together what lands in one turn, each all or nothing: one that throws takes none of the others with it', async () => {
    const place = await kind.place()
    const store = await place.open()
    try {
      const written = Promise.allSettled([
        store.batched(async (tx) => await tx.settings.put('a', { n: 1 }, at)),
        store.batched(async (tx) => {
          await tx.settings.put('b', { n: 2 }, at)
          throw new Error('this unit failed half-way')
        }),
        store.batched(async (tx) => {
          await tx.settings.put('c', { n: 3 }, at)
          return 'c'
        }),
      ])
      // Nothing is written before the turn ends.
      expect(await store.settings.get('a')).toBeNull()
      const [a, b, c] = await written
      expect(a.status).toBe('fulfilled')
      expect(b).toEqual({ status: 'rejected', reason: new Error('this unit failed half-way') })
      expect(c).toEqual({ status: 'fulfilled', value: 'c' })
    } finally {
      await store.close()
    }
    const reopened = await place.open()
    try {
      expect(await reopened.settings.get('a')).toEqual({ n: 1 })
      expect(await reopened.settings.get('b')).toBeNull()
      expect(await reopened.settings.get('c')).toEqual({ n: 3 })
    } finally {
      await reopened.close()
    }
  })
})

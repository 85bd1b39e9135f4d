import { renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'libsql'
import { describe, expect, it } from 'vitest'
import { Store } from '../../../../src/main/engine/store'
import type { ClaimRecord } from '../../../../src/main/engine/store/documents'
import { MIGRATIONS } from '../../../../src/main/engine/store/migrations'
import { tempDir } from '../../../helpers/server'
import { describeStores } from '../../../helpers/stores'

const AT = '2026-11-28T00:00:00.000Z'

/// A store with one document of `texts`, its claims unresolved.
async function withClaims(
  open: () => Promise<Store>,
  texts: string[],
): Promise<{ store: Store; claims: ClaimRecord[] }> {
  const store = await open()
  await store.organizations.insert({ id: 'org_1', name: 'Desk', createdAt: AT }, false)
  let at = 0
  const claims = texts.map((text, index) => {
    const claim = {
      id: `clm_${index + 1}`,
      documentId: 'doc_1',
      text,
      charStart: at,
      charEnd: at + text.length,
      statement: null,
      parts: null,
      statementState: null,
    }
    at += text.length + 1
    return claim
  })
  const document = { id: 'doc_1', organizationId: 'org_1', text: texts.join(' '), tiers: [], createdAt: AT }
  await store.documents.insert({ ...document, unitPrices: null, expiresAt: null }, claims)
  return { store, claims }
}

describeStores('a claim’s statement as stored', (kind) => {
  it('keeps how it came to be, read back after the store is opened again', async () => {
    const place = await kind.place()
    const { store, claims } = await withClaims(place.open, [
      'It was completed in 1889.',
      'It opened in 1883.',
    ])
    await store.documents.resolveAll([
      {
        claim: claims[0]!,
        resolution: { statement: claims[0]!.text, parts: null, state: 'unresolved', usage: null },
      },
      {
        claim: claims[1]!,
        resolution: { statement: 'The bridge opened in 1883.', parts: null, state: 'resolved', usage: null },
      },
    ])
    await store.close()
    const again = await place.open()
    expect((await again.documents.claims('doc_1')).map((claim) => claim.statementState)).toEqual([
      'unresolved',
      'resolved',
    ])
    await again.close()
  })
})

/// Turns the SQLite file into what the first `version` migrations alone made, keeping its rows in every column that
/// version had: the database of a user who had not updated yet, whatever migrations came after.
function asVersion(file: string, version: number): void {
  const before = `${file}.before`
  const db = new Database(before)
  for (const sql of MIGRATIONS.slice(0, version)) db.exec(sql)
  db.exec(`PRAGMA user_version = ${version}`)
  db.exec(`ATTACH DATABASE '${file}' AS now`)
  const columns = (table: string, schema: string): string[] =>
    (db.prepare(`SELECT name FROM ${schema}.pragma_table_info(?)`).all(table) as { name: string }[]).map(
      ({ name }) => name,
    )
  const tables = db
    .prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as { name: string }[]
  for (const { name } of tables) {
    const kept = columns(name, 'now').filter((column) => columns(name, 'main').includes(column))
    const list = kept.map((column) => `"${column}"`).join(', ')
    db.exec(`INSERT INTO main."${name}" (${list}) SELECT ${list} FROM now."${name}"`)
  }
  db.exec('DETACH DATABASE now')
  db.close()
  // The file's write-ahead log, read into the copy, would be replayed on it.
  for (const log of ['-wal', '-shm']) rmSync(`${file}${log}`, { force: true })
  renameSync(before, file)
}

describe('a claim’s statement as stored in SQLite', () => {
  it('is taken as resolved when it was stored before its state was kept; a claim not resolved has none', async () => {
    const dir = tempDir()
    const { store, claims } = await withClaims(
      () => Store.open(dir),
      ['It was completed in 1889.', 'It opened in 1883.'],
    )
    await store.documents.resolve(claims[0]!.id, {
      statement: 'The Eiffel Tower was completed in 1889.',
      parts: null,
      state: 'resolved',
      usage: null,
    })
    await store.close()
    // The database as the version before made it: no state column (nor what the migrations after it made).
    asVersion(
      join(dir, 'factdesk.db'),
      MIGRATIONS.findIndex((sql) => sql.includes('statement_state')),
    )

    const again = await Store.open(dir)
    expect(
      (await again.documents.claims('doc_1')).map((claim) => [claim.statement, claim.statementState]),
    ).toEqual([
      ['The Eiffel Tower was completed in 1889.', 'resolved'],
      [null, null],
    ])
    await again.close()
  })
})

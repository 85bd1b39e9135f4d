import { join } from 'node:path'
import fc from 'fast-check'
import Database from 'libsql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Admin } from '../../../src/main/engine/checks/admin'
import { systemClock } from '../../../src/main/engine/base/clock'
import { openEngine } from '../../../src/main/engine/engine'
import { Store } from '../../../src/main/engine/store'
import { MIGRATIONS } from '../../../src/main/engine/store/migrations'
import { call, expectEnvelope, tempDir } from '../../helpers/server'
import { startOwnerServer, type OwnerServer } from '../engine/settings/session'

// Every text the API stores goes in as arbitrary strings (U+0000, lone surrogates and astral characters
// included) and is either refused with a 400 naming the member and the offset of the first bad UTF-16 unit, or
// read back exactly. Drafts are never refused: they read back exactly whatever they hold.

/// The offset of the first U+0000 or unpaired surrogate, worked out unit by unit; null for a storable text.
function firstFault(text: string): number | null {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit === 0) return i
    const high = unit >= 0xd800 && unit <= 0xdbff
    const low = unit >= 0xdc00 && unit <= 0xdfff
    const next = text.charCodeAt(i + 1)
    if (high && next >= 0xdc00 && next <= 0xdfff) i++
    else if (high || low) return i
  }
  return null
}

/// Arbitrary text: whole code points (astral ones too), single UTF-16 units (lone surrogates), NULs, mixed.
const anyText = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.string({
        unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
        maxLength: 4,
      }),
      fc.constantFrom('\u0000', '\ud800', '\udfff', '\ud83d\ude00', '\ud83d', 'é', ' '),
      fc.string({ maxLength: 8 }),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''))

/// The reply to a text member sent at `offset` within the member `field`: refused naming both, or not refused.
function expectRefusedAt(reply: { status: number; json: any }, field: string, offset: number): void {
  expect(reply.status).toBe(400)
  const error = expectEnvelope(reply.json, 'bad_request')
  expect(error.details).toContainEqual({ field, message: expect.stringContaining(`at offset ${offset}`) })
}

const PREFIX = 'Paris is the capital of France. '
const SUFFIX = ' Berlin is the capital of Germany.'

describe('stored text', () => {
  let server: OwnerServer
  beforeAll(async () => {
    server = await startOwnerServer({ config: { limits: { estimatesPerMinute: 1_000_000 } } })
    await server.engine.admin.grantCredits(server.organizationId, 1_000_000_000)
  })
  afterAll(() => server.close())

  it('check and estimate texts, names, authors and URLs are refused naming member and offset, or kept exactly', async () => {
    await fc.assert(
      fc.asyncProperty(anyText, anyText, anyText, anyText, async (body, name, author, path) => {
        const text = PREFIX + body + SUFFIX
        const sourceUrl = `https://example.org/${path}`
        const estimate = await call(server, 'POST', '/checks/estimate', { body: { text, tiers: ['t1'] } })
        const textFault = firstFault(text)
        if (textFault !== null) expectRefusedAt(estimate, 'text', textFault)
        else expect(estimate.status).toBe(200)

        const members = { name, author, sourceUrl }
        const submitted = await call(server, 'POST', '/checks', {
          body: { text, tiers: ['t1'], ...members },
        })
        const faults = Object.entries({ text, ...members }).filter(([, value]) => firstFault(value) !== null)
        for (const [field, value] of faults) expectRefusedAt(submitted, field, firstFault(value) as number)
        if (faults.length > 0) return
        expect(submitted.status).toBe(202)
        expect(submitted.json).toMatchObject(members)
        const id = submitted.json.id as string
        const report = await call(server, 'GET', `/checks/${id}/report`)
        expect(report.json.text).toBe(text)
        const read = await call(server, 'GET', `/checks/${id}`)
        expect(read.json).toMatchObject(members)

        // The same members edited later.
        const edits = { name: author, author: name, sourceUrl: `https://example.org/${name}` }
        const patched = await call(server, 'PATCH', `/checks/${id}`, { body: edits })
        const editFaults = Object.entries(edits).filter(([, value]) => firstFault(value) !== null)
        for (const [field, value] of editFaults) expectRefusedAt(patched, field, firstFault(value) as number)
        if (editFaults.length > 0) return
        expect(patched.status).toBe(200)
        expect((await call(server, 'GET', `/checks/${id}`)).json).toMatchObject(edits)
      }),
      { numRuns: 40 },
    )
  })

  it('research texts and webhook URLs are refused naming member and offset', async () => {
    await fc.assert(
      fc.asyncProperty(
        anyText.filter((text) => firstFault(text) !== null),
        async (body) => {
          const text = PREFIX + body
          const research = await call(server, 'POST', '/research', { body: { text } })
          expectRefusedAt(research, 'text', firstFault(text) as number)
          const callbackUrl = `https://hooks.example.org/${body}`
          const check = await call(server, 'POST', '/checks', {
            body: { text: PREFIX, tiers: ['t1'], callbackUrl },
          })
          expectRefusedAt(check, 'callbackUrl', firstFault(callbackUrl) as number)
        },
      ),
      { numRuns: 30 },
    )
  })

  it("the owner's token names, dictionary words and models are refused naming member and offset, or kept exactly", async () => {
    await fc.assert(
      fc.asyncProperty(anyText, anyText, anyText, async (name, word, model) => {
        const token = await server.owner('POST', '/tokens', { scope: 'read', name })
        if (firstFault(name) !== null) expectRefusedAt(token, 'name', firstFault(name) as number)
        else if (name.trim().length <= 100) expect(token.json.token.name).toBe(name.trim() || null)

        const dictionaryWord = `x${word}`
        const dictionary = await server.owner('PATCH', '/settings', {
          writing: { dictionary: [dictionaryWord] },
        })
        if (firstFault(dictionaryWord) !== null) {
          expectRefusedAt(dictionary, 'writing.dictionary.0', firstFault(dictionaryWord) as number)
        } else if (dictionaryWord.trim().length <= 100) {
          expect((await server.owner('GET', '/settings')).json.writing.dictionary).toContain(
            dictionaryWord.trim(),
          )
        }

        const modelName = `m${model}`
        const panel = [{ id: modelName, provider: 'openai', model: modelName }]
        const models = await server.owner('PATCH', '/settings', { models: { panel } })
        if (firstFault(modelName) !== null) {
          expectRefusedAt(models, 'models.panel.0.id', firstFault(modelName) as number)
          expectRefusedAt(models, 'models.panel.0.model', firstFault(modelName) as number)
        } else if (modelName.trim().length <= 100) {
          const saved = (await server.owner('GET', '/settings')).json.models.panel[0]
          expect(saved).toMatchObject({ id: modelName.trim(), model: modelName.trim() })
        }
      }),
      { numRuns: 30 },
    )
  })

  it('drafts keep their text and title exactly, whatever they hold, over REST and after a restart', async () => {
    const ids: [string, string, string][] = []
    await fc.assert(
      fc.asyncProperty(anyText, anyText, async (text, title) => {
        const created = await call(server, 'POST', '/drafts', { body: { text } })
        expect(created.status).toBe(201)
        expect(created.json.text).toBe(text)
        const id = created.json.id as string
        const titled = `t${title}`
        const saved = await call(server, 'PATCH', `/drafts/${id}`, { body: { text: title, title: titled } })
        expect(saved.status).toBe(200)
        const opened = await call(server, 'POST', `/drafts/${id}/open`)
        expect(opened.json).toMatchObject({ text: title, title: titled.trim() })
        ids.push([id, title, titled.trim()])
      }),
      { numRuns: 40 },
    )
    // Read back from the database by another engine.
    const engine = await openEngine({ dataDir: server.dataDir, database: server.database })
    try {
      const principal = await engine.localPrincipal()
      for (const [id, text, title] of ids) {
        expect(await engine.drafts.open(principal, id)).toMatchObject({ text, title })
      }
    } finally {
      await engine.close()
    }
  })

  it("a draft's file path is kept exactly, and the draft found again by it", async () => {
    // Paths come from the desktop's file dialogs, never from the API: written to the store as they are.
    const store = await Store.open(tempDir())
    try {
      const organizationId = (await new Admin(store, systemClock).defaultOrganization()).id
      let drafts = 0
      await fc.assert(
        fc.asyncProperty(anyText, async (path) => {
          const id = `drf_${(drafts += 1)}`
          const filePath = `/home/writer/${id}/${path}`
          const at = new Date().toISOString()
          await store.drafts.insert({
            id,
            organizationId,
            title: path,
            filePath,
            text: path,
            fileDigest: null,
            lastCheckId: null,
            anchors: [],
            createdAt: at,
            updatedAt: at,
            openedAt: at,
          })
          expect(await store.drafts.byFile(organizationId, filePath)).toMatchObject({
            id,
            filePath,
            title: path,
          })
        }),
        { numRuns: 60 },
      )
    } finally {
      await store.close()
    }
  })

  it('the engine refuses such text from callers that skip the schemas (the CLI), naming member and offset', async () => {
    const principal = await server.engine.localPrincipal()
    await expect(
      server.engine.service.estimate(principal, { text: 'Paris\u0000 is in France.', tiers: ['t1'] }),
    ).rejects.toMatchObject({
      code: 'bad_request',
      details: [{ field: 'text', message: 'holds U+0000 at offset 5' }],
    })
  })

  it('drafts stored before are read back whole, a U+0000 and what follows it included', async () => {
    // The database as the previous version left it: every migration before the one of draft texts.
    const dataDir = tempDir()
    const before = MIGRATIONS.findIndex((sql) => sql.includes('json_quote(text)'))
    const db = new Database(join(dataDir, 'factdesk.db'))
    for (const sql of MIGRATIONS.slice(0, before)) db.exec(sql)
    db.exec(`PRAGMA user_version = ${before}`)
    const at = new Date().toISOString()
    const organizationId = 'org_old'
    db.prepare('INSERT INTO organizations (id, name, is_default, created_at) VALUES (?, ?, 1, ?)').run(
      organizationId,
      'Old',
      at,
    )
    db.prepare(
      'INSERT INTO drafts (id, organization_id, title, file_path, text, created_at, updated_at, opened_at) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run('drf_old', organizationId, 'Old "one"', '/home/writer/old.md', 'Before\u0000after. ✓', at, at, at)
    db.close()
    const reopened = await Store.open(dataDir)
    try {
      expect(await reopened.drafts.get(organizationId, 'drf_old')).toMatchObject({
        title: 'Old "one"',
        filePath: '/home/writer/old.md',
        text: 'Before\u0000after. ✓',
      })
      expect((await reopened.drafts.byFile(organizationId, '/home/writer/old.md'))?.id).toBe('drf_old')
    } finally {
      await reopened.close()
    }
  })
})

import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { reanchor } from '../../../../../src/shared/anchors'
import { Draft, DraftList, DraftSummary, ErrorEnvelope } from '../../../../../src/shared/schemas'
import { appPage } from '../../../../../src/main/desktop/appPage'
import { createDispatch } from '../../../../../src/main/desktop/dispatch'
import { createFileDispatch, openAsked, type FileDialogs } from '../../../../../src/main/desktop/files'
import { openEngine, type Engine } from '../../../../../src/main/engine/engine'
import { previewOf } from '../../../../../src/main/engine/files/drafts'
import { buildDocx } from '../docx'
import { call, expectEnvelope, startServer, waitForEnd, type TestServer } from '../../../../helpers/server'
import { GatedTier } from '../../../../helpers/tiers'
import { databaseOf, onPostgres } from '../../../../helpers/database'

const ARTICLE =
  'The Eiffel Tower is 330 metres tall. It was finished in 1889. Paris is the capital of France.'
const base64 = (text: string | Buffer): string => Buffer.from(text).toString('base64')

describe('drafts over REST', () => {
  let server: TestServer
  beforeEach(async () => {
    server = await startServer({ tiers: new Map([['t1', new GatedTier(true)]]) })
  })
  afterEach(() => server.close())

  it('previews a draft by its first words, without Markdown markers, cut at a word', () => {
    expect(previewOf('\n\n# The   tower\n\nIt is tall.')).toBe('The tower')
    expect(previewOf('---\n> - 1. Quoted list item')).toBe('Quoted list item')
    expect(previewOf(`${'word '.repeat(30)}end`)).toBe(`${'word '.repeat(16).trim()}…`)
    expect(previewOf('   \n')).toBe('')
  })

  it('creates, autosaves and lists drafts, the most recently opened first', async () => {
    const first = await call(server, 'POST', '/drafts', { body: { text: 'One.' } })
    expect(first.status).toBe(201)
    expect(Draft.parse(first.json)).toMatchObject({
      title: 'Untitled',
      text: 'One.',
      filePath: null,
      fileModified: true,
    })
    const second = (await call(server, 'POST', '/drafts', { body: { title: 'Notes' } })).json
    expect(second).toMatchObject({ text: '', fileModified: false })

    const saved = await call(server, 'PATCH', `/drafts/${first.json.id}`, {
      body: { text: 'One, then two.' },
    })
    expect(saved.status).toBe(200)
    expect(DraftSummary.strict().parse(saved.json)).toMatchObject({ id: first.json.id })
    // The same save again changes nothing: autosaves may repeat.
    const again = await call(server, 'PATCH', `/drafts/${first.json.id}`, {
      body: { text: 'One, then two.' },
    })
    expect(again.json).toEqual(saved.json)

    const list = DraftList.parse((await call(server, 'GET', '/drafts', { token: server.read })).json)
    expect(list.data.map((d) => d.id)).toEqual([first.json.id, second.id])
    // Each tells its first words, to be told apart from the other untitled ones.
    expect(list.data.map((d) => d.preview)).toEqual(['One, then two.', ''])
    expect(list.data[0]).not.toHaveProperty('text')
    await call(server, 'POST', `/drafts/${second.id}/open`)
    const reordered = (await call(server, 'GET', '/drafts')).json
    expect(reordered.data.map((d: any) => d.id)).toEqual([second.id, first.json.id])
    const opened = (await call(server, 'POST', `/drafts/${first.json.id}/open`)).json
    expect(opened).toMatchObject({ text: 'One, then two.', anchors: [] })
  })

  it('keeps drafts to their organization, and writes to write tokens', async () => {
    const draft = (await call(server, 'POST', '/drafts', { body: { text: 'Mine.' } })).json
    const other = await server.engine.admin.createOrganization('Other', 0)
    const stranger = (await server.engine.admin.createToken('write', other.id, 'stranger')).value
    for (const [method, path] of [
      ['POST', `/drafts/${draft.id}/open`],
      ['PATCH', `/drafts/${draft.id}`],
    ] as const) {
      const answer = await call(server, method, path, {
        token: stranger,
        body: method === 'PATCH' ? { text: 'x' } : undefined,
      })
      expect(answer.status).toBe(404)
      expectEnvelope(answer.json, 'not_found')
    }
    expect((await call(server, 'GET', '/drafts', { token: stranger })).json.data).toEqual([])
    const readOnly = await call(server, 'PATCH', `/drafts/${draft.id}`, {
      token: server.read,
      body: { text: 'x' },
    })
    expect(readOnly.status).toBe(403)
    expectEnvelope(readOnly.json, 'forbidden')
    const bad = await call(server, 'PATCH', `/drafts/${draft.id}`, { body: { text: 3, extra: true } })
    expect(bad.status).toBe(400)
    expectEnvelope(bad.json, 'bad_request')
    expect((await call(server, 'POST', `/drafts/${draft.id}/open`)).json.text).toBe('Mine.')
  })

  it('imports Markdown as it is and Word as Markdown; other files get a reason', async () => {
    const md = await call(server, 'POST', '/drafts/import', {
      body: { name: 'notes.md', content: base64('# Notes\r\n\r\nText.') },
    })
    expect(md.status).toBe(201)
    expect(md.json).toMatchObject({ title: 'notes.md', text: '# Notes\n\nText.', fileModified: false })
    const docx = await buildDocx([
      { heading: 1, runs: ['Tower'] },
      { runs: ['It is ', { bold: 'tall' }, '.'] },
    ])
    const word = await call(server, 'POST', '/drafts/import', {
      body: { name: 'Report.docx', content: base64(docx) },
    })
    expect(word.status).toBe(201)
    // Imported, not opened: it has no Markdown file yet.
    expect(word.json).toMatchObject({
      title: 'Report.md',
      text: '# Tower\n\nIt is **tall**.',
      fileModified: true,
    })
    // A Word document with a picture of several megabytes opens too.
    const pictured = await buildDocx([{ runs: ['Pictured.'] }], { 'word/media/image1.bin': randomBytes(6e6) })
    const large = await call(server, 'POST', '/drafts/import', {
      body: { name: 'Pictured.docx', content: base64(pictured) },
    })
    expect(large.status).toBe(201)
    expect(large.json).toMatchObject({ title: 'Pictured.md', text: 'Pictured.' })
    const png = await call(server, 'POST', '/drafts/import', {
      body: { name: 'a.png', content: base64('x') },
    })
    expect(png.status).toBe(422)
    expect(expectEnvelope(png.json, 'unprocessable').message).toContain(
      'Markdown (.md), plain text (.txt) and Word (.docx)',
    )
    const garbage = await call(server, 'POST', '/drafts/import', {
      body: { name: 'a.md', content: 'not base64!' },
    })
    expect(garbage.status).toBe(400)
  })

  it("keeps the last check's claims as anchors that place them again in a text edited since", async () => {
    const check = (await call(server, 'POST', '/checks', { body: { text: ARTICLE, tiers: ['t1'] } })).json
    await waitForEnd(server, check.id)
    const report = (await call(server, 'GET', `/checks/${check.id}/report`)).json
    const draft = (await call(server, 'POST', '/drafts', { body: { text: ARTICLE } })).json
    await call(server, 'PATCH', `/drafts/${draft.id}`, { body: { lastCheckId: check.id } })
    // Edited elsewhere: a new first line, a claim reworded slightly, one deleted.
    const edited = `A new opening line.\n\n${ARTICLE.replace('330 metres', '330 m').replace(' It was finished in 1889.', '')}`
    await call(server, 'PATCH', `/drafts/${draft.id}`, { body: { text: edited } })

    const opened = Draft.parse((await call(server, 'POST', `/drafts/${draft.id}/open`)).json)
    expect(opened.lastCheckId).toBe(check.id)
    expect(opened.anchors.map((a) => a.claimId)).toEqual(report.claims.map((c: any) => c.claimId))
    const placed = Object.fromEntries(
      opened.anchors.map((anchor) => {
        const at = reanchor(opened.text, anchor)
        return [anchor.exact, at && opened.text.slice(at.start, at.end)]
      }),
    )
    expect(placed).toEqual({
      'The Eiffel Tower is 330 metres tall.': 'The Eiffel Tower is 330 m tall.',
      'It was finished in 1889.': null,
      'Paris is the capital of France.': 'Paris is the capital of France.',
    })

    const unknown = await call(server, 'PATCH', `/drafts/${draft.id}`, { body: { lastCheckId: 'chk_nope' } })
    expect(unknown.status).toBe(404)
    expectEnvelope(unknown.json, 'not_found')

    // Not a check id at all (U+0000 would be stored and read back cut): refused by its shape, the draft unchanged.
    for (const lastCheckId of ['chk_\u0000', 'chk_', 'drf_abc', 'chk_ABC', 'x'.repeat(300), '']) {
      const res = await call(server, 'PATCH', `/drafts/${draft.id}`, { body: { lastCheckId } })
      expect(res.status, lastCheckId).toBe(400)
      expect(expectEnvelope(res.json, 'bad_request').details).toEqual([
        { field: 'lastCheckId', message: expect.stringMatching(/check id/) },
      ])
    }
    expect((await call(server, 'POST', `/drafts/${draft.id}/open`)).json.lastCheckId).toBe(check.id)
  })

  it('keeps drafts across a restart of the server on the same data folder', async () => {
    const draft = (await call(server, 'POST', '/drafts', { body: {} })).json
    await call(server, 'PATCH', `/drafts/${draft.id}`, { body: { text: 'Typed before the restart. ✓' } })
    const dataDir = server.dataDir
    await server.close()
    server = await startServer({ dataDir })
    expect((await call(server, 'POST', `/drafts/${draft.id}/open`)).json.text).toBe(
      'Typed before the restart. ✓',
    )
  })
})

describe('drafts and files in the desktop app', () => {
  const page = appPage(undefined)
  const APP = `${page.href}#/`
  let dataDir: string
  let folder: string
  let engine: Engine
  let chosen: { open: string | null; save: string | null; replace: boolean; keepUnsavedEdits: boolean }
  const asked: { title: string; filePath: string | null }[] = []
  const askedToReplace: { path: string; why: string }[] = []
  const askedToKeep: { path: string; editsTitle: string }[] = []
  const dialogs: FileDialogs = {
    open: async () => chosen.open,
    saveAs: async (title, filePath) => {
      asked.push({ title, filePath })
      return chosen.save
    },
    confirmReplace: async (path, why) => {
      askedToReplace.push({ path, why })
      return chosen.replace
    },
    keepUnsavedEdits: async (path, editsTitle) => {
      askedToKeep.push({ path, editsTitle })
      return chosen.keepUnsavedEdits
    },
  }

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'factdesk-drafts-'))
    folder = mkdtempSync(join(tmpdir(), 'factdesk-files-'))
    engine = await openEngine({ dataDir, ...(await databaseOf(dataDir)), runJobs: false })
    chosen = { open: null, save: null, replace: false, keepUnsavedEdits: true }
    asked.length = 0
    askedToReplace.length = 0
    askedToKeep.length = 0
  })
  afterEach(async () => {
    await engine.close()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(folder, { recursive: true, force: true })
  })

  const ok = (result: unknown): any => {
    expect(result).toMatchObject({ ok: true })
    return (result as { data: unknown }).data
  }

  it('autosaves through IPC with the arguments checked', async () => {
    const dispatch = createDispatch(engine, page)
    const draft = ok(await dispatch('createDraft', [{ text: 'Hello' }], APP))
    ok(await dispatch('saveDraft', [draft.id, { text: 'Hello there' }], APP))
    expect(ok(await dispatch('openDraft', [draft.id], APP)).text).toBe('Hello there')
    expect(ok(await dispatch('listDrafts', [], APP)).data).toHaveLength(1)
    // The desktop may check on a remote service: a check this store does not know is kept, without anchors.
    ok(await dispatch('saveDraft', [draft.id, { lastCheckId: 'chk_remote' }], APP))
    expect(ok(await dispatch('openDraft', [draft.id], APP))).toMatchObject({
      lastCheckId: 'chk_remote',
      anchors: [],
    })
    const refused = await dispatch('saveDraft', [draft.id, { text: 'x'.repeat(1_000_001) }], APP)
    expect(ErrorEnvelope.parse(refused).error.code).toBe('bad_request')
  })

  it('opens a file, saves it atomically, and asks where only when it has no file yet', async () => {
    const files = createFileDispatch(engine, page, dialogs)
    const path = join(folder, 'article.md')
    writeFileSync(path, '# Article\n\nFirst text.\n')
    expect(ok(await files('openFile', [], APP))).toBeNull()
    chosen.open = path
    const draft = ok(await files('openFile', [], APP))
    expect(draft).toMatchObject({
      title: 'article.md',
      filePath: path,
      text: '# Article\n\nFirst text.\n',
      fileModified: false,
    })

    // Typed and autosaved: the file is not touched, the draft knows it differs.
    expect(
      ok(
        await createDispatch(engine, page)(
          'saveDraft',
          [draft.id, { text: '# Article\n\nNew text.\n' }],
          APP,
        ),
      ),
    ).toMatchObject({ fileModified: true })
    expect(readFileSync(path, 'utf8')).toBe('# Article\n\nFirst text.\n')
    // Opening the file again restores the unsaved text, not the file's.
    expect(ok(await files('openFile', [], APP)).text).toBe('# Article\n\nNew text.\n')

    const saved = ok(await files('saveFile', [draft.id, '# Article\n\nSaved text.\n'], APP))
    expect(saved).toMatchObject({ fileModified: false, filePath: path })
    expect(asked).toEqual([])
    expect(readFileSync(path, 'utf8')).toBe('# Article\n\nSaved text.\n')
    expect(readdirSync(folder)).toEqual(['article.md'])

    // Changed by another editor: opening it takes the file's text, since the draft had nothing unsaved.
    writeFileSync(path, '# Article\n\nEdited elsewhere.\n')
    expect(ok(await files('openFile', [], APP))).toMatchObject({
      text: '# Article\n\nEdited elsewhere.\n',
      fileModified: false,
    })

    // Save as: a new name (without extension: Markdown), after which the draft belongs to that file.
    chosen.save = join(folder, 'copy')
    const copy = ok(await files('saveFileAs', [draft.id, 'Copy.'], APP))
    expect(asked).toEqual([{ title: 'article.md', filePath: path }])
    expect(copy).toMatchObject({ title: 'copy.md', filePath: join(folder, 'copy.md'), fileModified: false })
    expect(readFileSync(join(folder, 'copy.md'), 'utf8')).toBe('Copy.')
  })

  it('asks before replacing a file another program changed, or a file the save dialog did not ask about', async () => {
    const files = createFileDispatch(engine, page, dialogs)
    const path = join(folder, 'article.md')
    writeFileSync(path, 'Original.\n')
    chosen.open = path
    const draft = ok(await files('openFile', [], APP))
    // Another program (a sync service, git, another editor) writes the file: Save asks, and Cancel keeps it.
    writeFileSync(path, 'Original.\nAdded elsewhere.\n')
    expect(ok(await files('saveFile', [draft.id, 'Original, edited here.\n'], APP))).toBeNull()
    expect(askedToReplace).toEqual([{ path, why: 'changed' }])
    expect(readFileSync(path, 'utf8')).toBe('Original.\nAdded elsewhere.\n')
    chosen.replace = true
    ok(await files('saveFile', [draft.id, 'Original, edited here.\n'], APP))
    expect(readFileSync(path, 'utf8')).toBe('Original, edited here.\n')
    // Saved by Factdesk itself, it is not "changed" for the next save.
    ok(await files('saveFile', [draft.id, 'Edited again.\n'], APP))
    expect(askedToReplace).toHaveLength(2)

    // "notes" typed in the save dialog is saved as notes.md, which the dialog never asked about.
    writeFileSync(join(folder, 'notes.md'), 'Precious notes.\n')
    chosen = { ...chosen, open: null, save: join(folder, 'notes'), replace: false }
    expect(ok(await files('saveFileAs', [draft.id, 'Something else.'], APP))).toBeNull()
    expect(askedToReplace.at(-1)).toEqual({ path: join(folder, 'notes.md'), why: 'exists' })
    expect(readFileSync(join(folder, 'notes.md'), 'utf8')).toBe('Precious notes.\n')
  })

  it('asks whether to keep the unsaved edits or load the file when both changed, and loses neither', async () => {
    const files = createFileDispatch(engine, page, dialogs)
    const autosave = createDispatch(engine, page)
    const path = join(folder, 'article.md')
    writeFileSync(path, 'Original.\n')
    chosen.open = path
    const draft = ok(await files('openFile', [], APP))
    ok(
      await autosave(
        'saveDraft',
        [draft.id, { text: 'Original, edited here.\n', lastCheckId: 'chk_remote' }],
        APP,
      ),
    )
    writeFileSync(path, 'Original.\nAdded elsewhere.\n')

    // Keep my unsaved edits: the draft as it was, and Save asks before replacing the file.
    expect(ok(await files('openFile', [], APP))).toMatchObject({
      id: draft.id,
      text: 'Original, edited here.\n',
      fileModified: true,
    })
    expect(askedToKeep).toEqual([{ path, editsTitle: 'article (unsaved edits).md' }])
    expect(readFileSync(path, 'utf8')).toBe('Original.\nAdded elsewhere.\n')
    expect(ok(await autosave('listDrafts', [], APP)).data).toHaveLength(1)
    expect(ok(await files('saveFile', [draft.id, 'Original, edited here.\n'], APP))).toBeNull()
    expect(askedToReplace).toEqual([{ path, why: 'changed' }])

    // Load the version on disk: the draft shows the file, and the edits stay in Recent as a draft of their own,
    // below it, with the same check.
    chosen.keepUnsavedEdits = false
    expect(ok(await files('openFile', [], APP))).toMatchObject({
      id: draft.id,
      text: 'Original.\nAdded elsewhere.\n',
      fileModified: false,
      filePath: path,
    })
    expect(askedToKeep).toHaveLength(2)
    const recent = ok(await autosave('listDrafts', [], APP)).data
    expect(recent.map((each: any) => each.title)).toEqual(['article.md', 'article (unsaved edits).md'])
    expect(ok(await autosave('openDraft', [recent[1].id], APP))).toMatchObject({
      text: 'Original, edited here.\n',
      filePath: null,
      fileModified: true,
      lastCheckId: 'chk_remote',
    })
    expect(readFileSync(path, 'utf8')).toBe('Original.\nAdded elsewhere.\n')
    // The draft now matches its file: saving asks nothing.
    ok(await files('saveFile', [draft.id, 'Original.\nAdded elsewhere, and here.\n'], APP))
    expect(askedToReplace).toHaveLength(1)
  })

  it('opens a file without asking when only its draft or only the file changed, or both alike', async () => {
    const files = createFileDispatch(engine, page, dialogs)
    const autosave = createDispatch(engine, page)
    const path = join(folder, 'article.md')
    writeFileSync(path, 'Original.\n')
    chosen = { ...chosen, open: path, keepUnsavedEdits: false }
    const draft = ok(await files('openFile', [], APP))

    // Only the draft: its edits.
    ok(await autosave('saveDraft', [draft.id, { text: 'Edited here.\n' }], APP))
    expect(ok(await files('openFile', [], APP))).toMatchObject({ text: 'Edited here.\n', fileModified: true })
    // Both, to the same text: nothing is unsaved.
    writeFileSync(path, 'Edited here.\n')
    expect(ok(await files('openFile', [], APP))).toMatchObject({
      text: 'Edited here.\n',
      fileModified: false,
    })
    // Only the file: the file's text.
    writeFileSync(path, 'Edited elsewhere.\n')
    expect(ok(await files('openFile', [], APP))).toMatchObject({
      text: 'Edited elsewhere.\n',
      fileModified: false,
    })
    expect(askedToKeep).toEqual([])
    expect(ok(await autosave('listDrafts', [], APP)).data).toHaveLength(1)
  })

  // Files on disk are the desktop app's, which keeps its data folder's SQLite: its one writer takes the save and
  // the autosave in the order they came, which a team server's pool of connections does not promise.
  it.skipIf(onPostgres)('keeps an autosave that lands while its file is written', async () => {
    const principal = await engine.localPrincipal()
    const path = join(folder, 'race.md')
    const draft = await engine.drafts.create(principal, { text: 'One.\n' })
    const saving = engine.drafts.saveFile(principal, draft.id, 'One. Two.\n', path)
    await engine.drafts.save(principal, draft.id, { text: 'One. Two. Three.\n' })
    expect(await saving).toMatchObject({ filePath: path, fileModified: true })
    expect(readFileSync(path, 'utf8')).toBe('One. Two.\n')
    expect((await engine.drafts.open(principal, draft.id)).text).toBe('One. Two. Three.\n')
  })

  it('refuses a file too long for a draft by its size, before reading it', async () => {
    const files = createFileDispatch(engine, page, dialogs)
    chosen.open = join(folder, 'huge.md')
    // Sparse: 600 MB of nothing on disk, which would be read whole and then refused as binary.
    writeFileSync(chosen.open, '')
    truncateSync(chosen.open, 600_000_000)
    const refused = ErrorEnvelope.parse(await files('openFile', [], APP))
    expect(refused.error).toMatchObject({
      code: 'unprocessable',
      message: '"huge.md" is 600.0 MB, too long for a draft: a draft holds at most 1,000,000 characters.',
    })
  })

  it('saves a file back with its own line ends and byte-order mark, so a Windows file keeps them', async () => {
    const files = createFileDispatch(engine, page, dialogs)
    const path = join(folder, 'windows.txt')
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('One.\r\nTwo.\r\n')]))
    chosen.open = path
    const draft = ok(await files('openFile', [], APP))
    expect(draft.text).toBe('One.\nTwo.\n')

    expect(ok(await files('saveFile', [draft.id, 'One.\nTwo, three.\n'], APP))).toMatchObject({
      fileModified: false,
    })
    expect(readFileSync(path)).toEqual(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('One.\r\nTwo, three.\r\n')]),
    )
    // Opened again, it is the text as saved: nothing unsaved, nothing changed on disk.
    expect(ok(await files('openFile', [], APP))).toMatchObject({
      text: 'One.\nTwo, three.\n',
      fileModified: false,
    })

    // A file of \n line ends stays one.
    writeFileSync(path, 'One.\nTwo.\n')
    await files('openFile', [], APP)
    await files('saveFile', [draft.id, 'One.\nTwo.\nThree.\n'], APP)
    expect(readFileSync(path, 'utf8')).toBe('One.\nTwo.\nThree.\n')
  })

  it('asks where to save a draft without a file, and saves nothing when the dialog is cancelled', async () => {
    const files = createFileDispatch(engine, page, dialogs)
    const draft = await engine.drafts.create(await engine.localPrincipal(), { text: 'Draft text.' })
    expect(ok(await files('saveFile', [draft.id, 'Draft text.'], APP))).toBeNull()
    expect(asked).toEqual([{ title: 'Untitled', filePath: null }])
    chosen.save = join(folder, 'draft.txt')
    expect(ok(await files('saveFile', [draft.id, 'Draft text.'], APP))).toMatchObject({
      title: 'draft.txt',
      fileModified: false,
    })
    expect(readFileSync(join(folder, 'draft.txt'), 'utf8')).toBe('Draft text.')
  })

  it('imports a Word file from the Open dialog as a new draft with no file, and says why a file cannot be opened', async () => {
    const files = createFileDispatch(engine, page, dialogs)
    chosen.open = join(folder, 'Report.docx')
    writeFileSync(chosen.open, await buildDocx([{ heading: 2, runs: ['Findings'] }]))
    expect(ok(await files('openFile', [], APP))).toMatchObject({
      title: 'Report.md',
      filePath: null,
      text: '## Findings',
      fileModified: true,
    })
    chosen.open = join(folder, 'gone.md')
    expect(ErrorEnvelope.parse(await files('openFile', [], APP)).error).toMatchObject({
      code: 'unprocessable',
      message: '"gone.md" could not be read.',
    })
    chosen.open = join(folder, 'huge.txt')
    writeFileSync(chosen.open, 'x'.repeat(1_000_001))
    expect(ErrorEnvelope.parse(await files('openFile', [], APP)).error.message).toContain(
      'a draft holds at most 1,000,000',
    )
    // Sized before it is read, a Word document too (sparse: it takes no room on the disk).
    chosen.open = join(folder, 'Huge.docx')
    writeFileSync(chosen.open, '')
    truncateSync(chosen.open, 40 * 1024 * 1024)
    expect(ErrorEnvelope.parse(await files('openFile', [], APP)).error.message).toBe(
      '"Huge.docx" is 40.0 MB; a file to open can be at most 32 MB.',
    )
  })

  it('answers only the app page, and says why a file could not be saved', async () => {
    const files = createFileDispatch(engine, page, dialogs)
    const draft = await engine.drafts.create(await engine.localPrincipal(), {})
    expect(ErrorEnvelope.parse(await files('openFile', [], 'https://evil.example/')).error.code).toBe(
      'forbidden',
    )
    chosen.save = join(folder, 'missing', 'x.md')
    const failed = ErrorEnvelope.parse(await files('saveFile', [draft.id, 'x'], APP)).error
    expect(failed).toMatchObject({
      code: 'unprocessable',
      message: 'The file could not be saved: the folder no longer exists.',
    })
    expect(ErrorEnvelope.parse(await files('saveFile', [draft.id], APP)).error.code).toBe('bad_request')
  })

  it('opens a file the system asked for ("Open with") as a draft, asking as Open… does, and says why one cannot be opened', async () => {
    const path = join(folder, 'Moon.md')
    writeFileSync(path, 'The Moon orbits the Earth.')
    const opened = ok(await openAsked(engine, dialogs, path))
    expect(ok(await createDispatch(engine, page)('openDraft', [opened], APP))).toMatchObject({
      text: 'The Moon orbits the Earth.',
      filePath: path,
    })
    // The same file again is the same draft, not a copy.
    expect(ok(await openAsked(engine, dialogs, path))).toBe(opened)
    writeFileSync(join(folder, 'photo.png'), 'not text')
    const refused = await openAsked(engine, dialogs, join(folder, 'photo.png'))
    expect(ErrorEnvelope.parse(refused).error.code).toBe('unprocessable')
  })
})

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Settings } from '../../../../src/shared/schemas'
import { PostgresDatabase } from '../../../../src/main/engine/store/postgres'
import { startFakeOpenAI, type FakeOpenAI } from '../../../helpers/fakeOpenAI'
import { FakeSearch } from '../../../helpers/fakeSearch'
import { call, expectEnvelope, waitForEnd } from '../../../helpers/server'
import { closedPort } from '../../../helpers/ports'
import { startFakeOllama, startOwnerServer, type OwnerServer } from './session'
import { readLabelledSentences, TRAINING_FILE } from '../../../../eval/training/checkworthiness'

const KEY = 'sk-test-0123456789-SECRET-wxyz'

let fake: FakeOpenAI
let server: OwnerServer
beforeAll(async () => {
  fake = await startFakeOpenAI({ '*': { overrides: { verdict: 'supported', confidence: 0.9 } } })
  server = await startOwnerServer()
})
afterAll(async () => {
  await server.close()
  await fake.close()
})

const model = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  provider: 'openai-compatible',
  baseURL: fake.baseURL,
  model: name,
  ...extra,
})

const OWNER_ROUTES: [string, string, unknown?][] = [
  ['GET', '/settings'],
  ['PATCH', '/settings', { writing: { dialect: 'british' } }],
  ['POST', '/settings/models/test', { id: 'x', provider: 'openai', model: 'model-x' }],
  ['POST', '/settings/search/test', { provider: 'searxng', baseURL: 'http://10.0.0.1/' }],
  ['GET', '/settings/ollama'],
  ['GET', '/tokens'],
  ['POST', '/tokens', { scope: 'read' }],
  ['POST', '/tokens/tok_whatever/revoke'],
  ['POST', '/credits/grants', { amount: 10 }],
]

describe('settings belong to the person at this computer', () => {
  it('API tokens, write or read, get 403 on every settings, tokens and grants route', async () => {
    for (const [method, path, body] of OWNER_ROUTES) {
      for (const token of [server.write, server.read]) {
        const res = await call(server, method, path, { token, body })
        expect(res.status, `${method} ${path}`).toBe(403)
        expectEnvelope(res.json, 'forbidden')
      }
    }
    const balance = (await call(server, 'GET', '/credits')).json.balance
    expect(balance).toBe(1000)
  })

  it('the browser session may read them', async () => {
    const res = await server.owner('GET', '/settings')
    expect(res.status).toBe(200)
    const settings = Settings.parse(res.json)
    expect(settings.writing).toEqual({ dialect: 'american', dictionary: [], findClaims: 'balanced' })
    expect(settings.models).toEqual({ panel: [], judge: null })
    expect(settings.localServer).toMatchObject({ available: false, enabled: false, address: null })
  })
})

/// Every setting and sealed secret as a PostgreSQL database stores them.
async function settingsBytes(url: string): Promise<Buffer> {
  const db = await PostgresDatabase.open(url)
  try {
    const values = (await db.root.prepare('SELECT value FROM settings').all()) as { value: string }[]
    const sealed = (await db.root.prepare('SELECT sealed FROM secrets').all()) as { sealed: Buffer }[]
    return Buffer.concat([...values.map((row) => Buffer.from(row.value)), ...sealed.map((row) => row.sealed)])
  } finally {
    await db.close()
  }
}

describe('models and keys', () => {
  it('a saved key is never sent back: only hasKey and its last four characters', async () => {
    const saved = await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-a', 'model-a', { apiKey: KEY })], judge: model('judge', 'model-judge') },
    })
    expect(saved.status).toBe(200)
    expect(JSON.stringify(saved.json)).not.toContain('SECRET')
    expect(saved.json.models.panel[0]).toMatchObject({ id: 'panel-a', key: { hasKey: true, last4: 'wxyz' } })
    expect(saved.json.models.judge.key).toEqual({ hasKey: false, last4: null })
    const read = await server.owner('GET', '/settings')
    expect(JSON.stringify(read.json)).not.toContain('SECRET')
    expect(read.json.models.panel[0].key).toEqual({ hasKey: true, last4: 'wxyz' })
  })

  it('keys are encrypted at rest: the key text is in no file of the data folder, nor in the database', async () => {
    await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-a', 'model-a', { apiKey: KEY })], judge: model('judge', 'model-judge') },
    })
    const files = readdirSync(server.dataDir).filter((name) => name.startsWith('factdesk.db'))
    if (!server.database) expect(files).toContain('factdesk.db')
    const stored = server.database ? [['database', await settingsBytes(server.database)] as const] : []
    for (const [file, bytes] of [
      ...files.map((file) => [file, readFileSync(join(server.dataDir, file))] as const),
      ...stored,
    ]) {
      expect(bytes.includes(Buffer.from('SECRET')), file).toBe(false)
      expect(bytes.includes(Buffer.from('SECRET', 'utf16le')), file).toBe(false)
    }
    // The key: a data folder's in its own file, readable by its owner alone; a team server's in the database
    // (engine_keys), never in a replica's folder.
    if (server.database) expect(existsSync(join(server.dataDir, 'secret.key'))).toBe(false)
    else expect(statSync(join(server.dataDir, 'secret.key')).mode & 0o777).toBe(0o600)
  })

  it('saved models reach the tiers for new work, and the saved key is sent to the model', async () => {
    await server.owner('PATCH', '/settings', { models: { panel: [], judge: null } })
    const refused = await call(server, 'POST', '/checks', {
      body: { text: 'Paris is in France.', tiers: ['t2'] },
    })
    expect(refused.status).toBe(422)
    expectEnvelope(refused.json, 'unprocessable')

    await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-a', 'model-a', { apiKey: KEY })], judge: model('judge', 'model-judge') },
    })
    const submitted = await call(server, 'POST', '/checks', {
      body: { text: 'Paris is the capital of France.', tiers: ['t2'] },
    })
    expect(submitted.status).toBe(202)
    const check = await waitForEnd(server, submitted.json.id)
    expect(check.status).toBe('completed')
    const votes = fake.of('model-a')
    expect(votes.length).toBeGreaterThan(0)
    expect(votes.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(fake.of('model-judge').at(-1)?.headers.authorization).toBeUndefined()
  })

  it('removing a model forgets its key; null removes a key; absent keeps it', async () => {
    await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-a', 'model-a', { apiKey: KEY })], judge: model('judge', 'model-judge') },
    })
    const kept = await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-a', 'model-b')] },
    })
    expect(kept.json.models.panel[0]).toMatchObject({
      model: 'model-b',
      key: { hasKey: true, last4: 'wxyz' },
    })
    const removed = await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-a', 'model-a', { apiKey: null })] },
    })
    expect(removed.json.models.panel[0].key.hasKey).toBe(false)
    await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-b', 'model-b', { apiKey: KEY })] },
    })
    const renamed = await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-c', 'model-a')] },
    })
    expect(renamed.json.models.panel[0].key.hasKey).toBe(false)
    const back = await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-b', 'model-b')] },
    })
    expect(back.json.models.panel[0].key.hasKey).toBe(false)
  })

  it('a saved key stays with the address it was saved for: a model moved elsewhere without a key forgets it', async () => {
    await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-a', 'model-a', { apiKey: KEY })], judge: model('judge', 'model-judge') },
    })
    const moved = await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-a', 'model-a', { baseURL: 'https://models.example.org/v1' })] },
    })
    expect(moved.json.models.panel[0]).toMatchObject({
      baseURL: 'https://models.example.org/v1',
      key: { hasKey: false },
    })
    expect(server.engine.settings.keys.model('panel-a', undefined)).toBeUndefined()
    const given = await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-a', 'model-a', { provider: 'openai', baseURL: null, apiKey: KEY })] },
    })
    expect(given.json.models.panel[0]).toMatchObject({ provider: 'openai', key: { hasKey: true } })
    const otherProvider = await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-a', 'model-a', { provider: 'anthropic', baseURL: null })] },
    })
    expect(otherProvider.json.models.panel[0].key.hasKey).toBe(false)
  })

  it('bad settings get the error envelope naming the field', async () => {
    const unknown = await server.owner('PATCH', '/settings', { colour: 'blue' })
    expect(unknown.status).toBe(400)
    expectEnvelope(unknown.json, 'bad_request')
    const badEnv = await server.owner('PATCH', '/settings', {
      models: { panel: [model('a', 'm', { apiKeyEnv: 'not a name' })] },
    })
    expect(badEnv.status).toBe(400)
    expect(JSON.stringify(badEnv.json.error.details)).toContain('apiKeyEnv')
    const twice = await server.owner('PATCH', '/settings', {
      models: { panel: [model('a', 'm'), model('a', 'n')] },
    })
    expect(twice.status).toBe(400)
  })
})

describe('keys from the environment', () => {
  it("reads from Settings only a key's variable: one ending in _API_KEY, or one the config file names", async () => {
    const before = fake.requests.length
    for (const [path, body] of [
      ['/settings', { models: { panel: [model('a', 'm', { apiKeyEnv: 'GITHUB_TOKEN' })] } }],
      ['/settings', { search: { provider: 'brave', apiKeyEnv: 'AWS_SECRET_ACCESS_KEY' } }],
      ['/settings/models/test', model('x', 'model-env', { apiKeyEnv: 'GITHUB_TOKEN' })],
      ['/settings/search/test', { provider: 'searxng', baseURL: 'http://127.0.0.1:9/', apiKeyEnv: 'HOME' }],
    ] as const) {
      const refused = await server.owner(path === '/settings' ? 'PATCH' : 'POST', path, body)
      expect(refused.status).toBe(400)
      expectEnvelope(refused.json, 'bad_request')
      expect(refused.json.error.message).toMatch(
        /is not read from Settings: name a variable ending in _API_KEY/,
      )
    }
    // Nothing was asked with them, and nothing saved.
    expect(fake.requests.length).toBe(before)
    expect(
      (await server.owner('GET', '/settings')).json.models.panel.map((m: { id: string }) => m.id),
    ).not.toContain('a')

    const named = await server.owner('PATCH', '/settings', {
      models: { panel: [model('a', 'm', { apiKeyEnv: 'OPENROUTER_API_KEY' })] },
    })
    expect(named.status).toBe(200)
  })
})

describe('test connection', () => {
  it('answers ok with the latency when the model answers', async () => {
    const res = await server.owner('POST', '/settings/models/test', model('x', 'model-ok', { apiKey: 'k-1' }))
    expect(res.status).toBe(200)
    expect(res.json.ok).toBe(true)
    expect(res.json.latencyMs).toBeGreaterThanOrEqual(0)
    expect(fake.of('model-ok').at(-1)?.headers.authorization).toBe('Bearer k-1')
  })

  it('uses the saved key of that model id when the form sends none', async () => {
    await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-a', 'model-a', { apiKey: KEY })], judge: model('judge', 'model-judge') },
    })
    const res = await server.owner('POST', '/settings/models/test', model('panel-a', 'model-saved'))
    expect(res.json.ok).toBe(true)
    expect(fake.of('model-saved').at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`)
  })

  it('never sends the saved key to another address than the one it was saved for', async () => {
    await server.owner('PATCH', '/settings', {
      models: { panel: [model('panel-a', 'model-a', { apiKey: KEY })], judge: model('judge', 'model-judge') },
    })
    const elsewhere = await startFakeOpenAI()
    try {
      const res = await server.owner('POST', '/settings/models/test', {
        ...model('panel-a', 'model-moved'),
        baseURL: elsewhere.baseURL,
      })
      expect(res.json.ok).toBe(true)
      expect(elsewhere.of('model-moved').at(-1)?.headers.authorization ?? '').not.toContain(KEY)
    } finally {
      await elsewhere.close()
    }
  })

  it('a 401 says the key was refused, without the key', async () => {
    fake.behave('model-locked', { alwaysFail: { status: 401, message: 'Incorrect API key provided' } })
    const res = await server.owner(
      'POST',
      '/settings/models/test',
      model('x', 'model-locked', { apiKey: KEY }),
    )
    expect(res.json).toMatchObject({ ok: false, latencyMs: null })
    expect(res.json.message).toMatch(/key was refused.*401/)
    expect(res.json.message).not.toContain('SECRET')
  })

  it('a wrong model name and an unreachable server are told apart', async () => {
    fake.behave('no-such-model', { alwaysFail: { status: 404, message: 'model not found' } })
    const missing = await server.owner('POST', '/settings/models/test', model('x', 'no-such-model'))
    expect(missing.json.ok).toBe(false)
    expect(missing.json.message).toMatch(/"no-such-model" or the base URL is not known/)
    const port = await closedPort()
    const away = await server.owner('POST', '/settings/models/test', {
      ...model('x', 'm'),
      baseURL: `http://127.0.0.1:${port}/v1`,
    })
    expect(away.json.ok).toBe(false)
    expect(away.json.message).toMatch(/cannot be reached/)
  })

  it('an unreachable server given by name: its error says why, never the address the name resolved to', async () => {
    const port = await closedPort()
    const away = await server.owner('POST', '/settings/models/test', {
      ...model('x', 'm'),
      baseURL: `http://localhost:${port}/v1`,
    })
    expect(away.json.ok).toBe(false)
    expect(away.json.message).toMatch(/cannot be reached.*ECONNREFUSED/)
    for (const address of ['127.0.0.1', '::1']) expect(away.json.message).not.toContain(address)
  })
})

describe('Ollama detection', () => {
  it('lists the models of a local Ollama, and says so when none answers', async () => {
    const ollama = await startFakeOllama(['qwen2.5:7b', 'llama3.1:8b'])
    const withOllama = await startOwnerServer({ ollamaOrigin: ollama.origin })
    try {
      const found = await withOllama.owner('GET', '/settings/ollama')
      expect(found.json).toMatchObject({
        running: true,
        baseURL: `${ollama.origin}/v1`,
        models: ['llama3.1:8b', 'qwen2.5:7b'],
      })
    } finally {
      await withOllama.close()
      await new Promise((resolve) => ollama.server.close(resolve))
    }
    const port = await closedPort()
    const without = await startOwnerServer({ ollamaOrigin: `http://127.0.0.1:${port}` })
    try {
      const none = await without.owner('GET', '/settings/ollama')
      expect(none.json).toMatchObject({ running: false, models: [] })
      expect(none.json.message).toBe(
        `No Ollama is running on this computer (nothing answers at http://127.0.0.1:${port}). ` +
          'Start it with `ollama serve`.',
      )
    } finally {
      await without.close()
    }
  })
})

describe('writing and search', () => {
  it("t1 checks claims in the writer's English, with their dictionary", async () => {
    /// Each issue of the check as its words and the first suggestion.
    const spelling = async (): Promise<string[]> => {
      const submitted = await call(server, 'POST', '/checks', {
        body: { text: 'Factdesk says the tower is 330 metres tall and its colur is grey.', tiers: ['t1'] },
      })
      expect((await waitForEnd(server, submitted.json.id)).status).toBe('completed')
      const report = await call(server, 'GET', `/checks/${submitted.json.id}/report`)
      const text: string = report.json.text
      return report.json.claims.flatMap(
        (claim: { issues: { charStart: number; charEnd: number; suggestions: string[] }[] }) =>
          claim.issues.map(
            (issue) => `${text.slice(issue.charStart, issue.charEnd)} → ${issue.suggestions[0]}`,
          ),
      )
    }
    // "metres" and "grey" are words of any English; "colur" is corrected in the writer's.
    await server.owner('PATCH', '/settings', { writing: { dialect: 'american', dictionary: [] } })
    expect(await spelling()).toEqual([expect.stringMatching(/^Factdesk → /), 'colur → color'])
    await server.owner('PATCH', '/settings', { writing: { dialect: 'british', dictionary: ['Factdesk'] } })
    expect(await spelling()).toEqual(['colur → colour'])
  })

  it('keeps the dialect and a sorted dictionary without repeats', async () => {
    const res = await server.owner('PATCH', '/settings', {
      writing: { dialect: 'british', dictionary: ['Factdesk', 'colour', 'Factdesk'] },
    })
    expect(res.json.writing).toEqual({
      dialect: 'british',
      dictionary: ['colour', 'Factdesk'],
      findClaims: 'balanced',
    })
    const dialectOnly = await server.owner('PATCH', '/settings', { writing: { dialect: 'canadian' } })
    expect(dialectOnly.json.writing).toEqual({
      dialect: 'canadian',
      dictionary: ['colour', 'Factdesk'],
      findClaims: 'balanced',
    })
  })

  it('finds fewer or more claims in a text as "Find claims" says, keeping the rest of Writing', async () => {
    // Debate sentences, talk (no rules of form): each setting's threshold alone decides.
    const text = readLabelledSentences(TRAINING_FILE)
      .slice(0, 60)
      .map((row) => row.text)
      .join(' ')
    const found = async (findClaims: string): Promise<number> => {
      const saved = await server.owner('PATCH', '/settings', { writing: { findClaims } })
      expect(saved.status).toBe(200)
      expect(saved.json.writing.findClaims).toBe(findClaims)
      const estimate = await call(server, 'POST', '/checks/estimate', { body: { text, tiers: ['t1'] } })
      expect(estimate.status).toBe(200)
      return estimate.json.claimCount as number
    }
    const [fewer, balanced, more] = [await found('fewer'), await found('balanced'), await found('more')]
    expect(fewer).toBeLessThan(balanced)
    expect(balanced).toBeLessThan(more)
    const refused = await server.owner('PATCH', '/settings', { writing: { findClaims: 'all' } })
    expect(refused.status).toBe(400)
    expectEnvelope(refused.json, 'bad_request')
    // Refused whole: the setting in force stays.
    expect((await server.owner('GET', '/settings')).json.writing.findClaims).toBe('more')
    await server.owner('PATCH', '/settings', { writing: { findClaims: 'balanced' } })
  })

  it('saves the search provider and its key, shown only as last4', async () => {
    const res = await server.owner('PATCH', '/settings', {
      search: { provider: 'searxng', baseURL: 'https://searx.example.test', apiKey: 'search-key-9876' },
    })
    expect(res.json.search).toMatchObject({
      provider: 'searxng',
      baseURL: 'https://searx.example.test',
      key: { hasKey: true, last4: '9876' },
    })
    expect(server.engine.settings.keys.search(undefined)).toBe('search-key-9876')
    expect(server.engine.settings.effective().search.provider).toBe('searxng')
  })

  it('a saved search key stays with the provider and address it was saved for', async () => {
    await server.owner('PATCH', '/settings', {
      search: { provider: 'searxng', baseURL: 'https://searx.example.test', apiKey: 'search-key-9876' },
    })
    const kept = await server.owner('PATCH', '/settings', { search: { provider: 'searxng' } })
    expect(kept.json.search.key).toEqual({ hasKey: true, last4: '9876' })
    const moved = await server.owner('PATCH', '/settings', {
      search: { baseURL: 'https://search.example.org' },
    })
    expect(moved.json.search).toMatchObject({ baseURL: 'https://search.example.org', key: { hasKey: false } })
    expect(server.engine.settings.keys.search(undefined)).toBeUndefined()
    await server.owner('PATCH', '/settings', { search: { apiKey: 'search-key-5432' } })
    const brave = await server.owner('PATCH', '/settings', { search: { provider: 'brave' } })
    expect(brave.json.search.key.hasKey).toBe(false)
  })

  it('another provider without a base URL gets its public endpoint; SearXNG must be given one', async () => {
    const brave = await server.owner('PATCH', '/settings', { search: { provider: 'brave' } })
    expect(brave.json.search.baseURL).toBe('https://api.search.brave.com/res/v1/web/search')
    const searxng = await server.owner('PATCH', '/settings', { search: { provider: 'searxng' } })
    expect(searxng.status).toBe(400)
    expect(expectEnvelope(searxng.json, 'bad_request').details).toEqual([
      { field: 'search.baseURL', message: 'required for searxng' },
    ])
    expect((await server.owner('GET', '/settings')).json.search.provider).toBe('brave')
  })
})

describe('search test', () => {
  let search: FakeSearch
  let local: OwnerServer
  beforeAll(async () => {
    search = await new FakeSearch().start()
    search.results = (query) => [{ title: `About ${query}`, url: 'https://example.org/about', snippet: 'x' }]
    local = await startOwnerServer({ config: { web: { allowLocalTargets: true } } })
  })
  afterAll(async () => {
    await local.close()
    await search.close()
  })
  const brave = (extra: Record<string, unknown> = {}) => ({
    provider: 'brave',
    baseURL: search.baseURL('brave'),
    ...extra,
  })

  it('searches once with the key given: the time, and the first results', async () => {
    const res = await local.owner('POST', '/settings/search/test', brave({ apiKey: search.key }))
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      ok: true,
      results: [{ title: 'About fact-checking', url: 'https://example.org/about' }],
    })
    expect(res.json.message).toMatch(
      /^1 result for "fact-checking" in \d+ ms, the first "About fact-checking"\.$/,
    )
    expect(search.requests.at(-1)).toMatchObject({ provider: 'brave', key: search.key, limit: 3 })
  })

  it('uses the saved key when the form sends none, and says in words when a key is refused', async () => {
    await local.owner('PATCH', '/settings', { search: { ...brave(), apiKey: search.key } })
    expect((await local.owner('POST', '/settings/search/test', brave())).json.ok).toBe(true)
    expect(search.requests.at(-1)?.key).toBe(search.key)
    // Not to another address, though: the saved key belongs to the one it was saved with.
    const moved = await local.owner('PATCH', '/settings', {
      search: { baseURL: `${search.origin}/elsewhere` },
    })
    expect(moved.status).toBe(200)
    const asked = search.requests.length
    const keyless = await local.owner('POST', '/settings/search/test', brave())
    expect(keyless.json, JSON.stringify(keyless.json)).toMatchObject({ ok: false })
    expect(search.requests.slice(asked).map((request) => request.key)).not.toContain(search.key)
    await local.owner('PATCH', '/settings', { search: brave() })

    const refused = await local.owner('POST', '/settings/search/test', brave({ apiKey: 'wrong-key-4321' }))
    expect(refused.json).toMatchObject({ ok: false, latencyMs: null, results: [] })
    expect(refused.json.message).toContain('Brave Search refused the API key (HTTP 401)')
    expect(refused.json.message).not.toContain('wrong-key-4321')
    const searxng = await local.owner('POST', '/settings/search/test', {
      provider: 'searxng',
      baseURL: `${search.origin}/nowhere`,
    })
    expect(searxng.json).toMatchObject({ ok: false, results: [] })
    expect(searxng.json.message).toContain('SearXNG search failed: HTTP 404')
  })

  it('follows the address rules of t3: a private or (unless allowed) loopback endpoint is refused (422), not asked', async () => {
    const before = search.requests.length
    const saved = (await server.owner('GET', '/settings')).json.search
    for (const baseURL of ['http://10.0.0.1/w/api.php', `${search.origin}/searxng`]) {
      const res = await server.owner('POST', '/settings/search/test', { provider: 'searxng', baseURL })
      expect(res.status, baseURL).toBe(422)
      const error = expectEnvelope(res.json, 'unprocessable')
      expect(error.message, baseURL).toContain('resolves to a non-public address')
      expect(error.details).toEqual([{ field: 'baseURL', message: expect.stringContaining('non-public') }])
      const save = await server.owner('PATCH', '/settings', { search: { provider: 'searxng', baseURL } })
      expect(save.status, baseURL).toBe(422)
      expect(expectEnvelope(save.json, 'unprocessable').details).toEqual([
        { field: 'search.baseURL', message: expect.stringContaining('non-public') },
      ])
    }
    expect((await server.owner('GET', '/settings')).json.search).toEqual(saved)
    // A name's answers are not told: they would make the test an oracle for what internal names resolve to.
    const byName = `http://localhost:${new URL(search.origin).port}/searxng`
    const res = await server.owner('POST', '/settings/search/test', { provider: 'searxng', baseURL: byName })
    expect(res.json.error.message).toContain('host localhost resolves to a non-public address')
    // The way out for a local SearXNG, and where to take it.
    expect(res.json.error.message).toContain(
      'A search service on this computer (a local SearXNG) needs "web": {"allowLocalTargets": true} in the ' +
        'configuration file given with --config',
    )
    for (const address of ['127.0.0.1', '::1']) expect(res.json.error.message).not.toContain(address)
    expect(search.requests.length).toBe(before)
  })
})

describe('settings persist', () => {
  it('after a restart the models, the writing settings and the keys are still there', async () => {
    const first = await startOwnerServer()
    await first.owner('PATCH', '/settings', {
      models: { panel: [model('panel-a', 'model-a', { apiKey: KEY })], judge: model('judge', 'model-judge') },
      writing: { dialect: 'australian', dictionary: ['arvo'], findClaims: 'more' },
    })
    const { dataDir } = first
    await first.close()
    const second = await startOwnerServer({ dataDir })
    try {
      const res = await second.owner('GET', '/settings')
      expect(res.json.models.panel[0]).toMatchObject({ id: 'panel-a', key: { hasKey: true, last4: 'wxyz' } })
      expect(res.json.writing).toEqual({ dialect: 'australian', dictionary: ['arvo'], findClaims: 'more' })
      expect(second.engine.settings.keys.model('panel-a', undefined)).toBe(KEY)
      const t2 = await call(second, 'POST', '/checks/estimate', {
        body: { text: 'Rome is old.', tiers: ['t2'] },
      })
      expect(t2.status).toBe(200)
      const submitted = await call(second, 'POST', '/checks', {
        body: { documentId: t2.json.documentId, tiers: ['t2'] },
      })
      expect(submitted.status).toBe(202)
    } finally {
      await second.close()
    }
  })
})

describe('deep research follows the saved models', () => {
  it('is refused without models, and accepted once they are saved', async () => {
    // Searches go to the fake model server on this computer (research is accepted only while its search
    // endpoint answers; it answers no search): the run may fail, but never leaves the machine.
    const research = await startOwnerServer({
      config: {
        search: { provider: 'wikipedia', baseURL: `${fake.baseURL}/w/api.php` },
        web: { allowLocalTargets: true },
      },
    })
    try {
      const before = await call(research, 'POST', '/research', {
        body: { text: 'Rome was founded in 753 BC.' },
      })
      expect(before.status).toBe(422)
      await research.owner('PATCH', '/settings', {
        models: { panel: [model('panel-a', 'model-a')], judge: model('judge', 'model-judge') },
      })
      const after = await call(research, 'POST', '/research', {
        body: { text: 'Rome was founded in 753 BC.' },
      })
      expect(after.status).toBe(202)
    } finally {
      await research.close()
    }
  })
})

describe('the source policy, per organization', () => {
  it('is edited in Settings for the organization alone, its sites written as the policy keeps them', async () => {
    const empty = { prefer: [], only: [], never: [] }
    expect((await server.owner('GET', '/settings')).json.sources).toEqual(empty)
    const saved = await server.owner('PATCH', '/settings', {
      sources: { prefer: ['https://Trusted.Example/'], never: ['farm.example', 'FARM.example.'] },
    })
    expect(saved.status).toBe(200)
    expect(Settings.parse(saved.json).sources).toEqual({
      prefer: ['trusted.example'],
      only: [],
      never: ['farm.example'],
    })
    // A list not given stays as it was.
    const only = await server.owner('PATCH', '/settings', {
      sources: { only: ['trusted.example', '192.0.2.7'] },
    })
    expect(only.json.sources).toEqual({
      prefer: ['trusted.example'],
      only: ['trusted.example', '192.0.2.7'],
      never: ['farm.example'],
    })
    const wrong = await server.owner('PATCH', '/settings', { sources: { never: ['example.com/news'] } })
    expect(wrong.status).toBe(400)
    expect(JSON.stringify(expectEnvelope(wrong.json, 'bad_request').details)).toContain('sources.never')
    expect((await server.owner('GET', '/settings')).json.sources.never).toEqual(['farm.example'])
    // Another organization keeps the configuration's policy (here none).
    const { engine } = server
    const other = await engine.admin.createOrganization('Another newsroom', 100)
    const principal = { organizationId: other.id, tokenId: 'tok_other', scope: 'write' as const, owner: true }
    expect(engine.settings.view(principal).sources).toEqual(empty)
    expect(engine.settings.sourcePolicy(other.id)).toEqual(empty)
    expect(engine.settings.sourcePolicy(server.organizationId).never).toEqual(['farm.example'])
    await server.owner('PATCH', '/settings', { sources: empty })
    expect((await server.owner('GET', '/settings')).json.sources).toEqual(empty)
  })
})

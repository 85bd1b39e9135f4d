import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Settings } from '../../../../src/shared/schemas'
import { appPage } from '../../../../src/main/desktop/appPage'
import { createDispatch, type Dispatch } from '../../../../src/main/desktop/dispatch'
import { openEngine, type Engine } from '../../../../src/main/engine/engine'
import {
  fileSecretBox,
  NO_KEYCHAIN,
  refusingSecretBox,
  type SecretBox,
} from '../../../../src/main/engine/base/secrets'
import { databaseOf, onPostgres } from '../../../helpers/database'

const page = appPage(undefined)
const APP = `${page.href}#/`

let dataDir: string
let engine: Engine
let dispatch: Dispatch
/// Stands in for Electron's safeStorage: what the desktop shell injects, recorded.
const sealedBy: string[] = []
const keychain: SecretBox = {
  refusal: null,
  encrypt: (plain) => {
    sealedBy.push('keychain')
    return Buffer.from(Buffer.from(plain, 'utf8').map((byte) => byte ^ 0x5a))
  },
  decrypt: (sealed) => Buffer.from(sealed.map((byte) => byte ^ 0x5a)).toString('utf8'),
}

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'factdesk-settings-'))
  engine = await openEngine({ dataDir, ...(await databaseOf(dataDir)), runJobs: false, secretBox: keychain })
  dispatch = createDispatch(engine, page)
})

afterEach(async () => {
  await engine.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('settings over IPC (the desktop app is the owner)', () => {
  it('reads and saves settings; keys go through the injected secret box', async () => {
    const saved = await dispatch(
      'updateSettings',
      [
        {
          models: {
            panel: [{ id: 'a', provider: 'openai', model: 'gpt-5-mini', apiKey: 'sk-desktop-9999' }],
          },
          writing: { dictionary: ['Factdesk'] },
        },
      ],
      APP,
    )
    expect(saved.ok).toBe(true)
    const settings = Settings.parse((saved as { data: unknown }).data)
    expect(settings.models.panel[0]?.key).toEqual({ hasKey: true, last4: '9999' })
    expect(settings.writing.dictionary).toEqual(['Factdesk'])
    expect(sealedBy).toContain('keychain')
    expect(engine.settings.keys.model('a', undefined)).toBe('sk-desktop-9999')
    expect(settings.keysRefused).toBeNull()
    expect(settings.service.tokenRefused).toBeNull()
  })

  it('refuses arguments outside the contract with the envelope', async () => {
    const result = await dispatch('updateSettings', [{ writing: { dialect: 'klingon' } }], APP)
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_request' } })
    const grant = await dispatch('grantCredits', [{ amount: 0 }], APP)
    expect(grant).toMatchObject({ ok: false, error: { code: 'bad_request' } })
  })

  it('creates, lists and revokes tokens and grants credits', async () => {
    const created = (await dispatch('createToken', [{ scope: 'read', name: 'ci' }], APP)) as any
    expect(created.data.value).toMatch(/^fdk_/)
    const revoked = (await dispatch('revokeToken', [created.data.token.id], APP)) as any
    expect(revoked.data.revokedAt).not.toBeNull()
    const granted = (await dispatch('grantCredits', [{ amount: 5 }], APP)) as any
    expect(granted.data.balance).toBe(1005)
  })
})

// The desktop app keeps its data folder's SQLite, whose key file opens what a keychain-less desktop saved before;
// a team server seals with the database's key and has no keychain to miss.
describe.skipIf(onPostgres)('a desktop without a keychain', () => {
  it('refuses to save a key, in words, and saves nothing of that change; keys saved before still open', async () => {
    await engine.close()
    engine = await openEngine({ dataDir, ...(await databaseOf(dataDir)), runJobs: false })
    await engine.settings.update(await engine.localPrincipal(), {
      models: { panel: [{ id: 'a', provider: 'openai', model: 'gpt-5-mini', apiKey: 'sk-before-1111' }] },
    })
    await engine.close()
    engine = await openEngine({
      ...(await databaseOf(dataDir)),
      dataDir,
      runJobs: false,
      secretBox: refusingSecretBox(fileSecretBox(dataDir), NO_KEYCHAIN),
    })
    dispatch = createDispatch(engine, page)
    expect(engine.settings.keys.model('a', undefined)).toBe('sk-before-1111')
    // Settings can say so before any key is typed.
    const before = Settings.parse(((await dispatch('settings', [], APP)) as { data: unknown }).data)
    expect(before.keysRefused).toBe(NO_KEYCHAIN.keys)
    expect(before.service.tokenRefused).toBe(NO_KEYCHAIN.token)

    const refused = await dispatch(
      'updateSettings',
      [
        {
          models: {
            panel: [
              { id: 'a', provider: 'openai', model: 'gpt-5-mini' },
              { id: 'b', provider: 'openai', model: 'gpt-5', apiKey: 'sk-refused-2222' },
            ],
          },
          writing: { dictionary: ['Factdesk'] },
        },
      ],
      APP,
    )
    expect(refused).toEqual({
      ok: false,
      error: { code: 'unprocessable', message: NO_KEYCHAIN.keys, details: null },
    })
    // The remote service's token is refused in its own words: no environment variable can hold it.
    engine.settings.switches.offerRemoteService()
    const token = await dispatch(
      'updateSettings',
      [
        {
          service: {
            mode: 'remote',
            baseURL: 'https://factdesk.example.org/api/v1',
            token: 'fd_refused_3333',
          },
        },
      ],
      APP,
    )
    expect(token).toEqual({
      ok: false,
      error: { code: 'unprocessable', message: NO_KEYCHAIN.token, details: null },
    })
    expect(readFileSync(join(dataDir, 'factdesk.db')).includes('fd_refused_3333')).toBe(false)
    const settings = Settings.parse(((await dispatch('settings', [], APP)) as { data: unknown }).data)
    expect(settings.models.panel.map((model) => model.id)).toEqual(['a'])
    expect(settings.writing.dictionary).toEqual([])
    expect(readFileSync(join(dataDir, 'factdesk.db')).includes('sk-refused-2222')).toBe(false)

    // A key from the environment needs no keychain.
    const fromEnvironment = await dispatch(
      'updateSettings',
      [
        {
          models: { judge: { id: 'judge', provider: 'openai', model: 'gpt-5', apiKeyEnv: 'OPENAI_API_KEY' } },
        },
      ],
      APP,
    )
    expect(fromEnvironment.ok).toBe(true)
  })
})

describe('the key file of headless mode', () => {
  it('round-trips, refuses tampered data, and keeps one key per data folder', () => {
    const box = fileSecretBox(dataDir)
    const sealed = box.encrypt('sk-headless-1234')
    expect(sealed.includes(Buffer.from('sk-headless'))).toBe(false)
    expect(fileSecretBox(dataDir).decrypt(sealed)).toBe('sk-headless-1234')
    const tampered = Buffer.from(sealed)
    tampered[tampered.length - 1] = (tampered.at(-1) ?? 0) ^ 1
    expect(() => box.decrypt(tampered)).toThrow()
    expect(readFileSync(join(dataDir, 'secret.key'))).toHaveLength(32)
  })

  it('a key file of the wrong size is reported, not silently replaced', () => {
    writeFileSync(join(dataDir, 'secret.key'), 'short')
    expect(() => fileSecretBox(dataDir).encrypt('x')).toThrow(/not a key of 32 bytes/)
  })
})

import { spawn, spawnSync } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { signatureHeader } from '../../../../src/main/engine/webhooks/sign'
import { parseSignatureHeader, verifyWebhook } from '../../../../src/shared/webhooks'
import { closedPort } from '../../../helpers/ports'

const SECRET = 'whsec_current-secret'
const OLD = 'whsec_previous-secret'
const BODY =
  '{"id":"evt_1","type":"check.completed","createdAt":"2026-01-01T00:00:00.000Z","data":{"checkId":"chk_1","status":"completed","claimCount":1,"verdicts":{"supported":1},"completedAt":"2026-01-01T00:00:00.000Z"}}'
const T = 1_767_225_600 // 2026-01-01T00:00:00Z
const NOW = new Date(T * 1000)
const sign = (secret: string, t: number | string, body: string | Buffer = BODY) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex')

afterEach(() => vi.restoreAllMocks())

describe('verifyWebhook', () => {
  it('accepts a header signed with the secret over `<t>.<raw body>`', async () => {
    const header = `t=${T},v1=${sign(SECRET, T)}`
    expect(await verifyWebhook(BODY, header, SECRET, NOW)).toBe(true)
    expect(await verifyWebhook(BODY, header, [SECRET], NOW.getTime())).toBe(true)
    expect(await verifyWebhook(Buffer.from(BODY), header, [OLD, SECRET], NOW)).toBe(true)
  })

  it('step 1: needs exactly one numeric t and at least one v1; other entries are ignored', async () => {
    const v1 = sign(SECRET, T)
    expect(await verifyWebhook(BODY, `v1=${v1},t=${T}`, SECRET, NOW)).toBe(true)
    expect(await verifyWebhook(BODY, ` t=${T} , v0=abc , v1=${v1} `, SECRET, NOW)).toBe(true)
    for (const header of [
      '',
      `v1=${v1}`,
      `t=${T}`,
      `t=${T},v1=`,
      `t=${T},t=${T},v1=${v1}`,
      `t=${T}.5,v1=${v1}`,
      `t=-${T},v1=${v1}`,
      `t=abc,v1=${v1}`,
      `${T},${v1}`,
    ]) {
      expect(await verifyWebhook(BODY, header, SECRET, NOW), header).toBe(false)
    }
    expect(await verifyWebhook(BODY, null, SECRET, NOW)).toBe(false)
    expect(await verifyWebhook(BODY, undefined, SECRET, NOW)).toBe(false)
    expect(parseSignatureHeader(`t=${T},v1=a,v1=b`)).toEqual({ t: String(T), v1: ['a', 'b'] })
  })

  it('steps 2 and 3: one matching v1 among several is enough; no match, a wrong secret or a changed body is not', async () => {
    const good = sign(SECRET, T)
    const other = sign(OLD, T)
    expect(await verifyWebhook(BODY, `t=${T},v1=${other},v1=${good}`, SECRET, NOW)).toBe(true)
    expect(await verifyWebhook(BODY, `t=${T},v1=${good},v1=${other}`, OLD, NOW)).toBe(true)
    expect(await verifyWebhook(BODY, `t=${T},v1=${other}`, SECRET, NOW)).toBe(false)
    expect(await verifyWebhook(BODY, `t=${T},v1=${good}`, 'whsec_wrong', NOW)).toBe(false)
    expect(await verifyWebhook(BODY, `t=${T},v1=${good}`, [], NOW)).toBe(false)
    expect(await verifyWebhook(BODY, `t=${T},v1=${good}`, [''], NOW)).toBe(false)
    expect(await verifyWebhook(`${BODY}\n`, `t=${T},v1=${good}`, SECRET, NOW)).toBe(false)
    expect(await verifyWebhook(BODY.replace('1', '2'), `t=${T},v1=${good}`, SECRET, NOW)).toBe(false)
    expect(await verifyWebhook(BODY, `t=${T - 1},v1=${good}`, SECRET, NOW)).toBe(false)
    expect(await verifyWebhook(BODY, `t=${T},v1=${good.slice(0, 62)}`, SECRET, NOW)).toBe(false)
    expect(await verifyWebhook(BODY, `t=${T},v1=${good.toUpperCase()}`, SECRET, NOW)).toBe(false)
    expect(await verifyWebhook(BODY, `t=${T},v1=${good}00`, SECRET, NOW)).toBe(false)
  })

  it('step 3 compares in constant time, with Web Crypto’s HMAC verify, never as strings', async () => {
    const verify = vi.spyOn(globalThis.crypto.subtle, 'verify')
    expect(await verifyWebhook(BODY, `t=${T},v1=${sign(SECRET, T)}`, SECRET, NOW)).toBe(true)
    expect(verify).toHaveBeenCalledWith(
      'HMAC',
      expect.anything(),
      expect.any(Uint8Array),
      expect.any(Uint8Array),
    )
  })

  it('step 4: refuses a timestamp more than 300 s from now, either way', async () => {
    const header = `t=${T},v1=${sign(SECRET, T)}`
    const at = (seconds: number) => new Date((T + seconds) * 1000)
    for (const seconds of [-300, -1, 0, 1, 299, 300]) {
      expect(await verifyWebhook(BODY, header, SECRET, at(seconds)), String(seconds)).toBe(true)
    }
    for (const seconds of [-301, 301, 3600, -86_400]) {
      expect(await verifyWebhook(BODY, header, SECRET, at(seconds)), String(seconds)).toBe(false)
    }
    expect(await verifyWebhook(BODY, header, SECRET, (T + 300.5) * 1000)).toBe(false)
  })

  it('signs and verifies the UTF-8 bytes of bodies with any characters', async () => {
    const body = JSON.stringify({ id: 'evt_2', note: 'Café – 東京 🗼 e\u0301' })
    const header = `t=${T},v1=${sign(SECRET, T, Buffer.from(body, 'utf8'))}`
    expect(await verifyWebhook(body, header, SECRET, NOW)).toBe(true)
    expect(await verifyWebhook(new TextEncoder().encode(body), header, SECRET, NOW)).toBe(true)
  })

  it('verifies what the engine signs: one v1 per valid secret, in order', async () => {
    const header = signatureHeader(BODY, [SECRET, OLD], T)
    expect(header).toBe(`t=${T},v1=${sign(SECRET, T)},v1=${sign(OLD, T)}`)
    expect(await verifyWebhook(BODY, header, SECRET, NOW)).toBe(true)
    expect(await verifyWebhook(BODY, header, OLD, NOW)).toBe(true)
    expect(await verifyWebhook(BODY, signatureHeader(BODY, [SECRET], T), OLD, NOW)).toBe(false)
  })
})

const python = spawnSync('python3', ['--version']).status === 0
const root = join(import.meta.dirname, '../../../..')
/// The blocks of `language` under a page's webhook verification heading.
const examples = (page: string, heading: string, language: string): string[] => {
  const text = readFileSync(join(root, page), 'utf8')
  const section = text.slice(text.indexOf(heading)).split(/\n## /)[0] ?? ''
  return [...section.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map(
    (m) => m[1] ?? '',
  )
}
const pythonExamples: [page: string, code: string][] = [
  ['README.md', examples('README.md', '### Verifying a webhook', 'python')[0] ?? ''],
  ['docs/api.md', examples('docs/api.md', '### Verifying a signature', 'python')[0] ?? ''],
]

describe('the Python example of the README and of docs/api.md', () => {
  it('is the same function on both pages', () => {
    const [[, readme], [, api]] = pythonExamples as [[string, string], [string, string]]
    expect(readme).toContain('def verify_webhook')
    expect(api).toBe(readme)
  })

  it.skipIf(!python).each(pythonExamples)(
    'in %s gives the same answers as verifyWebhook',
    async (_page, code) => {
      expect(code).toContain('def verify_webhook')
      const good = sign(SECRET, T)
      const cases: { body: string; header: string; secrets: string[]; now: number }[] = [
        { body: BODY, header: `t=${T},v1=${good}`, secrets: [SECRET], now: T },
        { body: BODY, header: `t=${T},v1=${sign(OLD, T)},v1=${good}`, secrets: [SECRET], now: T + 300 },
        { body: BODY, header: `t=${T},v1=${good}`, secrets: [OLD, SECRET], now: T - 300 },
        { body: BODY, header: `t=${T},v1=${good}`, secrets: [SECRET], now: T + 301 },
        { body: BODY, header: `t=${T},v1=${good}`, secrets: [OLD], now: T },
        { body: `${BODY} `, header: `t=${T},v1=${good}`, secrets: [SECRET], now: T },
        { body: BODY, header: `t=${T + 1},v1=${good}`, secrets: [SECRET], now: T },
        { body: BODY, header: `v1=${good}`, secrets: [SECRET], now: T },
        { body: BODY, header: `t=${T}`, secrets: [SECRET], now: T },
        { body: BODY, header: `t=${T},v1=é${good.slice(1)}`, secrets: [SECRET], now: T },
      ]
      const program = `${code}
import json, sys
cases = json.load(sys.stdin)
print(json.dumps([verify_webhook(c["body"].encode(), c["header"], c["secrets"], c["now"]) for c in cases]))
`
      const run = spawnSync('python3', ['-c', program], { input: JSON.stringify(cases), encoding: 'utf8' })
      expect(run.stderr).toBe('')
      const expected = await Promise.all(
        cases.map((c) => verifyWebhook(c.body, c.header, c.secrets, c.now * 1000)),
      )
      expect(expected).toEqual([true, true, true, false, false, false, false, false, false, false])
      expect(JSON.parse(run.stdout)).toEqual(expected)
    },
  )
})

describe('the TypeScript receiver of docs/api.md', () => {
  it('acknowledges a signed delivery with 204 and refuses a forged one with 400', async () => {
    const code = examples('docs/api.md', '### Verifying a signature', 'ts')[0] ?? ''
    expect(code).toContain("from './src/shared/webhooks'")
    // As saved in the repository's folder: the same import, resolved from a temporary file.
    const dir = mkdtempSync(join(tmpdir(), 'factdesk-receiver-'))
    const file = join(dir, 'receiver.ts')
    writeFileSync(
      file,
      code.replace("'./src/shared/webhooks'", JSON.stringify(join(root, 'src/shared/webhooks.ts'))),
    )
    const port = await closedPort()
    const receiver = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      env: { ...process.env, PORT: String(port), FACTDESK_WEBHOOK_SECRET: SECRET },
      stdio: 'ignore',
    })
    try {
      const deliver = async (signature: string): Promise<number> => {
        for (let tries = 0; ; tries++) {
          try {
            const headers = { 'Content-Type': 'application/json', 'X-SVC-Signature': signature }
            return (await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers, body: BODY })).status
          } catch (error) {
            if (tries > 100) throw error
            await new Promise((resolve) => setTimeout(resolve, 100))
          }
        }
      }
      const now = Math.floor(Date.now() / 1000)
      expect(await deliver(`t=${now},v1=${sign(SECRET, now)}`)).toBe(204)
      expect(await deliver(`t=${now},v1=${sign(OLD, now)}`)).toBe(400)
      expect(await deliver(`t=${now - 301},v1=${sign(SECRET, now - 301)}`)).toBe(400)
    } finally {
      receiver.kill()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

import { spawnSync } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { signatureHeader } from '../../../../src/main/engine/webhooks/sign'
import { parseSignatureHeader, verifyWebhook } from '../../../../src/shared/webhooks'

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

describe('the README’s Python example', () => {
  it.skipIf(!python)('gives the same answers as verifyWebhook', async () => {
    const readme = readFileSync(join(import.meta.dirname, '../../../../README.md'), 'utf8')
    const section = readme.slice(readme.indexOf('### Verifying a webhook'))
    const code = /```python\n([\s\S]*?)```/.exec(section)?.[1]
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
  })
})

import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openEngine } from '../../src/main/engine/engine'
import { Report } from '../../src/shared/schemas'
import { exited, factdesk, startFactdesk } from '../helpers/cli'
import { tempDir } from '../helpers/server'

describe('factdesk org, token and credits', () => {
  it('creates an organization and a token, lists, grants and revokes', async () => {
    const dir = tempDir()
    const org = await factdesk(['org', 'create', 'Acme Press', '--credits', '50', '--data-dir', dir])
    expect(org.code).toBe(0)
    expect(org.stdout).toMatch(/^org_[0-9a-z]+\n$/)
    const orgId = org.stdout.trim()

    const created = await factdesk([
      'token',
      'create',
      '--scope',
      'write',
      '--org',
      orgId,
      '--name',
      'ci',
      '--data-dir',
      dir,
    ])
    expect(created.code).toBe(0)
    expect(created.stdout).toMatch(/^fdk_[A-Za-z0-9_-]{43}\n$/)
    const value = created.stdout.trim()

    const list = await factdesk(['token', 'list', '--data-dir', dir])
    expect(list.stdout).toMatch(/ID +ORGANIZATION +SCOPE +STATE/)
    expect(list.stdout).toContain(orgId)
    expect(list.stdout).not.toContain(value)

    const granted = await factdesk(['credits', 'grant', '--org', orgId, '25', '--data-dir', dir])
    expect(granted.stdout.trim()).toBe('balance 75')

    const engine = openEngine({ dataDir: dir })
    const principal = engine.service.authenticate(value)
    expect(engine.service.credits(principal).balance).toBe(75)
    await engine.close()

    const tokenId =
      list.stdout
        .split('\n')
        .find((line) => line.includes(orgId))
        ?.split(/\s+/)[0] ?? ''
    expect((await factdesk(['token', 'revoke', tokenId, '--data-dir', dir])).code).toBe(0)
    const after = openEngine({ dataDir: dir })
    expect(() => after.service.authenticate(value)).toThrow(/not valid/)
    await after.close()
    expect((await factdesk(['token', 'list', '--data-dir', dir])).stdout).toMatch(/revoked 20/)
  })

  it('a token without --org belongs to the default organization with its 1,000 credits', async () => {
    const dir = tempDir()
    const value = (await factdesk(['token', 'create', '--scope', 'read', '--data-dir', dir])).stdout.trim()
    const engine = openEngine({ dataDir: dir })
    const principal = engine.service.authenticate(value)
    expect(principal.scope).toBe('read')
    expect(engine.service.me(principal).organization.name).toBe('Default organization')
    expect(engine.service.credits(principal).balance).toBe(1000)
    await engine.close()
  })

  it('FACTDESK_DATA_DIR chooses the data folder', async () => {
    const dir = tempDir()
    process.env.FACTDESK_DATA_DIR = dir
    try {
      expect((await factdesk(['org', 'create', 'Env'])).code).toBe(0)
    } finally {
      delete process.env.FACTDESK_DATA_DIR
    }
    expect(existsSync(join(dir, 'factdesk.db'))).toBe(true)
  })

  it('mistakes get a readable message and a non-zero exit', async () => {
    const dir = tempDir()
    const cases: [string[], number, RegExp][] = [
      [['token', 'create', '--scope', 'admin'], 2, /--scope must be read or write/],
      [['token', 'create', '--scope', 'read', '--org', 'org_nope'], 1, /There is no organization org_nope/],
      [['credits', 'grant', '--org', 'x', 'ten'], 2, /AMOUNT must be a whole number/],
      [['credits', 'grant', '--org', 'x', '10'], 1, /There is no organization x/],
      [['org', 'create'], 2, /Usage: factdesk org create/],
      [['token', 'revoke', 'tok_nope'], 1, /There is no token tok_nope/],
      [['launch'], 2, /Unknown command "launch"/],
      [['serve', '--port', 'eighty'], 2, /--port must be a whole number/],
      [['serve', '--bogus'], 2, /Unknown option '--bogus'/],
    ]
    for (const [args, code, message] of cases) {
      const result = await factdesk([...args, '--data-dir', dir])
      expect(result.code, args.join(' ')).toBe(code)
      expect(result.stderr, args.join(' ')).toMatch(message)
    }
  })

  it('an invalid config file is named with the member at fault', async () => {
    const dir = tempDir()
    const config = join(dir, 'bad.json')
    writeFileSync(config, '{"pricing":{"t3":"ten"}}')
    const result = await factdesk(['token', 'list', '--data-dir', dir, '--config', config])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/pricing\.t3: .*expected number/)
  })
})

describe('factdesk serve', () => {
  it('prints one line when ready, answers on 127.0.0.1, and stops cleanly on SIGTERM', async () => {
    const dir = tempDir()
    const token = (await factdesk(['token', 'create', '--scope', 'read', '--data-dir', dir])).stdout.trim()
    const { child, line } = await startFactdesk(['serve', '--port', '0', '--data-dir', dir])
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1$/)
    const base = line.replace('listening on ', '')
    const me = await fetch(`${base}/me`, { headers: { Authorization: `Bearer ${token}` } })
    expect(me.status).toBe(200)
    expect(existsSync(join(dir, 'engine.lock'))).toBe(true)

    const second = await factdesk(['serve', '--port', '0', '--data-dir', dir])
    expect(second.code).toBe(1)
    expect(second.stderr).toMatch(/in use by another Factdesk engine/)

    child.kill('SIGTERM')
    expect(await exited(child)).toBe(0)
    expect(existsSync(join(dir, 'engine.lock'))).toBe(false)
  })
})

describe('factdesk check', () => {
  it('runs a t1 check of a file and prints a readable report, or the report JSON', async () => {
    const dir = tempDir()
    const file = join(dir, 'article.md')
    writeFileSync(file, '# Paris\n\nThe letter was recieved in 1932 by the mayor of Paris.\n')
    const readable = await factdesk(['check', file, '--tiers', 't1', '--data-dir', join(dir, 'data')])
    expect(readable.code).toBe(0)
    expect(readable.stderr).toMatch(/1 claim, 1 credits \(balance 1000\)/)
    expect(readable.stdout).toMatch(/^article\.md: 1 claims, t1, completed \(charged 1, refunded 0\)/)
    expect(readable.stdout).toContain('1. "The letter was recieved in 1932 by the mayor of Paris."')
    expect(readable.stdout).toMatch(/t1: issues/)
    expect(readable.stdout).toMatch(/"recieved" → "received"/)

    const json = await factdesk(['check', file, '--tiers', 't1', '--json', '--data-dir', join(dir, 'data')])
    expect(json.code).toBe(0)
    const report = Report.parse(JSON.parse(json.stdout))
    expect(report.check).toMatchObject({ status: 'completed', name: 'article.md', claimCount: 1 })
    expect(report.claims[0]?.consensus.t1?.verdict).toBe('issues')
    expect(report.summary.verdicts).toEqual({ issues: 1 })
  }, 60_000)
})

import { join } from 'node:path'
import Database from 'libsql'
import { describe, expect, it } from 'vitest'
import { exited, factdesk, startFactdesk } from '../../../helpers/cli'
import { call, startServer, tempDir, waitForEnd } from '../../../helpers/server'
import { onPostgres } from '../../../helpers/database'
import { GatedTier } from '../../../helpers/tiers'

const CLAIMS = 3000
const text = Array.from(
  { length: CLAIMS },
  (_, i) => `Crate ${i + 1} weighs ${(i % 90) + 10} kilograms.`,
).join(' ')

async function api(base: string, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(base + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return res.json()
}

describe('a crash in the middle of a check', () => {
  it('SIGKILL, restart: the check completes with every consensus, nothing done twice, nothing charged or refunded twice', async () => {
    const dir = tempDir()
    const org = (
      await factdesk(['org', 'create', 'Crash test', '--credits', '10000', '--data-dir', dir])
    ).stdout.trim()
    const token = (
      await factdesk(['token', 'create', '--scope', 'write', '--org', org, '--data-dir', dir])
    ).stdout.trim()

    const first = await startFactdesk(['serve', '--port', '0', '--data-dir', dir])
    let base = first.line.replace('listening on ', '')
    const check = await api(base, token, 'POST', '/checks', { text, tiers: ['t1'] })
    expect(check.claimCount).toBeGreaterThan(CLAIMS / 2)
    let done = 0
    for (;;) {
      done = (await api(base, token, 'GET', `/checks/${check.id}`)).progress.claimsDone.t1
      if (done > 0) break
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    first.child.kill('SIGKILL')
    await exited(first.child)
    expect(done).toBeLessThan(check.claimCount)

    const second = await startFactdesk(['serve', '--port', '0', '--data-dir', dir])
    base = second.line.replace('listening on ', '')
    let status = ''
    for (let i = 0; i < 1200 && !['completed', 'failed'].includes(status); i++) {
      status = (await api(base, token, 'GET', `/checks/${check.id}`)).status
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(status).toBe('completed')
    const report = await api(base, token, 'GET', `/checks/${check.id}/report`)
    expect(report.claims).toHaveLength(check.claimCount)
    for (const claim of report.claims) {
      expect(claim.evaluations).toHaveLength(1)
      expect(claim.consensus.t1).toBeDefined()
    }
    expect(report.summary.done.t1).toBe(check.claimCount)
    expect(report.check.credits).toEqual({ charged: check.claimCount, refunded: 0 })
    expect((await api(base, token, 'GET', '/credits')).balance).toBe(10000 - check.claimCount)
    second.child.kill('SIGTERM')
    expect(await exited(second.child)).toBe(0)
  }, 120_000)
})

// The ending is undone in the SQLite file itself.
describe.runIf(!onPostgres)('a crash between a check’s last unit and its ending', () => {
  it('the next start ends the check', async () => {
    const dataDir = tempDir()
    const first = await startServer({ dataDir, tiers: new Map([['t1', new GatedTier(true)]]) })
    const check = (
      await call(first, 'POST', '/checks', {
        body: { text: 'The Eiffel Tower is 330 meters tall.', tiers: ['t1'] },
      })
    ).json
    expect((await waitForEnd(first, check.id)).status).toBe('completed')
    await first.close()
    // Every unit is done but the ending never happened: as if the process died right between the two.
    const db = new Database(join(dataDir, 'factdesk.db'))
    db.prepare("UPDATE checks SET status = 'running', completed_at = NULL WHERE id = ?").run(check.id)
    db.close()

    const second = await startServer({ dataDir, tiers: new Map([['t1', new GatedTier(true)]]) })
    const ended = (await call(second, 'GET', `/checks/${check.id}`)).json
    expect(ended.status).toBe('completed')
    expect(ended.credits.refunded).toBe(0)
    await second.close()
  })
})

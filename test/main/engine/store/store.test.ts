import { spawn, spawnSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import Database from 'libsql'
import { describe, expect, it } from 'vitest'
import { openEngine } from '../../../../src/main/engine/engine'
import { Store } from '../../../../src/main/engine/store'
import { DataFolderLockedError, lockDataFolder } from '../../../../src/main/engine/store/lock'
import { MIGRATIONS } from '../../../../src/main/engine/store/migrations'
import { tempDir } from '../../../helpers/server'
import { describeStores } from '../../../helpers/stores'

describe('the store’s SQLite file', () => {
  it('migrates an empty folder to the latest schema, in WAL mode', async () => {
    const dir = tempDir()
    await (await Store.open(dir)).close()
    const db = new Database(join(dir, 'factdesk.db'))
    const version = db.prepare('PRAGMA user_version').get() as { user_version: number }
    expect(version.user_version).toBe(MIGRATIONS.length)
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal')
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
        name: string
      }[]
    ).map((t) => t.name)
    expect(tables).toEqual(
      expect.arrayContaining(['organizations', 'tokens', 'ledger_entries', 'webhook_secrets']),
    )
    db.close()
  })

  it('keeps a new data folder and its database readable by their owner only', async () => {
    const dir = join(tempDir(), 'new folder')
    const engine = await openEngine({ dataDir: dir, runJobs: true })
    try {
      await engine.localPrincipal()
      expect(statSync(dir).mode & 0o777).toBe(0o700)
      for (const file of ['factdesk.db', 'factdesk.db-wal', 'factdesk.db-shm'])
        expect(statSync(join(dir, file)).mode & 0o777, file).toBe(0o600)
    } finally {
      await engine.close()
    }
  })

  it('refuses a folder written by a newer schema', async () => {
    const dir = tempDir()
    await (await Store.open(dir)).close()
    const db = new Database(join(dir, 'factdesk.db'))
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length + 1}`)
    db.close()
    await expect(Store.open(dir)).rejects.toThrow(/newer Factdesk/)
  })
})

describeStores('the store', (kind) => {
  it('reopening keeps the data and creates no second default organization', async () => {
    const { dataDir, database } = await kind.place()
    const first = await openEngine({ dataDir, database })
    const organization = await first.admin.defaultOrganization()
    const { value } = await first.admin.createToken('read', organization.id, 'kept')
    await first.admin.grantCredits(organization.id, 5)
    await first.close()

    const second = await openEngine({ dataDir, database })
    expect(await second.admin.defaultOrganization()).toEqual(organization)
    const principal = await second.service.authenticate(value)
    expect((await second.service.credits(principal)).balance).toBe(1005)
    await second.close()
  })

  it('closes once, however often it is closed', async () => {
    const store = await (await kind.place()).open()
    await Promise.all([store.close(), store.close()])
    await store.close()
  })

  it('rolls back a failed transaction completely', async () => {
    const store = await (await kind.place()).open()
    const organization = { id: 'org_rollback', name: 'Half', createdAt: '2026-01-01T00:00:00.000Z' }
    await expect(
      store.transaction(
        async (tx) => {
          await tx.organizations.insert(organization, false)
          await tx.ledger.record(organization.id, 'grant', 10, null, organization.createdAt)
          await tx.ledger.record(organization.id, 'charge', 11, null, organization.createdAt)
        },
        { lockOrg: organization.id },
      ),
    ).rejects.toThrow(/does not cover/)
    expect(await store.organizations.get(organization.id)).toBeNull()
    expect(await store.ledger.balance(organization.id)).toBe(0)
    await store.close()
  })
})

describe('space of deleted rows', () => {
  const autoVacuum = (file: string): number => {
    const db = new Database(file)
    const mode = (db.prepare('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum
    db.close()
    return Number(mode)
  }

  it('is given back incrementally, by a new database and by one from before once it is opened', async () => {
    const fresh = tempDir()
    await (await Store.open(fresh)).close()
    expect(autoVacuum(join(fresh, 'factdesk.db'))).toBe(2)

    // A database as an earlier version made it: every table, no auto-vacuum.
    const old = tempDir()
    const file = join(old, 'factdesk.db')
    const db = new Database(file)
    db.exec('PRAGMA journal_mode = WAL')
    for (const sql of MIGRATIONS) db.exec(sql)
    db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`)
    db.close()
    expect(autoVacuum(file)).toBe(0)
    await (await Store.open(old)).close()
    expect(autoVacuum(file)).toBe(2)
  })
})

describe('closing the store', () => {
  it('leaves the database file whole: the write-ahead log is folded back into it', async () => {
    const dir = tempDir()
    const engine = await openEngine({ dataDir: dir, runJobs: true })
    await engine.admin.createToken('write', (await engine.admin.defaultOrganization()).id, 'backup')
    await engine.close()
    const wal = join(dir, 'factdesk.db-wal')
    expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0)
    // The file alone, as a backup copies it, holds the token.
    const copy = join(tempDir(), 'copy.db')
    copyFileSync(join(dir, 'factdesk.db'), copy)
    const db = new Database(copy)
    expect(db.prepare("SELECT count(*) AS n FROM tokens WHERE name = 'backup'").get()).toMatchObject({ n: 1 })
    db.close()
  })
})

/// A process's state letter as `ps` shows it (Z: a zombie), or null when there is no such process.
function processState(pid: number): string | null {
  const ps = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' })
  return ps.status === 0 ? ps.stdout.trim().charAt(0) : null
}

describe('the data-folder lock', () => {
  it('a second engine that runs jobs on the same folder gets a clear error; read-only tools still work', async () => {
    const dir = tempDir()
    const first = await openEngine({ dataDir: dir, runJobs: true })
    await expect(openEngine({ dataDir: dir, runJobs: true })).rejects.toThrow(DataFolderLockedError)
    await expect(openEngine({ dataDir: dir, runJobs: true })).rejects.toThrow(
      /in use by another Factdesk engine \(process \d+\)/,
    )
    const cli = await openEngine({ dataDir: dir })
    expect((await cli.admin.defaultOrganization()).id).toBe((await first.admin.defaultOrganization()).id)
    await cli.close()
    await first.close()
    const again = await openEngine({ dataDir: dir, runJobs: true })
    await again.close()
    expect(existsSync(join(dir, 'engine.lock'))).toBe(false)
  })

  it('is held across processes, and a lock left by a killed process is taken over', async () => {
    const dir = tempDir()
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import('${join(process.cwd(), 'src/main/engine/store/lock.ts')}').then(m => { m.lockDataFolder(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000) })`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve())
      child.once('exit', (code) => reject(new Error(`child exited ${code}`)))
    })
    expect(() => lockDataFolder(dir)).toThrow(new RegExp(`process ${child.pid}`))
    child.kill('SIGKILL')
    await new Promise((resolve) => child.once('exit', resolve))
    expect(existsSync(join(dir, 'engine.lock'))).toBe(true) // SIGKILL leaves it behind
    const release = lockDataFolder(dir)
    release()
  })

  it.runIf(process.platform !== 'win32')(
    'a lock left by a killed process that its parent has not reaped yet (a zombie) is taken over',
    async () => {
      const dir = tempDir()
      const engine = `import('${join(process.cwd(), 'src/main/engine/store/lock.ts')}').then(m => { m.lockDataFolder(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000) })`
      // The shell starts the lock holder, says its pid, and becomes `sleep`, which never reaps it.
      const parent = spawn(
        'sh',
        ['-c', `"${process.execPath}" --import tsx -e "$ENGINE" & echo "pid $!"; exec sleep 120`],
        { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ENGINE: engine } },
      )
      try {
        const holder = await new Promise<number>((resolve, reject) => {
          let said = ''
          parent.stdout.on('data', (chunk: Buffer) => {
            said += chunk.toString()
            const pid = /pid (\d+)/.exec(said)?.[1]
            if (pid && said.includes('locked')) resolve(Number(pid))
          })
          parent.once('exit', (code) => reject(new Error(`parent exited ${code}`)))
        })
        expect(() => lockDataFolder(dir)).toThrow(new RegExp(`process ${holder}`))
        process.kill(holder, 'SIGKILL')
        // Until its parent reaps it, kill(pid, 0) still finds it.
        await expect.poll(() => processState(holder), { timeout: 10_000 }).toBe('Z')
        expect(() => process.kill(holder, 0)).not.toThrow()
        const release = lockDataFolder(dir)
        release()
      } finally {
        parent.kill('SIGKILL')
      }
    },
  )

  it('treats an unreadable lock file as held while it is new, and as stale once it is old', () => {
    const dir = tempDir()
    const file = join(dir, 'engine.lock')
    writeFileSync(file, '')
    expect(() => lockDataFolder(dir)).toThrow(DataFolderLockedError)
    const old = new Date(Date.now() - 60_000)
    utimesSync(file, old, old)
    lockDataFolder(dir)()
  })

  it("takes over a lock under this very process's pid (a container's PID 1 after a crash)", () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'engine.lock'), JSON.stringify({ pid: process.pid, host: hostname() }))
    const release = lockDataFolder(dir)
    expect(JSON.parse(readFileSync(join(dir, 'engine.lock'), 'utf8')).pid).toBe(process.pid)
    release()
    expect(readdirSync(dir)).toEqual([])
  })

  it('is held by one of several processes starting at the same moment over a stale lock', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'engine.lock'), JSON.stringify({ pid: 2 ** 22 + 7, host: hostname() }))
    const at = Date.now() + 4000
    const children = Array.from({ length: 6 }, () =>
      spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          '-e',
          `import('${join(process.cwd(), 'src/main/engine/store/lock.ts')}').then(m => setTimeout(() => { let said = 'held'; try { m.lockDataFolder(${JSON.stringify(dir)}) } catch { said = 'refused' } console.log(said); setTimeout(() => process.exit(0), 1500) }, ${at} - Date.now()))`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      ),
    )
    const said = await Promise.all(
      children.map(
        (child) =>
          new Promise<string>((resolve) => {
            let out = ''
            child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
            child.once('exit', () => resolve(out.trim()))
          }),
      ),
    )
    expect(said.filter((each) => each === 'held')).toHaveLength(1)
    expect(said.filter((each) => each === 'refused')).toHaveLength(5)
  })
})

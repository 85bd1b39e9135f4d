import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync, type BigIntStats } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'

/// Another engine runs jobs on this data folder.
export class DataFolderLockedError extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The data folder ${dataDir} is in use by another Factdesk engine (process ${pid}). ` +
        `Stop that one first, or give this one another --data-dir (the lock is ${join(dataDir, 'engine.lock')}).`,
    )
    this.name = 'DataFolderLockedError'
  }
}

/// The locks this process holds: a lock under its pid that is not one of them was left by an earlier process.
const held = new Set<string>()

/// How old an unreadable lock file must be to count as left behind.
const UNREADABLE_STALE_MS = 10_000

interface Holder {
  pid: number
  host: string
}

/// Whether process `pid` is still running. kill(pid, 0) finds a process that has ended as long as its parent has
/// not reaped it (a zombie, right after a kill -9), so the kernel is asked for its state as well.
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    // EPERM: another user's process, alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  return !hasEnded(pid)
}

/// Whether process `pid`, which kill(pid, 0) still finds, has in fact ended: a zombie (or dead) in Linux's
/// /proc/PID/stat, else by `ps` (macOS, the BSDs). Windows has no zombies: a process that ended is gone.
function hasEnded(pid: number): boolean {
  if (process.platform === 'win32') return false
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      // "PID (COMMAND) STATE …", where the command may hold spaces and parentheses.
      return /^[ZXx]/.test(stat.slice(stat.lastIndexOf(')') + 2))
    } catch {
      return true // gone since kill found it
    }
  }
  const ps = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' })
  if (ps.error) return false // no way to tell: as kill found it
  return ps.status !== 0 || /^\s*Z/.test(ps.stdout)
}

function readHolder(file: string): Holder | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Holder
  } catch {
    return null
  }
}

/// Takes the data folder's lock so that two engines never run jobs on one folder at once. The lock file appears
/// whole (written beside it, then linked into place), so a starter never reads it half-written. A lock left by a
/// process that died (crash, SIGKILL), or by an earlier run under this very pid (a container's PID 1 restarted),
/// is taken over. Only the holder of a second lock, `engine.lock.break`, removes a stale lock, and only while it
/// is still the very file found stale: two starters seeing one stale lock cannot remove each other's fresh one.
/// Returns the function that releases it.
export function lockDataFolder(dataDir: string): () => void {
  const file = join(dataDir, 'engine.lock')
  const me: Holder = { pid: process.pid, host: hostname() }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (placeLock(file, me)) {
      held.add(file)
      const release = (): void => {
        if (readHolder(file)?.pid === me.pid) unlinkSync(file)
        held.delete(file)
        process.off('exit', release)
      }
      process.on('exit', release)
      return release
    }
    const seen = statOf(file)
    const holder = readHolder(file)
    if (!seen) continue
    // A holder on another host (a shared folder) cannot be checked: treat it as alive. A file that cannot be read
    // (half-written by an older version that died) is stale once it is some seconds old.
    const stale =
      holder === null
        ? Date.now() - Number(seen.mtimeMs) > UNREADABLE_STALE_MS
        : holder.host === me.host && (holder.pid === me.pid ? !held.has(file) : !isAlive(holder.pid))
    if (!stale) throw new DataFolderLockedError(dataDir, holder?.pid ?? 0)
    removeStale(file, seen, me)
  }
  throw new DataFolderLockedError(dataDir, readHolder(file)?.pid ?? 0)
}

/// Tries of `lockDataFolder`: a starter that finds another removing a stale lock waits a little and tries again.
const MAX_ATTEMPTS = 200
const RETRY_MS = 10

/// Removes the lock file found stale (`seen`) if it is still in place, holding `engine.lock.break` meanwhile; a
/// break lock left by a starter that died in those few microseconds is itself removed once it is a second old.
function removeStale(file: string, seen: BigIntStats, me: Holder): void {
  const breaker = `${file}.break`
  if (!placeLock(breaker, me)) {
    const left = statOf(breaker)
    if (left && Date.now() - Number(left.mtimeMs) > BREAKER_STALE_MS) {
      try {
        unlinkSync(breaker)
      } catch {
        // removed meanwhile
      }
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS)
    return
  }
  try {
    // No one else removes anything now, and a lock cannot be placed where one is. A fresh lock may reuse the
    // removed one's inode number, but not its change time (to the nanosecond).
    const now = statOf(file)
    if (now && now.ino === seen.ino && now.ctimeNs === seen.ctimeNs) unlinkSync(file)
  } finally {
    unlinkSync(breaker)
  }
}

/// How old a break lock must be to count as left by a starter that died while it held it.
const BREAKER_STALE_MS = 1000

/// Creates the lock file holding `me`, whole, unless one exists.
function placeLock(file: string, me: Holder): boolean {
  const written = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.new`
  writeFileSync(written, JSON.stringify(me))
  try {
    linkSync(written, file)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return false
  } finally {
    unlinkSync(written)
  }
}

const statOf = (file: string): BigIntStats | null => {
  try {
    return statSync(file, { bigint: true })
  } catch {
    return null
  }
}

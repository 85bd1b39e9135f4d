import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
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

interface Holder {
  pid: number
  host: string
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function readHolder(file: string): Holder | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Holder
  } catch {
    return null
  }
}

/// Takes the data folder's lock so that two engines never run jobs on one folder at once. A lock left by a
/// process that died (crash, SIGKILL) is taken over. Returns the function that releases it.
export function lockDataFolder(dataDir: string): () => void {
  const file = join(dataDir, 'engine.lock')
  const me: Holder = { pid: process.pid, host: hostname() }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx')
      writeSync(fd, JSON.stringify(me))
      closeSync(fd)
      const release = (): void => {
        if (readHolder(file)?.pid === me.pid) unlinkSync(file)
        process.off('exit', release)
      }
      process.on('exit', release)
      return release
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = readHolder(file)
      // A holder on another host (a shared folder) cannot be checked: treat it as alive.
      if (holder && (holder.host !== me.host || isAlive(holder.pid))) {
        throw new DataFolderLockedError(dataDir, holder.pid)
      }
      // Stale: its process is gone. Remove it and try once more (another starter may win that race).
      try {
        unlinkSync(file)
      } catch {
        // already removed by a concurrent starter
      }
    }
  }
  throw new DataFolderLockedError(dataDir, readHolder(file)?.pid ?? 0)
}

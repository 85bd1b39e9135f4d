import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { open, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/// Writes `text` (UTF-8) to `path` so that a crash at any moment leaves either the old file or the new one,
/// never a part of either: the text goes to a temporary file beside it, is flushed to the disk, and the
/// temporary file is renamed over the target (atomic on one file system); then the folder is flushed so the
/// rename itself survives a power cut. The file keeps its permissions.
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const folder = dirname(path)
  const temporary = join(folder, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`)
  const mode = await stat(path).then(
    (info) => info.mode & 0o777,
    () => 0o644,
  )
  const file = await open(temporary, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, mode)
  try {
    await file.writeFile(text, 'utf8')
    await file.sync()
  } catch (error) {
    await file.close()
    await rm(temporary, { force: true })
    throw error
  }
  await file.close()
  try {
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  await syncFolder(folder)
}

// Not every system lets a folder be opened for flushing (Windows); there the rename is as durable as it gets.
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, constants.O_RDONLY).catch(() => null)
  if (!handle) return
  try {
    await handle.sync().catch(() => undefined)
  } finally {
    await handle.close()
  }
}

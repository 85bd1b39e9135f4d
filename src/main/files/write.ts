import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { access, open, realpath, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/// Writes `text` (UTF-8) to `path` so that a crash at any moment leaves either the old file or the new one,
/// never a part of either: the text goes to a temporary file beside it, is flushed to the disk, and the
/// temporary file is renamed over the target (atomic on one file system); then the folder is flushed so the
/// rename itself survives a power cut. The file keeps its permissions. A symbolic link is written through (the
/// file it points to changes, the link stays), and a file without write permission is refused as writing it in
/// place would be (EACCES): renaming over it needs only the folder's permission, which would ignore the writer's
/// choice to protect it.
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const target = await realpath(path).catch(() => path)
  const existing = await stat(target).catch(() => null)
  const writable = existing
    ? (existing.mode & 0o222) !== 0 &&
      (await access(target, constants.W_OK).then(
        () => true,
        () => false,
      ))
    : true
  if (!writable) {
    throw Object.assign(new Error(`EACCES: permission denied, open '${target}'`), {
      code: 'EACCES',
      path: target,
    })
  }
  const mode = existing ? existing.mode & 0o777 : 0o644
  const folder = dirname(target)
  const temporary = join(folder, `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`)
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
    await rename(temporary, target)
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

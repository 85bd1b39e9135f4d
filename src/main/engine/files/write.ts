import { randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { access, type FileHandle, open, realpath, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

/// Writes `text` (UTF-8) to `path` so that a crash at any moment leaves either the old file or the new one,
/// never a part of either: the text goes to a temporary file beside it, is flushed to the disk, and the
/// temporary file is renamed over the target (atomic on one file system); then the folder is flushed so the
/// rename itself survives a power cut. The file keeps its permissions. A symbolic link is written through (the
/// file it points to changes, the link stays), and a file without write permission is refused as writing it in
/// place would be (EACCES): renaming over it needs only the folder's permission, which would ignore the writer's
/// choice to protect it.
///
/// A file with several hard links is written in place instead (as vim's `backupcopy=auto` does), since a rename
/// would give only this name the new text and leave the other names on the old one. It is as safe as that
/// allows: the flushed temporary file stays beside it until the file itself is written and flushed, so a crash
/// in the middle leaves the whole new text there to recover (and the draft in the store holds it anyway).
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
  const dropTemporary = async (error: unknown): Promise<never> => {
    await rm(temporary, { force: true })
    throw error
  }
  await writeFlushed(
    await open(temporary, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, mode),
    text,
  ).catch(dropTemporary)
  if (existing && existing.nlink > 1) {
    const file = await open(target, constants.O_WRONLY).catch(dropTemporary)
    // The copy must be in the folder for good before the file is half written; a failure from here on leaves
    // it there, as the file may be half written.
    await syncFolder(folder)
    await writeFlushed(file, text)
    await rm(temporary)
  } else {
    await rename(temporary, target).catch(dropTemporary)
  }
  await syncFolder(folder)
}

/// Writes `text` over the start of `file`, cuts what is left of a longer old text, flushes it to the disk and
/// closes it.
async function writeFlushed(file: FileHandle, text: string): Promise<void> {
  try {
    const bytes = Buffer.from(text, 'utf8')
    await file.writeFile(bytes)
    await file.truncate(bytes.length)
    await file.sync()
  } finally {
    await file.close()
  }
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

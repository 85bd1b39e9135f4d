import { randomUUID } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/// Hands `print` the HTML export as the file:// URL of a file of its own in `folder` (a subfolder of the data
/// folder), removed once printed, also when printing fails. Not a data: URL: Chromium caps URLs at about 2 MB,
/// and the report of a long text with thousands of claims is larger.
export async function printFromFile<T>(
  html: string,
  folder: string,
  print: (url: string) => Promise<T>,
): Promise<T> {
  await mkdir(folder, { recursive: true, mode: 0o700 })
  const file = join(folder, `${randomUUID()}.html`)
  await writeFile(file, html, { flag: 'wx', mode: 0o600 })
  try {
    return await print(pathToFileURL(file).href)
  } finally {
    await rm(file, { force: true })
  }
}

// Reading an eval's data file: one JSON object a line, each of the shape the eval reads. A file of another
// shape is refused, naming the line and what was expected, rather than measured as rows of nothing.
import { readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

/// A data file an eval cannot read: the message names the file, the line and the shape expected; `npm run eval`
/// prints it and exits 2.
export class WrongFormat extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WrongFormat'
  }
}

/// Where the evaluation data sets are: `../shared/data` beside the repository, as on the build machines and in CI.
const SHARED_DATA = fileURLToPath(new URL('../../shared/data', import.meta.url))

/// The path of a file or folder of the evaluation data sets, e.g. `dataSet('spelling', 'norvig-set1.jsonl')`.
export const dataSet = (...parts: string[]): string => join(SHARED_DATA, ...parts)

/// The text of the data file at `path`; a file that cannot be read throws WrongFormat saying why, and where the
/// data sets are expected when it is one of theirs.
export function readDataFile(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : String(error)
    const shared = !relative(SHARED_DATA, resolve(path)).startsWith('..')
      ? ` The evaluation data sets are read from ${SHARED_DATA}, a folder named shared/data beside the repository.`
      : ''
    throw new WrongFormat(`${path}: cannot be read: ${why}.${shared} Nothing was measured.`)
  }
}

/// The rows of the JSON-lines file at `path`, each parsed by `shape` (`expected` says that shape in words, as
/// the message shows it). Blank lines are skipped; a line that is not JSON or not of the shape, or a file
/// without rows, throws WrongFormat.
export function readJsonLines<T>(path: string, shape: z.ZodType<T>, expected: string): T[] {
  const rows: T[] = []
  readDataFile(path)
    .split('\n')
    .forEach((line, index) => {
      if (!line.trim()) return
      const wrong = (found: string) =>
        new WrongFormat(
          `${path}:${index + 1}: expected one JSON object a line, ${expected}; ${found}. Nothing was measured.`,
        )
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch {
        throw wrong('this line is not JSON')
      }
      const parsed = shape.safeParse(value)
      if (!parsed.success)
        throw wrong(
          `this line does not: ${parsed.error.issues
            .map((issue) => `${issue.path.join('.') || 'the line'}: ${issue.message}`)
            .join('; ')}`,
        )
      rows.push(parsed.data)
    })
  if (rows.length === 0)
    throw new WrongFormat(`${path}: expected one JSON object a line, ${expected}; the file has none.`)
  return rows
}

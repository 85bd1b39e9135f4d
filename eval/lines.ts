// Reading an eval's data file: one JSON object a line, each of the shape the eval reads. A file of another
// shape is refused, naming the line and what was expected, rather than measured as rows of nothing.
import { readFileSync } from 'node:fs'
import { z } from 'zod'

/// A data file an eval cannot read: the message names the file, the line and the shape expected; `npm run eval`
/// prints it and exits 2.
export class WrongFormat extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WrongFormat'
  }
}

/// The rows of the JSON-lines file at `path`, each parsed by `shape` (`expected` says that shape in words, as
/// the message shows it). Blank lines are skipped; a line that is not JSON or not of the shape, or a file
/// without rows, throws WrongFormat.
export function readJsonLines<T>(path: string, shape: z.ZodType<T>, expected: string): T[] {
  const rows: T[] = []
  readFileSync(path, 'utf8')
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

import { writeFileSync } from 'node:fs'
import type { ExportFormat } from '../../shared/schemas'
import type { Engine } from '../engine/engine'
import { exportCheck } from '../engine/exports'
import { chromiumPdf } from '../engine/exports/pdf'
import { CommandError } from './errors'

/// The formats that are text, and so may go to standard output.
export const TEXT_FORMATS: ReadonlySet<ExportFormat> = new Set(['html', 'md', 'json'])

/// Exports a check of the local organization as the data folder's owner: to the file `out` when given, else
/// to standard output.
export async function runExport(
  engine: Engine,
  checkId: string,
  format: ExportFormat,
  out: string | undefined,
): Promise<void> {
  const file = await exportCheck(engine.service, engine.localPrincipal(), checkId, format, chromiumPdf)
  if (out === undefined) {
    process.stdout.write(file.data)
    return
  }
  try {
    writeFileSync(out, file.data)
  } catch (error) {
    throw new CommandError(`Cannot write ${out}: ${(error as Error).message}`)
  }
  console.error(`wrote ${out} (${file.data.length} bytes)`)
}

import { writeFileSync } from 'node:fs'
import { ApiError } from '../../shared/errors'
import type { ExportComments, ExportFormat } from '../../shared/schemas'
import type { Engine } from '../engine/engine'
import { exportCheck } from '../engine/exports'
import { chromiumPdf } from '../engine/exports/pdf'
import { CommandError } from './errors'

/// Exports a check as the data folder's owner, of the local organization or of `org`: to the file `out` when
/// given, else to standard output, noting the claims `comments` says (see `annotate`). A check of another
/// organization asks for its `--org`.
export async function runExport(
  engine: Engine,
  checkId: string,
  format: ExportFormat,
  out: string | undefined,
  org: string | undefined,
  comments: ExportComments,
): Promise<void> {
  const local = await engine.localPrincipal()
  const principal = org === undefined ? local : await engine.admin.ownerIn(local, org)
  const file = await (async () => {
    try {
      return await exportCheck(
        engine.service,
        principal,
        checkId,
        format,
        { render: engine.exports.render, printPdf: chromiumPdf, publisher: engine.config.publisher },
        comments,
      )
    } catch (error) {
      const owner =
        error instanceof ApiError &&
        error.code === 'not_found' &&
        (await engine.admin.checkOrganization(checkId))
      if (owner && owner !== principal.organizationId)
        throw new CommandError(`Check ${checkId} belongs to organization ${owner}: add --org ${owner}.`)
      throw error
    }
  })()
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

import type { z } from 'zod'
import type { FileOperation, IpcResult } from '../../shared/api'
import { ApiError } from '../../shared/errors'
import { isServiceOperation, OPERATION_TABLE, type Operation } from '../../shared/operations'
import type { FieldError } from '../../shared/schemas'
import type { Engine } from '../engine/engine'
import { chromiumPdf, type PdfPrinter } from '../engine/exports/pdf'
import { engineOperations } from '../engine/operations'
import { ServiceSwitch } from '../remote/switch'
import { isAppUrl } from './appPage'

/// Answers one call from the page: the operation, its arguments as sent, and the URL of the frame that sent it.
export type Dispatch = (
  operation: Operation,
  args: unknown[],
  senderUrl: string | undefined,
) => Promise<IpcResult<unknown>>

/// The parts of the engine the page's operations reach.
type EngineParts = Pick<
  Engine,
  'service' | 'research' | 'settings' | 'pending' | 'drafts' | 'exports' | 'config' | 'localPrincipal'
>

/// The IPC layer's one entry: only the app's own page is answered, arguments are checked against the shared
/// contract before the engine (or the remote service chosen in the settings) sees them, and every failure
/// comes back as the REST API's error envelope.
export function createDispatch(
  engine: EngineParts,
  page: URL,
  services = new ServiceSwitch(engine.settings.switches),
  printPdf: PdfPrinter = chromiumPdf,
): Dispatch {
  // The page's operations on the embedded engine, made as the desktop's own principal: what the window reaches
  // unless a remote service is chosen, and always for what belongs to this computer (settings, keys, tokens).
  const { service, research, settings, pending, drafts, exports, config } = engine
  const local = engineOperations(
    { service, research, settings, pending, drafts, exports, config, services, printPdf },
    () => engine.localPrincipal(),
  )
  return async (operation, args, senderUrl) => {
    try {
      if (senderUrl === undefined || !isAppUrl(senderUrl, page)) {
        throw new ApiError('forbidden', 'Only the Factdesk window may call the engine.')
      }
      const parsed = OPERATION_TABLE[operation].args.safeParse(args)
      if (!parsed.success) {
        throw new ApiError(
          'bad_request',
          `The arguments of ${operation} are not valid.`,
          fieldErrors(parsed.error),
        )
      }
      const remote = services.current()
      // Indexing with a union of operations loses the pairing of operation and arguments.
      const run = (remote && isServiceOperation(operation) ? remote[operation] : local[operation]) as (
        ...args: unknown[]
      ) => Promise<unknown>
      return { ok: true, data: await run(...parsed.data) }
    } catch (error) {
      return { ok: false, ...asApiError(error, operation).toEnvelope() }
    }
  }
}

/// A zod failure as the error envelope's field errors.
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ field: ['args', ...issue.path].join('.'), message: issue.message }))
}

// An unexpected failure is logged here in full and reaches the page only as a generic message: its text may
// hold a stack, SQL or a path.
export function asApiError(error: unknown, operation: Operation | FileOperation): ApiError {
  if (error instanceof ApiError) return error
  console.error(`factdesk: ${operation} failed`, error)
  return new ApiError('internal_error', 'Something went wrong in the engine. Try again.')
}

import type { z } from 'zod'
import type { FactdeskApi, IpcResult, Operation } from '../../shared/api'
import { ApiError } from '../../shared/errors'
import { OPERATION_ARGS } from '../../shared/operations'
import type { FieldError } from '../../shared/schemas'
import type { Engine } from '../engine/engine'
import type { Principal } from '../engine/service'
import { isAppUrl } from './appPage'

/// Answers one call from the page: the operation, its arguments as sent, and the URL of the frame that sent it.
export type Dispatch = (
  operation: Operation,
  args: unknown[],
  senderUrl: string | undefined,
) => Promise<IpcResult<unknown>>

/// The parts of the engine the page's operations reach.
type Parts = Pick<Engine, 'service' | 'research' | 'settings'>

type Handlers = {
  [Op in Operation]: (
    engine: Parts,
    principal: Principal,
    ...args: Parameters<FactdeskApi[Op]>
  ) => Awaited<ReturnType<FactdeskApi[Op]>> | ReturnType<FactdeskApi[Op]>
}

/// Each operation of the page's API as a call on the engine, made as the desktop's own principal.
const HANDLERS: Handlers = {
  me: ({ service }, principal) => service.me(principal),
  credits: ({ service }, principal) => service.credits(principal),
  estimate: ({ service }, principal, request) => service.estimate(principal, request),
  submit: async ({ service }, principal, request) => (await service.submit(principal, request)).check,
  getCheck: ({ service }, principal, id) => service.getCheck(principal, id),
  report: ({ service }, principal, id) => service.report(principal, id),
  listChecks: ({ service }, principal, page) =>
    service.listChecks(principal, page.limit, page.cursor ?? null),
  cancel: ({ service }, principal, id) => service.cancel(principal, id),
  patch: ({ service }, principal, id, edits) => service.patch(principal, id, edits),
  research: ({ research }, principal, request) => research.create(principal, request),
  getResearch: ({ research }, principal, id) => research.get(principal, id),
  settings: ({ settings }, principal) => settings.view(principal),
  updateSettings: ({ settings }, principal, patch) => settings.update(principal, patch),
  testModel: ({ settings }, principal, model) => settings.testModel(principal, model),
  detectOllama: ({ settings }, principal) => settings.detectOllama(principal),
  listTokens: ({ settings }, principal) => settings.listTokens(principal),
  createToken: ({ settings }, principal, request) => settings.createToken(principal, request),
  revokeToken: ({ settings }, principal, id) => settings.revokeToken(principal, id),
  webhookSecret: ({ service }, principal) => service.webhookSecret(principal),
  rotateWebhookSecret: ({ service }, principal) => service.rotateWebhookSecret(principal),
  grantCredits: ({ settings }, principal, amount) => settings.grantCredits(principal, amount),
}

/// The IPC layer's one entry: only the app's own page is answered, arguments are checked against the shared
/// contract before the engine sees them, and every failure comes back as the REST API's error envelope.
export function createDispatch(engine: Parts & Pick<Engine, 'localPrincipal'>, page: URL): Dispatch {
  return async (operation, args, senderUrl) => {
    try {
      if (senderUrl === undefined || !isAppUrl(senderUrl, page)) {
        throw new ApiError('forbidden', 'Only the Factdesk window may call the engine.')
      }
      const parsed = OPERATION_ARGS[operation].safeParse(args)
      if (!parsed.success) {
        throw new ApiError(
          'bad_request',
          `The arguments of ${operation} are not valid.`,
          fieldErrors(parsed.error),
        )
      }
      // The table is typed per operation; indexing it with a union loses the pairing of handler and arguments.
      const handler = HANDLERS[operation] as (
        engine: Parts,
        principal: Principal,
        ...args: unknown[]
      ) => unknown
      return { ok: true, data: await handler(engine, engine.localPrincipal(), ...parsed.data) }
    } catch (error) {
      return { ok: false, ...asApiError(error, operation).toEnvelope() }
    }
  }
}

function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ field: ['args', ...issue.path].join('.'), message: issue.message }))
}

// An unexpected failure is logged here in full and reaches the page only as a generic message: its text may
// hold a stack, SQL or a path.
function asApiError(error: unknown, operation: Operation): ApiError {
  if (error instanceof ApiError) return error
  console.error(`factdesk: ${operation} failed`, error)
  return new ApiError('internal_error', 'Something went wrong in the engine. Try again.')
}

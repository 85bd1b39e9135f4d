// The one declaration of each request-and-answer operation of the engine: its arguments, its answer, who may
// call it and, where a Factdesk server offers it, its REST route. The IPC bridge and its checks, the REST routes,
// their clients and the OpenAPI document are all derived from this table; the engine's side of each operation is
// in src/main/engine/operations.ts.
import { z } from 'zod'
import { EXPORT_FORMAT_IDS, EXPORT_FORMATS } from './exportFormats'
import {
  ApiToken,
  Check,
  CheckList,
  CreateCheckRequest,
  CreateDraftRequest,
  CreatedToken,
  CreateTokenRequest,
  Credits,
  Draft,
  DraftList,
  DraftSummary,
  Estimate,
  EstimateRequest,
  ExportComments,
  ExportFormat,
  GrantRequest,
  ImportFileRequest,
  Me,
  ModelTest,
  ModelTestRequest,
  OllamaDetection,
  PatchCheckRequest,
  PendingCheck,
  PendingCheckList,
  Report,
  Research,
  ResearchList,
  ResearchRequest,
  SaveDraftRequest,
  SearchTest,
  SearchTestRequest,
  ServiceTest,
  ServiceTestRequest,
  Settings,
  SettingsPatch,
  TokenList,
  WebhookSecret,
  WebhookSecretRotation,
} from './schemas'

/// Who may call an operation: any token (`read`), a write token (`write`), or only the person at this computer,
/// the desktop app or the `factdesk web` session, never an API token (`owner`).
export type Access = 'read' | 'write' | 'owner'

/// The error answers an operation gives beyond those every route gives (400, 401, 404, 500; 403 for `write`).
type ExtraErrors = Partial<Record<402 | 403 | 413 | 422 | 429 | 503, string>>

/// An operation's REST route. Its arguments are the path's `{…}` segments in order, then at most one object:
/// the query of a GET, the JSON body otherwise.
export interface RestRoute {
  method: 'get' | 'post' | 'patch'
  path: string
  /// The status of a success.
  status: 200 | 201 | 202
  /// What a success answers.
  answer: string
  description?: string
  tags?: string[]
  errors?: ExtraErrors
  /// Takes an `Idempotency-Key`, the operation's last argument (optional): a repeat with the same key and body
  /// answers the first, with `Idempotent-Replayed: true`.
  idempotent?: true
  /// Answered as a file, not as JSON: its route is written by hand (the export).
  file?: true
  /// Served from copies kept up to date: `ETag` and 304 for `If-None-Match`, compressed for `Accept-Encoding`.
  cached?: true
  /// Not repeated by a client after a failure that may have been taken (charged or changed on acceptance), only
  /// after a 429, which says it was not.
  once?: true
  /// Offered by every Factdesk service, so sent to the remote service when the desktop app uses one (the others
  /// belong to this computer and stay with the embedded engine).
  onService?: true
}

interface Declaration {
  /// The arguments as the page passes them, checked at the IPC and HTTP edges before the engine sees them.
  args: z.ZodTuple
  result: z.ZodType
  access: Access
  summary: string
  rest?: RestRoute
}

/// An exported report: the name to save it under, its media type and its bytes.
export interface ExportedFile {
  fileName: string
  contentType: string
  data: Uint8Array<ArrayBuffer>
}

const id = (what: string) => z.string().min(1).max(200).meta({ description: what })
const checkId = id('A check id, `chk_…`')
/// A draft's id, also an argument of the desktop's file operations.
export const draftId = id('A draft id, `drf_…`')
const pendingId = id("A pending check id, `pnd_…`, or a manuscript's, `mns_…` (its parts as one)")

/// A page of the organization's checks: at most `limit`, after `cursor` (the previous page's `nextCursor`).
const CheckPage = z
  .strictObject({
    limit: z.coerce.number<number>().int().min(1).max(100).optional().meta({ description: 'At most 100' }),
    cursor: z.string().optional().meta({ description: 'The previous page’s `nextCursor`' }),
  })
  .meta({ id: 'CheckPage' })
/// Which queued checks to list: all, or only those still waiting.
const PendingCheckQuery = z
  .strictObject({ status: z.enum(['waiting']).optional().meta({ description: 'Only those still waiting' }) })
  .meta({ id: 'PendingCheckQuery' })

/// The last argument of an idempotent operation, its REST route's `Idempotency-Key` header.
const idempotencyKey = z.string().optional()

const unacceptable = { 422: 'Well-formed but not acceptable' }
const uncovered = { 402: 'The balance does not cover the price' }
/// Reading a text for claims is free, so limited (api-decisions.md, "Limits on free work").
const extractions = {
  429: 'More estimates and checks of a text in a minute than `limits.estimatesPerMinute`; `Retry-After` says when to retry',
}
/// What drafts may hold in all.
const draftRoom = { 413: 'The organization’s drafts would pass `limits.drafts` or `limits.draftBytes`' }
const newDrafts = {
  ...draftRoom,
  429: 'More new drafts in a minute than `limits.draftsPerMinute`; `Retry-After` says when to retry',
}
const settingsTags = ['Settings (extension)']
const draftTags = ['Drafts (extension)']

export const OPERATION_TABLE = {
  me: {
    args: z.tuple([]),
    result: Me,
    access: 'read',
    summary: 'The organization the token acts as',
    rest: {
      method: 'get',
      path: '/me',
      status: 200,
      answer: 'The organization and the token',
      onService: true,
    },
  },
  credits: {
    args: z.tuple([]),
    result: Credits,
    access: 'read',
    summary: 'The remaining balance and the prices',
    rest: { method: 'get', path: '/credits', status: 200, answer: 'Balance and price list', onService: true },
  },
  estimate: {
    args: z.tuple([EstimateRequest]),
    result: Estimate,
    access: 'write',
    summary: 'Quote the claims of a text and their price; charges nothing',
    rest: {
      method: 'post',
      path: '/checks/estimate',
      status: 200,
      answer: 'The claims, the price and whether the balance covers it',
      errors: { ...unacceptable, ...extractions },
      onService: true,
    },
  },
  /// A repeat with the same `idempotencyKey` and request answers the first check and charges nothing.
  submit: {
    args: z.tuple([CreateCheckRequest, idempotencyKey]),
    result: Check,
    access: 'write',
    summary: 'Submit a check of a text or of an estimated document',
    rest: {
      method: 'post',
      path: '/checks',
      status: 202,
      answer: 'The accepted check (also for an idempotent replay)',
      errors: {
        ...uncovered,
        ...unacceptable,
        ...extractions,
        503: 'Extension: the model or search providers of t2/t3 cannot be reached; nothing charged',
      },
      idempotent: true,
      onService: true,
    },
  },
  getCheck: {
    args: z.tuple([checkId]),
    result: Check,
    access: 'read',
    summary: 'A check and its status',
    rest: { method: 'get', path: '/checks/{id}', status: 200, answer: 'The check', onService: true },
  },
  report: {
    args: z.tuple([checkId]),
    result: Report,
    access: 'read',
    summary: 'The report: claims, votes per model, consensus per tier',
    rest: {
      method: 'get',
      path: '/checks/{id}/report',
      status: 200,
      answer: 'The report as far as it is filled in',
      cached: true,
      onService: true,
    },
  },
  export: {
    args: z.tuple([checkId, z.strictObject({ format: ExportFormat, comments: ExportComments.optional() })]),
    result: z.custom<ExportedFile>(),
    access: 'read',
    summary: 'The annotated report as a file (extension)',
    rest: {
      method: 'get',
      path: '/checks/{id}/export',
      status: 200,
      answer: 'The file, with `Content-Disposition: attachment` and its name',
      description: `The check’s text as submitted with its latest results, as a download: ${EXPORT_FORMAT_IDS.map(
        (format) => `\`${format}\`: ${EXPORT_FORMATS[format].name}, ${EXPORT_FORMATS[format].detail}`,
      ).join('; ')}.`,
      file: true,
    },
  },
  listChecks: {
    args: z.tuple([CheckPage]),
    result: CheckList,
    access: 'read',
    summary: 'The organization’s checks, newest first (extension)',
    rest: { method: 'get', path: '/checks', status: 200, answer: 'A page of checks', onService: true },
  },
  cancel: {
    args: z.tuple([checkId]),
    result: Check,
    access: 'write',
    summary: 'Stop a check and refund it',
    rest: {
      method: 'post',
      path: '/checks/{id}/cancel',
      status: 200,
      answer: 'The cancelled check',
      errors: unacceptable,
      onService: true,
    },
  },
  patch: {
    args: z.tuple([checkId, PatchCheckRequest]),
    result: Check,
    access: 'write',
    summary: 'Edit name, author or sourceUrl',
    rest: {
      method: 'patch',
      path: '/checks/{id}',
      status: 200,
      answer: 'The updated check',
      errors: unacceptable,
      onService: true,
    },
  },
  webhookSecret: {
    args: z.tuple([]),
    result: WebhookSecret,
    access: 'write',
    summary: 'The webhook signing secret (write scope)',
    rest: {
      method: 'get',
      path: '/webhook-secret',
      status: 200,
      answer: 'The current secret; rotated-out ones still valid are listed without value',
      onService: true,
    },
  },
  rotateWebhookSecret: {
    args: z.tuple([]),
    result: WebhookSecretRotation,
    access: 'write',
    summary: 'Issue a new signing secret; the old one stays valid for 24 hours',
    rest: {
      method: 'post',
      path: '/webhook-secret/rotate',
      status: 200,
      answer: 'The new secret',
      once: true,
      onService: true,
    },
  },
  research: {
    args: z.tuple([ResearchRequest]),
    result: Research,
    access: 'write',
    summary: 'Start deep research on one claim (a claimId from a report, or free text); flat price',
    rest: {
      method: 'post',
      path: '/research',
      status: 202,
      answer: 'The accepted research, charged',
      errors: {
        ...uncovered,
        ...unacceptable,
        503: 'Extension: the model or search providers of deep research cannot be reached; nothing charged',
      },
      once: true,
      onService: true,
    },
  },
  listResearch: {
    args: z.tuple([]),
    result: ResearchList,
    access: 'read',
    summary:
      'The organization’s 50 most recent deep research runs, newest first, with their charges (extension)',
    rest: { method: 'get', path: '/research', status: 200, answer: 'Recent research runs', onService: true },
  },
  getResearch: {
    args: z.tuple([id('A research id, `rsc_…`')]),
    result: Research,
    access: 'read',
    summary: 'A deep research run; poll until its status is terminal',
    rest: {
      method: 'get',
      path: '/research/{id}',
      status: 200,
      answer: 'The research and, once completed, its result',
      onService: true,
    },
  },
  queueCheck: {
    args: z.tuple([CreateCheckRequest, idempotencyKey]),
    result: PendingCheck,
    access: 'write',
    summary: 'Queue a check to be submitted once its providers can be reached (extension)',
    rest: {
      method: 'post',
      path: '/pending-checks',
      status: 202,
      answer: 'The queued check (also for a repeat)',
      description:
        'For a check refused with 503 `providers_unreachable`: the same body as `POST /checks`. The engine ' +
        'submits it with this `Idempotency-Key` (one is made up without it) when a probe of its providers ' +
        'succeeds, retrying with backoff; a repeat with the same key and body answers the first. Charged only ' +
        'when submitted.',
      errors: {
        402: 'The balance does not cover one claim of these tiers',
        413: 'As many checks wait already as `limits.pendingChecks`',
        ...unacceptable,
        ...extractions,
      },
      idempotent: true,
      onService: true,
    },
  },
  listPendingChecks: {
    args: z.tuple([PendingCheckQuery]),
    result: PendingCheckList,
    access: 'read',
    summary: 'The organization’s queued checks, newest first (extension)',
    rest: {
      method: 'get',
      path: '/pending-checks',
      status: 200,
      answer: 'At most 100 queued checks',
      onService: true,
    },
  },
  getPendingCheck: {
    args: z.tuple([pendingId]),
    result: PendingCheck,
    access: 'read',
    summary: 'A queued check: waiting, submitted (with its checkId), cancelled or failed (extension)',
    rest: {
      method: 'get',
      path: '/pending-checks/{id}',
      status: 200,
      answer: 'The queued check',
      onService: true,
    },
  },
  cancelPendingCheck: {
    args: z.tuple([pendingId]),
    result: PendingCheck,
    access: 'write',
    summary: 'Cancel a queued check that has not started (extension)',
    rest: {
      method: 'post',
      path: '/pending-checks/{id}/cancel',
      status: 200,
      answer: 'The cancelled check',
      errors: { 422: 'It has started (cancel the check instead) or failed' },
      onService: true,
    },
  },
  settings: {
    args: z.tuple([]),
    result: Settings,
    access: 'owner',
    summary: 'The app settings: models, search, writing, local server; keys only as hasKey and last4',
    rest: { method: 'get', path: '/settings', status: 200, answer: 'The settings', tags: settingsTags },
  },
  updateSettings: {
    args: z.tuple([SettingsPatch]),
    result: Settings,
    access: 'owner',
    summary: 'Save parts of the settings; new work uses them at once',
    rest: {
      method: 'patch',
      path: '/settings',
      status: 200,
      answer: 'The settings as saved',
      tags: settingsTags,
    },
  },
  testModel: {
    args: z.tuple([ModelTestRequest]),
    result: ModelTest,
    access: 'owner',
    summary: 'Test a model with one small structured request (the saved key when none is given)',
    rest: {
      method: 'post',
      path: '/settings/models/test',
      status: 200,
      answer: 'Whether it answered, and how fast, or why not',
      tags: settingsTags,
    },
  },
  detectOllama: {
    args: z.tuple([]),
    result: OllamaDetection,
    access: 'owner',
    summary: 'A local Ollama and the models it has pulled',
    rest: {
      method: 'get',
      path: '/settings/ollama',
      status: 200,
      answer: 'Whether Ollama answers, and its models',
      tags: settingsTags,
    },
  },
  /// The desktop app only: the page of `factdesk web` always talks to its own server.
  testService: {
    args: z.tuple([ServiceTestRequest]),
    result: ServiceTest,
    access: 'owner',
    summary: 'Ask a remote service as entered in the form who its token is (`GET /me`)',
  },
  testSearch: {
    args: z.tuple([SearchTestRequest]),
    result: SearchTest,
    access: 'owner',
    summary: 'Test a search provider with one search (the saved key when none is given)',
    rest: {
      method: 'post',
      path: '/settings/search/test',
      status: 200,
      answer: 'Whether it answered, how fast and with what, or why not',
      tags: settingsTags,
    },
  },
  listTokens: {
    args: z.tuple([]),
    result: TokenList,
    access: 'owner',
    summary: "The organization's API tokens, never their values",
    rest: {
      method: 'get',
      path: '/tokens',
      status: 200,
      answer: 'The tokens, revoked ones included',
      tags: settingsTags,
    },
  },
  createToken: {
    args: z.tuple([CreateTokenRequest]),
    result: CreatedToken,
    access: 'owner',
    summary: 'Create a read or write token; its value is in this answer only',
    rest: {
      method: 'post',
      path: '/tokens',
      status: 201,
      answer: 'The token and, this once, its value',
      tags: settingsTags,
    },
  },
  revokeToken: {
    args: z.tuple([id('A token id, `tok_…`')]),
    result: ApiToken,
    access: 'owner',
    summary: 'Revoke a token; requests with it get 401 from now on',
    rest: {
      method: 'post',
      path: '/tokens/{id}/revoke',
      status: 200,
      answer: 'The revoked token',
      errors: { 422: 'The token this session signs in with' },
      tags: settingsTags,
    },
  },
  grantCredits: {
    args: z.tuple([GrantRequest]),
    result: Credits,
    access: 'owner',
    summary: 'Add credits to the organization',
    rest: {
      method: 'post',
      path: '/credits/grants',
      status: 201,
      answer: 'The new balance and the prices',
      tags: settingsTags,
    },
  },
  listDrafts: {
    args: z.tuple([]),
    result: DraftList,
    access: 'read',
    summary: 'The drafts, the most recently opened first, without their text',
    rest: { method: 'get', path: '/drafts', status: 200, answer: 'The recent drafts', tags: draftTags },
  },
  createDraft: {
    args: z.tuple([CreateDraftRequest]),
    result: Draft,
    access: 'write',
    summary: 'A new draft',
    rest: {
      method: 'post',
      path: '/drafts',
      status: 201,
      answer: 'The draft',
      errors: newDrafts,
      tags: draftTags,
    },
  },
  openDraft: {
    args: z.tuple([draftId]),
    result: Draft,
    access: 'write',
    summary:
      'A draft with its text and its last check’s claim anchors; it moves to the top of the recent list',
    rest: { method: 'post', path: '/drafts/{id}/open', status: 200, answer: 'The draft', tags: draftTags },
  },
  saveDraft: {
    args: z.tuple([draftId, SaveDraftRequest]),
    result: DraftSummary,
    access: 'write',
    summary: 'Autosave: the text, title or last check of a draft; idempotent',
    rest: {
      method: 'patch',
      path: '/drafts/{id}',
      status: 200,
      answer: 'The draft as saved, without its text',
      errors: draftRoom,
      tags: draftTags,
    },
  },
  importFile: {
    args: z.tuple([ImportFileRequest]),
    result: Draft,
    access: 'write',
    summary:
      'A new draft of a file: Markdown or text as it is, a Word document (.docx) converted to Markdown',
    rest: {
      method: 'post',
      path: '/drafts/import',
      status: 201,
      answer: 'The draft holding the file',
      errors: {
        ...newDrafts,
        413: 'A file over `limits.importBytes`, or drafts past `limits.drafts` or `limits.draftBytes`',
        422: 'Not a Markdown, text or Word file, or not readable as one',
        429:
          'More new drafts in a minute than `limits.draftsPerMinute`, or more imports at once than ' +
          '`limits.importsAtOnce`; `Retry-After` says when to retry',
      },
      tags: draftTags,
    },
  },
} satisfies Record<string, Declaration>

type Table = typeof OPERATION_TABLE
/// The operations, one IPC channel each.
export type Operation = keyof Table
export type OperationArgs<Op extends Operation> = z.output<Table[Op]['args']>
export type OperationResult<Op extends Operation> = z.output<Table[Op]['result']>

/// The request-and-answer operations of the engine: the page's API, less its subscriptions and files.
export type FactdeskOperations = {
  [Op in Operation]: (...args: OperationArgs<Op>) => Promise<OperationResult<Op>>
}

/// Every operation.
export const OPERATIONS = Object.keys(OPERATION_TABLE) as Operation[]

/// The operations with a route a server answers as JSON.
export type RestOperation = {
  [Op in Operation]: Table[Op] extends { rest: { method: string; file?: undefined } } ? Op : never
}[Operation]
/// Those every Factdesk service offers: sent to the remote service when the desktop app uses one.
export type ServiceOperation = {
  [Op in Operation]: Table[Op] extends { rest: { onService: true } } ? Op : never
}[Operation]

const declarations = OPERATION_TABLE as Record<Operation, Declaration>
/// The route of an operation, if it has one.
export const restRouteOf = (operation: Operation): RestRoute | undefined => declarations[operation].rest
export const isRestOperation = (operation: Operation): operation is RestOperation => {
  const route = restRouteOf(operation)
  return route !== undefined && !route.file
}
export const isServiceOperation = (operation: string): operation is ServiceOperation =>
  operation in OPERATION_TABLE && restRouteOf(operation as Operation)?.onService === true

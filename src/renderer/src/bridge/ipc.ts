import type { FactdeskApi, FactdeskIpc, IpcResult } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'

/// The desktop bridge: each operation through the preload, a failure rejected as the `ApiError` it was; pushed
/// report updates through the preload's one subscription.
export function ipcApi(factdesk: FactdeskIpc): FactdeskApi {
  return {
    me: () => unwrap(factdesk.me()),
    credits: () => unwrap(factdesk.credits()),
    estimate: (request) => unwrap(factdesk.estimate(request)),
    submit: (request, idempotencyKey) => unwrap(factdesk.submit(request, idempotencyKey)),
    getCheck: (id) => unwrap(factdesk.getCheck(id)),
    report: (id) => unwrap(factdesk.report(id)),
    export: (id, format) => unwrap(factdesk.export(id, format)),
    listChecks: (page) => unwrap(factdesk.listChecks(page)),
    cancel: (id) => unwrap(factdesk.cancel(id)),
    patch: (id, edits) => unwrap(factdesk.patch(id, edits)),
    settings: () => unwrap(factdesk.settings()),
    updateSettings: (patch) => unwrap(factdesk.updateSettings(patch)),
    testModel: (model) => unwrap(factdesk.testModel(model)),
    detectOllama: () => unwrap(factdesk.detectOllama()),
    testService: (request) => unwrap(factdesk.testService(request)),
    testSearch: (request) => unwrap(factdesk.testSearch(request)),
    listTokens: () => unwrap(factdesk.listTokens()),
    createToken: (request) => unwrap(factdesk.createToken(request)),
    revokeToken: (id) => unwrap(factdesk.revokeToken(id)),
    webhookSecret: () => unwrap(factdesk.webhookSecret()),
    rotateWebhookSecret: () => unwrap(factdesk.rotateWebhookSecret()),
    grantCredits: (amount) => unwrap(factdesk.grantCredits(amount)),
    research: (request) => unwrap(factdesk.research(request)),
    getResearch: (id) => unwrap(factdesk.getResearch(id)),
    queueCheck: (request) => unwrap(factdesk.queueCheck(request)),
    listPendingChecks: (waiting) => unwrap(factdesk.listPendingChecks(waiting)),
    cancelPendingCheck: (id) => unwrap(factdesk.cancelPendingCheck(id)),
    listDrafts: () => unwrap(factdesk.listDrafts()),
    createDraft: (request) => unwrap(factdesk.createDraft(request)),
    openDraft: (id) => unwrap(factdesk.openDraft(id)),
    saveDraft: (id, request) => unwrap(factdesk.saveDraft(id, request)),
    importFile: (request) => unwrap(factdesk.importFile(request)),
    subscribe: (listener) => factdesk.onReport(listener),
    onOpenedFile: (listener, failed) =>
      factdesk.onOpenedFile((opened) =>
        opened.ok ? listener(opened.data) : failed(ApiError.fromEnvelope(opened)),
      ),
    files: {
      openFile: () => unwrap(factdesk.files.openFile()),
      saveFile: (id, text) => unwrap(factdesk.files.saveFile(id, text)),
      saveFileAs: (id, text) => unwrap(factdesk.files.saveFileAs(id, text)),
    },
  }
}

async function unwrap<T>(pending: Promise<IpcResult<T>>): Promise<T> {
  const result = await pending
  if (!result.ok) throw ApiError.fromEnvelope(result)
  return result.data
}

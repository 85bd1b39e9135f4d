import { randomUUID } from 'node:crypto'
import type { EngineUpdate, FactdeskApi } from '../../shared/api'
import { ApiError } from '../../shared/errors'
import type { ServiceOperation } from '../../shared/operations'
import { answerError, EVENTS_PATH, restRequest, serviceOperations, type RestRequest } from '../../shared/rest'
import { remoteServiceUrlProblem, type Check } from '../../shared/schemas'
import { backoffMs, retryAfterMs } from '../engine/models/retry'
import { reason } from '../engine/settings/probes'
import { ResearchEvents } from './events'
import { ReportPoller, type PollOptions } from './poller'

/// The operations of the editor's API that every Factdesk service offers over REST; the rest
/// (settings, tokens, grants, drafts) belong to the app on this computer and stay with the embedded engine.
export type RemoteOperations = Pick<FactdeskApi, ServiceOperation | 'subscribe'>

export interface RemoteOptions {
  /// The service's base URL, `/api/v1` included: https, or http to this computer (tests).
  baseURL: string
  /// A bearer token of the service.
  token: string
  /// Retries of a request after a lost connection, a 5xx or a 429 (honouring its Retry-After).
  retries?: number
  /// The first retry's wait; each next one doubles (with jitter), capped.
  retryDelayMs?: number
  /// How long one request may take.
  requestTimeoutMs?: number
  /// How reports are polled for updates.
  poll?: Partial<PollOptions>
}

const DEFAULTS = { retries: 4, retryDelayMs: 500, requestTimeoutMs: 30_000 }

/// The editor's API over a remote Factdesk service's REST API, with a bearer token that stays in the main
/// process. Failures come back as the service's `ApiError`s; a submission carries one generated
/// `Idempotency-Key` through all of its retries, so a retry never makes a second check. Updates come from
/// polling the reports of the checks it has seen running and the checks it has seen waiting, and the steps of
/// deep research from the service's `GET /events` when it is a Factdesk service (see `ReportPoller`).
// The operations that are one request and nothing more are the operation table's requests, set in the
// constructor; the class writes only those that also follow what they return.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface RemoteService extends Pick<RemoteOperations, ServiceOperation> {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class RemoteService implements RemoteOperations {
  readonly origin: string
  private readonly base: string
  private readonly options: typeof DEFAULTS
  private readonly poller: ReportPoller
  private readonly researchEvents: ResearchEvents

  constructor(private readonly remote: RemoteOptions) {
    const problem = remoteServiceUrlProblem(remote.baseURL)
    if (problem) throw new ApiError('bad_request', `The remote service's URL ${problem}.`)
    this.base = remote.baseURL.replace(/\/+$/, '')
    this.origin = new URL(this.base).origin
    this.options = {
      retries: remote.retries ?? DEFAULTS.retries,
      retryDelayMs: remote.retryDelayMs ?? DEFAULTS.retryDelayMs,
      requestTimeoutMs: remote.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    }
    this.researchEvents = new ResearchEvents(this.base + EVENTS_PATH, remote.token)
    this.poller = new ReportPoller(
      {
        report: (id) => this.report(id),
        getResearch: (id) => this.getResearch(id),
        pendingCheck: (id) => this.getPendingCheck(id),
        getCheck: (id) => this.getCheck(id),
        researchEvents: (listener, signal) => this.researchEvents.read(listener, signal),
      },
      remote.poll,
    )
    for (const [name, request] of Object.entries(serviceOperations((request) => this.call(request))))
      if (!Object.hasOwn(this, name)) Object.assign(this, { [name]: request })
  }

  submit: RemoteOperations['submit'] = async (request, idempotencyKey = randomUUID()) =>
    this.seen(await this.call(restRequest('submit', request, idempotencyKey)))

  getCheck: RemoteOperations['getCheck'] = async (id) =>
    this.seen(await this.call(restRequest('getCheck', id)))

  report: RemoteOperations['report'] = async (id) => {
    const report = await this.call(restRequest('report', id))
    this.seen(report.check)
    return report
  }

  cancel: RemoteOperations['cancel'] = async (id) => this.seen(await this.call(restRequest('cancel', id)))

  research: RemoteOperations['research'] = async (request) => {
    const research = await this.call(restRequest('research', request))
    this.poller.watchResearch(research)
    return research
  }

  /// Queued on the service, where the providers it could not reach are, under one Idempotency-Key through all
  /// retries (a retry never queues it twice).
  queueCheck: RemoteOperations['queueCheck'] = async (request, idempotencyKey = randomUUID()) => {
    const pending = await this.call(restRequest('queueCheck', request, idempotencyKey))
    this.poller.watchPending(pending)
    return pending
  }

  listPendingChecks: RemoteOperations['listPendingChecks'] = async (query) => {
    const list = await this.call(restRequest('listPendingChecks', query))
    for (const pending of list.data) this.poller.watchPending(pending)
    return list
  }

  /// Updates of the checks and research runs this service has seen running, by polling their reports.
  subscribe = (listener: (update: EngineUpdate) => void): (() => void) => this.poller.subscribe(listener)

  /// Whether this is the service at `baseURL` with `token`.
  isFor(target: Pick<RemoteOptions, 'baseURL' | 'token'>): boolean {
    return this.base === target.baseURL.replace(/\/+$/, '') && this.remote.token === target.token
  }

  /// Goes on following the checks, research runs and pending checks `previous` followed, and its research event
  /// stream from the last event it read, when it is the same service (its token changed): the steps that end
  /// while the stream is reopened are heard all the same. Another service's are left behind (its event ids
  /// mean nothing here).
  takeOver(previous: RemoteService): void {
    if (previous.base !== this.base) return
    this.researchEvents.takeOver(previous.researchEvents)
    this.poller.takeOver(previous.poller)
  }

  /// Stops polling.
  close(): void {
    this.poller.close()
  }

  private seen(check: Check): Check {
    this.poller.watchCheck(check)
    return check
  }

  /// One request with the bearer token, repeated after failures worth retrying (reads, estimates, edits, cancels,
  /// submissions under their Idempotency-Key; a `once` request, charged or changed on acceptance, only after a
  /// 429, which says the service did not take it); the answer is checked against
  /// its schema, and an error answer becomes the `ApiError` of its envelope.
  private async call<T>(request: RestRequest<T>): Promise<T> {
    const { retries, retryDelayMs, requestTimeoutMs } = this.options
    for (let attempt = 0; ; attempt++) {
      let response: Response
      try {
        response = await fetch(this.base + request.path, {
          method: request.method,
          headers: {
            Accept: 'application/json',
            Authorization: `Bearer ${this.remote.token}`,
            ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
            ...request.headers,
          },
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          redirect: 'error',
          signal: AbortSignal.timeout(requestTimeoutMs),
        })
      } catch (error) {
        if (attempt < retries && !request.once) {
          await sleep(backoffMs(attempt, retryDelayMs))
          continue
        }
        throw new ApiError(
          'internal_error',
          `The remote service at ${this.origin} cannot be reached (${reason(error)}).`,
        )
      }
      const retryable = response.status === 429 || (response.status >= 500 && !request.once)
      if (retryable && attempt < retries) {
        await response.body?.cancel()
        const asked = retryAfterMs(Object.fromEntries(response.headers))
        await sleep(asked ?? backoffMs(attempt, retryDelayMs))
        continue
      }
      const answer: unknown = await response.json().catch(() => null)
      if (!response.ok) throw answerError(response.status, answer, `The remote service at ${this.origin}`)
      const parsed = request.schema.safeParse(answer)
      if (!parsed.success) {
        throw new ApiError(
          'internal_error',
          `The remote service at ${this.origin} answered ${request.path} in an unexpected form.`,
        )
      }
      return parsed.data
    }
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

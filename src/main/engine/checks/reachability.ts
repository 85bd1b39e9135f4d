import { isIP, connect as connectTcp, type Socket } from 'node:net'
import { connect as connectTls } from 'node:tls'
import { everyModel, type Config } from '../../../shared/config'
import { ApiError } from '../../../shared/errors'
import type { Tier } from '../../../shared/schemas'
import {
  lookupHost,
  pinnedLookup,
  resolveTarget,
  TargetRefused,
  withoutAddresses,
  type HostResolver,
} from '../base/addresses'
import { modelEndpoint } from '../models'

// Whether the providers a check needs can be reached now: t1 needs none; t2 its models; t3 (and deep research)
// its models and the search provider. A probe is a DNS lookup and a TCP connection (TLS handshake for https)
// to each endpoint, with a short timeout; nothing is sent, so a probe costs no tokens and no quota.

export interface ReachabilityOptions {
  /// How long one probe may take before its endpoint counts as unreachable.
  timeoutMs: number
  /// How long an endpoint that answered is trusted without a new probe. One that did not is probed again at
  /// the next submission, so a writer who is back online is never told otherwise.
  cacheMs: number
  /// Resolves host names (tests inject their own).
  resolveHost: HostResolver
}

const DEFAULT_REACHABILITY_OPTIONS: ReachabilityOptions = {
  timeoutMs: 3_000,
  cacheMs: 5_000,
  resolveHost: lookupHost,
}

/// A provider endpoint a check needs: what it is, in words, and where it answers. The search endpoint follows
/// the web's address rules (`web.allowLocalTargets`); model endpoints are the owner's choice (a LAN Ollama).
interface Endpoint {
  what: string
  url: URL
  web: boolean
}

/// An endpoint that could not be reached, and why. `misconfigured`: it never will be as configured (the search
/// provider's host resolves to a non-public address), so waiting for it is pointless.
export interface Unreachable {
  what: string
  origin: string
  reason: string
  misconfigured: boolean
}

/// Why a probe failed.
type Failure = Pick<Unreachable, 'reason' | 'misconfigured'>

/// The endpoints `tiers` need under `config` (deep research needs what t3 needs).
function endpointsFor(config: Config, tiers: readonly Tier[]): Endpoint[] {
  const endpoints: Endpoint[] = []
  if (tiers.includes('t2') || tiers.includes('t3')) {
    for (const model of everyModel(config.models)) {
      const endpoint = modelEndpoint(model)
      if (URL.canParse(endpoint))
        endpoints.push({ what: `model "${model.id}"`, url: new URL(endpoint), web: false })
    }
  }
  const verifier = config.models.verifier
  if (tiers.includes('t3') && verifier && URL.canParse(modelEndpoint(verifier))) {
    endpoints.push({ what: `model "${verifier.id}"`, url: new URL(modelEndpoint(verifier)), web: false })
  }
  if (tiers.includes('t3') && URL.canParse(config.search.baseURL)) {
    endpoints.push({
      what: `search (${config.search.provider})`,
      url: new URL(config.search.baseURL),
      web: true,
    })
  }
  return endpoints
}

/// Probes provider endpoints, one probe per origin at a time, and remembers those that answered for `cacheMs`.
export class Reachability {
  private readonly options: ReachabilityOptions
  private readonly answers = new Map<string, { at: number; reason: Promise<Failure | null> }>()

  /// `config` gives the configuration in force now (the app's settings may change the models at any time).
  constructor(
    private readonly config: () => Config,
    options: Partial<ReachabilityOptions> = {},
  ) {
    this.options = { ...DEFAULT_REACHABILITY_OPTIONS, ...options }
  }

  /// The endpoints `tiers` need that cannot be reached now. `fresh` probes again whatever the cache holds.
  async unreachable(tiers: readonly Tier[], fresh = false): Promise<Unreachable[]> {
    const config = this.config()
    // Models that share an endpoint are probed once and named together.
    const byOrigin = new Map<string, Endpoint>()
    for (const endpoint of endpointsFor(config, tiers)) {
      const key = `${endpoint.web ? 'web' : 'model'} ${endpoint.url.origin}`
      const same = byOrigin.get(key)
      byOrigin.set(key, same ? { ...same, what: `${same.what}, ${endpoint.what}` } : endpoint)
    }
    const answers = await Promise.all(
      [...byOrigin].map(async ([key, endpoint]) => {
        const failure = await this.answer(key, endpoint, config.web.allowLocalTargets, fresh)
        return failure === null ? null : { what: endpoint.what, origin: endpoint.url.origin, ...failure }
      }),
    )
    return answers.filter((answer) => answer !== null)
  }

  /// Refuses when an endpoint `tiers` need cannot be reached, for the `work` that needs them: 422 when the
  /// configuration can never work, else 503 `providers_unreachable` (try again, or queue the check).
  async require(tiers: readonly Tier[], work: 'check' | 'research' = 'check'): Promise<void> {
    const down = await this.unreachable(tiers)
    if (down.length > 0) throw unreachableError(down, work)
  }

  private answer(
    key: string,
    endpoint: Endpoint,
    allowLocal: boolean,
    fresh: boolean,
  ): Promise<Failure | null> {
    const now = Date.now()
    const cached = this.answers.get(key)
    if (cached && !fresh && now - cached.at < this.options.cacheMs) return cached.reason
    const reason = this.probe(endpoint, allowLocal)
    this.answers.set(key, { at: now, reason })
    // Submissions made while the probe runs share it; only an endpoint that answered is remembered.
    void reason.then((why) => {
      if (why !== null && this.answers.get(key)?.reason === reason) this.answers.delete(key)
    })
    return reason
  }

  /// Null when a connection to the endpoint opens within the timeout; otherwise why not, in words.
  private async probe(endpoint: Endpoint, allowLocal: boolean): Promise<Failure | null> {
    const { url } = endpoint
    const host = url.hostname.replace(/^\[|\]$/g, '')
    try {
      const addresses = endpoint.web
        ? await resolveTarget(url, allowLocal, this.options.resolveHost)
        : isIP(host)
          ? [host]
          : await this.options.resolveHost(host)
      const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80)
      await this.connect(url.protocol === 'https:', host, port, addresses)
      return null
    } catch (error) {
      const misconfigured = error instanceof TargetRefused && error.why === 'not_public'
      return { reason: withoutAddresses(describe(error), url.href), misconfigured }
    }
  }

  /// Opens a connection (and a TLS session for https) to one of `addresses` and closes it at once.
  private connect(tls: boolean, host: string, port: number, addresses: string[]): Promise<void> {
    const lookup = pinnedLookup(addresses)
    return new Promise((resolve, reject) => {
      const socket: Socket = tls
        ? connectTls({ host, port, lookup, servername: isIP(host) ? undefined : host }, () => done())
        : connectTcp({ host, port, lookup }, () => done())
      const timer = setTimeout(
        () => done(new Error(`no answer within ${this.options.timeoutMs / 1000} s`)),
        this.options.timeoutMs,
      )
      function done(error?: Error): void {
        clearTimeout(timer)
        socket.destroy()
        if (error) reject(error)
        else resolve()
      }
      socket.once('error', done)
    })
  }
}

/// An error's reason in words: the system's code where there is one (ECONNREFUSED, ENOTFOUND…).
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' && !error.message.includes(code)
    ? `${error.message} (${code})`
    : error.message
}

/// How a REST client queues a check whose providers cannot be reached (other callers say it their way).
export const QUEUE_ADVICE = ', or queue it to run then (POST /pending-checks).'

/// The refusal of a check (or deep research) whose providers cannot be reached: which ones, and why; nothing
/// was charged. A check may be queued to run once they answer, unless one never will as configured (422).
export function unreachableError(
  down: readonly Unreachable[],
  work: 'check' | 'research' = 'check',
): ApiError {
  const listOf = (some: readonly Unreachable[]): string =>
    some.map((each) => `${each.what} at ${each.origin}: ${each.reason}`).join('; ')
  const misconfigured = down.filter((each) => each.misconfigured)
  if (misconfigured.length > 0) {
    return new ApiError(
      'unprocessable',
      `${listOf(misconfigured)}. Outbound requests reach public addresses only (web.allowLocalTargets admits ` +
        'loopback for testing): change the search provider in Settings > Search or the configuration. Nothing was charged.',
    )
  }
  const list = listOf(down)
  const needing = work === 'check' ? 'this check needs' : 'deep research needs'
  const then =
    work === 'check' ? `try again when you are online${QUEUE_ADVICE}` : 'try again when you are online.'
  return new ApiError(
    'providers_unreachable',
    `The providers ${needing} cannot be reached (${list}). Nothing was charged; ${then}`,
  )
}

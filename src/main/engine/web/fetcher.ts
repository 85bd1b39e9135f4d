import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import {
  failureReason,
  lookupHost,
  pinnedLookup,
  resolveTarget,
  TargetRefused,
  type HostResolver,
} from '../base/addresses'

/// How the engine reaches the web: every request (search APIs and pages) goes through `SafeFetcher`.
export interface FetchOptions {
  /// Admit loopback addresses (127.0.0.0/8, ::1): `web.allowLocalTargets`, for local testing only.
  allowLocalTargets: boolean
  /// Host name → addresses; the system resolver unless a test injects one.
  resolveHost: HostResolver
  /// Redirects followed at most (each hop is checked like the first request).
  maxRedirects: number
  /// Bytes of body read at most; a longer body is refused.
  maxBytes: number
  /// Time for the whole fetch, every hop included.
  timeoutMs: number
  userAgent: string
}

const DEFAULT_FETCH_OPTIONS: FetchOptions = {
  allowLocalTargets: false,
  resolveHost: lookupHost,
  maxRedirects: 3,
  maxBytes: 2 * 1024 * 1024,
  timeoutMs: 15_000,
  userAgent: 'Factdesk/0.1 (fact-checking; +https://factdesk.invalid)',
}

/// A fetch the engine refused or could not complete; `reason` says which rule or failure, and `answer` the
/// HTTP status (with its `Retry-After`) when the server answered with an error.
export class FetchRefused extends Error {
  constructor(
    message: string,
    readonly reason:
      'scheme' | 'address' | 'redirects' | 'size' | 'type' | 'status' | 'timeout' | 'network' | 'policy',
    readonly answer: { status: number; retryAfter: string | undefined } | null = null,
  ) {
    super(message)
    this.name = 'FetchRefused'
  }
}

/// How one fetch goes: a GET unless `method` says POST (with `body`, kept on redirects); `accept` replaces the
/// media types read (HTML and plain text), `timeoutMs` the fetcher's time cap.
export interface FetchInit {
  signal?: AbortSignal
  accept?: readonly string[]
  headers?: Record<string, string>
  method?: 'GET' | 'POST'
  body?: string
  timeoutMs?: number
}

/// A fetched document: the URL it came from after redirects, its media type and its text.
export interface Fetched {
  url: string
  contentType: string
  body: string
}

const TEXT_TYPES = ['text/html', 'application/xhtml+xml', 'text/plain']

/// The request to send after a redirect, as browsers do: the caller's headers (a search API's key) go to its
/// own origin only, and a POST answered by 303, or by 301 or 302, becomes a GET without its body.
function redirected(request: FetchInit, status: number, from: URL, to: URL): FetchInit {
  const sameOrigin = from.origin === to.origin
  const toGet = status === 303 || ((status === 301 || status === 302) && request.method === 'POST')
  return {
    ...request,
    ...(sameOrigin ? {} : { headers: {} }),
    ...(toGet ? { method: 'GET', body: undefined } : {}),
  }
}

/// Fetches public http(s) documents only: the host of every hop is resolved, every address must be public
/// (or loopback when allowed), and the connection goes to exactly the addresses checked (no second DNS
/// answer can slip in). At most `maxRedirects` hops, `maxBytes` of body and `timeoutMs` in all; HTML and plain
/// text only (`accept` may add types, e.g. JSON for search APIs).
export class SafeFetcher {
  readonly options: FetchOptions
  /// Every URL a connection was opened to, in order (tests assert what was never fetched).
  readonly connected: string[] = []

  constructor(options: Partial<FetchOptions> = {}) {
    this.options = { ...DEFAULT_FETCH_OPTIONS, ...options }
  }

  async fetch(url: string, init: FetchInit = {}): Promise<Fetched> {
    const accept = init.accept ?? TEXT_TYPES
    const timeoutMs = init.timeoutMs ?? this.options.timeoutMs
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout
    let current: URL
    try {
      current = new URL(url)
    } catch {
      throw new FetchRefused(`not a URL: ${url.slice(0, 200)}`, 'scheme')
    }
    let request = init
    try {
      for (let hop = 0; ; hop++) {
        if (current.protocol !== 'http:' && current.protocol !== 'https:') {
          throw new FetchRefused(`only http(s) URLs are fetched, not ${current.protocol}`, 'scheme')
        }
        current.username = ''
        current.password = ''
        let addresses: string[]
        try {
          addresses = await resolveTarget(current, this.options.allowLocalTargets, this.options.resolveHost)
        } catch (error) {
          if (error instanceof TargetRefused) throw new FetchRefused(error.message, 'address')
          throw error
        }
        signal.throwIfAborted()
        const response = await this.open(current, addresses, accept, request, signal)
        const status = response.statusCode ?? 0
        if (status >= 300 && status < 400 && response.headers.location) {
          response.destroy()
          if (hop >= this.options.maxRedirects) {
            throw new FetchRefused(`more than ${this.options.maxRedirects} redirects`, 'redirects')
          }
          const next = new URL(response.headers.location, current)
          request = redirected(request, status, current, next)
          current = next
          continue
        }
        if (status < 200 || status >= 300) {
          response.destroy()
          const retryAfter = response.headers['retry-after']
          throw new FetchRefused(`HTTP ${status} from ${current.href}`, 'status', { status, retryAfter })
        }
        const contentType = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
        if (!accept.includes(contentType)) {
          response.destroy()
          throw new FetchRefused(
            `content type ${contentType || '(none)'} is not read (only ${accept.join(', ')})`,
            'type',
          )
        }
        const body = await this.read(response, signal)
        return { url: current.href, contentType, body }
      }
    } catch (error) {
      if (error instanceof FetchRefused) throw error
      if (timeout.aborted && !init.signal?.aborted) {
        throw new FetchRefused(`no answer within ${timeoutMs} ms`, 'timeout')
      }
      if (init.signal?.aborted) throw init.signal.reason
      throw new FetchRefused(`fetch failed: ${failureReason(error, current.href)}`, 'network')
    }
  }

  /// Requests `url`, connecting only to `addresses`; redirects are not followed here.
  private open(
    url: URL,
    addresses: readonly string[],
    accept: readonly string[],
    { method = 'GET', headers = {}, body }: FetchInit,
    signal: AbortSignal,
  ): Promise<IncomingMessage> {
    const pinned = pinnedLookup(addresses)
    this.connected.push(url.href)
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    return new Promise((resolve, reject) => {
      const request = send(
        url,
        {
          method,
          headers: { 'user-agent': this.options.userAgent, accept: accept.join(', '), ...headers },
          lookup: pinned,
          agent: false,
          signal,
        },
        resolve,
      )
      request.on('error', reject)
      request.end(body)
    })
  }

  private async read(response: IncomingMessage, signal: AbortSignal): Promise<string> {
    const declared = Number(response.headers['content-length'])
    if (Number.isFinite(declared) && declared > this.options.maxBytes) {
      response.destroy()
      throw new FetchRefused(`body of ${declared} bytes is over ${this.options.maxBytes}`, 'size')
    }
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of response) {
      signal.throwIfAborted()
      size += (chunk as Buffer).length
      if (size > this.options.maxBytes) {
        response.destroy()
        throw new FetchRefused(`body is over ${this.options.maxBytes} bytes`, 'size')
      }
      chunks.push(chunk as Buffer)
    }
    return Buffer.concat(chunks).toString('utf8')
  }
}

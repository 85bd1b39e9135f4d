import type { ExportedFile, FactdeskApi, ReportUpdate } from '../../../shared/api'
import { ApiError, remoteServiceRefused } from '../../../shared/errors'
import {
  answerError,
  API_BASE,
  EVENTS_PATH,
  restOperations,
  restRequest,
  type RestRequest,
} from '../../../shared/rest'
import { CLOSED, PageEventStream, type EventStream } from './events'
import { openSession, pageKeyHeader, type Page } from './session'

/// The longest wait before opening a stream that gave up again; the first waits 2 s, each next one twice as long.
const MAX_REOPEN_MS = 60_000

/// The browser-mode bridge: the REST API of the page's own origin, signed in by the session that the one-time
/// link in the address bar is traded for first (its cookie, and the page's key in a header); pushed updates from
/// its Server-Sent Events stream.
export function httpApi(
  page: Page = window,
  openEvents: (url: string, headers: () => Record<string, string>) => EventStream = (url, headers) =>
    new PageEventStream(page, url, headers),
): FactdeskApi {
  const session = openSession(page)

  async function send(
    method: 'GET' | 'POST' | 'PATCH',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    try {
      await session
      return await page.fetch(API_BASE + path, {
        method,
        credentials: 'same-origin',
        headers: {
          Accept: 'application/json',
          ...pageKeyHeader(page),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    } catch {
      throw new ApiError('internal_error', 'Cannot reach Factdesk: is `factdesk web` still running?')
    }
  }

  async function call<T>({ method, path, schema, body, headers }: RestRequest<T>): Promise<T> {
    const response = await send(method, path, body, headers)
    const answer: unknown = await response.json().catch(() => null)
    if (!response.ok) throw answerError(response.status, answer, 'Factdesk')
    const result = schema.safeParse(answer)
    if (!result.success)
      throw new ApiError('internal_error', `Factdesk answered ${path} in an unexpected form.`)
    return result.data
  }

  // One stream for every listener, opened with the first and closed with the last. After a dropped connection
  // the stream reconnects by itself and the server sends what was missed (`Last-Event-ID`). After an answer
  // that is not a stream (a proxy's 502, a server starting) it gives up: it is opened again here, later each
  // time, and the listeners are told to read again what they show, as nothing can be sent of what they missed.
  const listeners = new Set<(update: ReportUpdate) => void>()
  let stream: EventStream | null = null
  let opening = false
  let reopening: ReturnType<typeof setTimeout> | null = null
  let failures = 0
  const tell = (update: ReportUpdate): void => {
    for (const listener of listeners) listener(update)
  }
  const deliver = (event: MessageEvent<string>): void => {
    let update: ReportUpdate
    try {
      update = JSON.parse(event.data) as ReportUpdate
    } catch {
      return
    }
    tell(update)
  }
  const connect = (afterBreak: boolean): void => {
    const opened = openEvents(API_BASE + EVENTS_PATH, () => pageKeyHeader(page))
    stream = opened
    let missed = afterBreak
    opened.onmessage = deliver
    opened.onopen = () => {
      failures = 0
      if (missed) tell({ type: 'resync' })
      missed = false
    }
    opened.onerror = () => {
      if (opened.readyState !== CLOSED || stream !== opened) return
      opened.close()
      stream = null
      failures++
      reopening = setTimeout(
        () => {
          reopening = null
          if (listeners.size > 0 && !stream) connect(true)
        },
        Math.min(MAX_REOPEN_MS, 1000 * 2 ** failures),
      )
    }
  }
  const open = (): void => {
    if (stream || opening || reopening) return
    opening = true
    void session.finally(() => {
      opening = false
      if (listeners.size > 0 && !stream) connect(false)
    })
  }
  const shut = (): void => {
    if (reopening) clearTimeout(reopening)
    reopening = null
    failures = 0
    stream?.close()
    stream = null
  }

  // A file the API sends as an attachment: its bytes, its media type and the name it suggests.
  async function file(path: string): Promise<ExportedFile> {
    const response = await send('GET', path)
    if (!response.ok) throw answerError(response.status, await response.json().catch(() => null), 'Factdesk')
    const name = /filename\*=UTF-8''([^;]+)/i.exec(response.headers.get('Content-Disposition') ?? '')?.[1]
    return {
      fileName: name ? decodeURIComponent(name) : 'factdesk-report',
      contentType: response.headers.get('Content-Type') ?? 'application/octet-stream',
      data: new Uint8Array(await response.arrayBuffer()),
    }
  }

  return {
    ...restOperations(call),
    export: (checkId, query) => file(restRequest('export', checkId, query).path),
    // The page always talks to its own server: a remote service is a setting of the desktop app.
    testService: () => Promise.reject(remoteServiceRefused()),
    // A browser has no dialogs onto the disk: the page uploads files and downloads them instead.
    files: null,
    onOpenedFile: null,
    subscribe: (listener) => {
      listeners.add(listener)
      open()
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0) shut()
      }
    },
  }
}

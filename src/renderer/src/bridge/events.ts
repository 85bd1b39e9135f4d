import { EventStreamParser } from '../../../shared/eventStream'

/// The part of an `EventSource` the bridge uses; tests hand in their own.
export interface EventStream {
  onmessage: ((event: MessageEvent<string>) => void) | null
  onopen: ((event: Event) => void) | null
  onerror: ((event: Event) => void) | null
  readonly readyState: number
  close(): void
}

const CONNECTING = 0
const OPEN = 1
/// `EventSource.CLOSED`: the stream gave up and will not reconnect by itself.
export const CLOSED = 2
/// How long a dropped stream waits before it reconnects: `EventSource`'s usual wait.
const RECONNECT_MS = 3000

/// An event stream read as `EventSource` reads one, but with `fetch`, which can send the page's key (an
/// `EventSource` sends no header of its own). Like it, the stream reconnects by itself after a dropped
/// connection, sending the last event id back as `Last-Event-ID`, and gives up (CLOSED) on an answer that is not
/// a stream. `headers` is asked at each connection.
export class PageEventStream implements EventStream {
  onmessage: ((event: MessageEvent<string>) => void) | null = null
  onopen: ((event: Event) => void) | null = null
  onerror: ((event: Event) => void) | null = null
  readyState = CONNECTING
  private lastEventId = ''
  private readonly stopped = new AbortController()

  constructor(
    private readonly page: Pick<Window, 'fetch'>,
    private readonly url: string,
    private readonly headers: () => Record<string, string>,
  ) {
    void this.connect()
  }

  close(): void {
    this.readyState = CLOSED
    this.stopped.abort()
  }

  private async connect(): Promise<void> {
    let response: Response
    try {
      response = await this.page.fetch(this.url, {
        credentials: 'same-origin',
        cache: 'no-store',
        headers: {
          Accept: 'text/event-stream',
          ...this.headers(),
          ...(this.lastEventId === '' ? {} : { 'Last-Event-ID': this.lastEventId }),
        },
        signal: this.stopped.signal,
      })
    } catch {
      return this.dropped()
    }
    const isStream = (response.headers.get('Content-Type') ?? '').startsWith('text/event-stream')
    if (!response.ok || !isStream || !response.body) {
      await response.body?.cancel().catch(() => undefined)
      return this.giveUp()
    }
    if (this.readyState === CLOSED) return
    this.readyState = OPEN
    this.onopen?.(new Event('open'))
    const parser = new EventStreamParser()
    try {
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        for (const { id, data } of parser.push(read.value)) {
          if (id !== undefined) this.lastEventId = id
          // A block of comments (the server's keep-alive) carries no data and is no event.
          if (data !== '' && this.readyState === OPEN) {
            this.onmessage?.(new MessageEvent('message', { data, lastEventId: this.lastEventId }))
          }
        }
      }
    } catch {
      // A connection that broke off: reconnected below, as one that ended.
    }
    this.dropped()
  }

  private dropped(): void {
    if (this.readyState === CLOSED) return
    this.readyState = CONNECTING
    this.onerror?.(new Event('error'))
    setTimeout(() => {
      if (this.readyState !== CLOSED) void this.connect()
    }, RECONNECT_MS)
  }

  private giveUp(): void {
    if (this.readyState === CLOSED) return
    this.readyState = CLOSED
    this.onerror?.(new Event('error'))
  }
}

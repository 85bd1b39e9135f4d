import type { EventStream } from '../../src/renderer/src/bridge/events'

/// The page's `EventSource` as the bridge sees it, played by a test: it sends events, opens, drops (and
/// reconnects by itself, as a browser does) or gives up.
export class FakeEventStream implements EventStream {
  onmessage: ((event: MessageEvent<string>) => void) | null = null
  onopen: ((event: Event) => void) | null = null
  onerror: ((event: Event) => void) | null = null
  readyState = 0
  closed = false

  /// An event of the server: `update` as its JSON data, or a string as it is.
  send(update: unknown): void {
    const data = typeof update === 'string' ? update : JSON.stringify(update)
    this.onmessage?.({ data } as MessageEvent<string>)
  }

  open(): void {
    this.readyState = 1
    this.onopen?.(new Event('open'))
  }

  /// The connection broke: the browser reconnects by itself (with `Last-Event-ID`).
  drop(): void {
    this.readyState = 0
    this.onerror?.(new Event('error'))
  }

  /// An answer that is not a stream: the browser gives up for good.
  giveUp(): void {
    this.readyState = 2
    this.onerror?.(new Event('error'))
  }

  close(): void {
    this.closed = true
    this.readyState = 2
  }
}

// The text of a Server-Sent Events stream, read by the desktop app from a remote service and by the browser-mode
// page from its own server (neither can use `EventSource`: both send headers it cannot).

/// One event of a stream: the id it sets (undefined when it sets none) and its `data` lines joined.
export interface StreamedEvent {
  id: string | undefined
  data: string
}

/// Cuts the text of an event stream into events as the SSE specification reads it, however the text comes cut
/// into chunks: a line ends at CRLF, LF or CR (a CR that ends a chunk may be the first half of a CRLF, so an LF
/// that begins the next chunk ends no line), and a blank line ends an event. A field's name ends at the first
/// colon and one space after it is dropped, a line without a colon is a field without a value, a line that
/// starts with a colon is a comment, and an `id` with NUL in it is ignored. An event the stream ends before
/// finishing is never given.
export class EventStreamParser {
  /// The line read so far.
  private line = ''
  /// Whether the last chunk ended with a CR, whose LF may come first in the next.
  private afterCR = false
  private id: string | undefined
  private data: string[] = []
  /// Characters of the event's ended lines.
  private read = 0

  /// Characters of the event not ended yet: a stream may be cut off before it grows too long.
  get unfinished(): number {
    return this.read + this.line.length
  }

  /// The events `chunk` ends.
  push(chunk: string): StreamedEvent[] {
    const events: StreamedEvent[] = []
    let start = this.afterCR && chunk.startsWith('\n') ? 1 : 0
    if (chunk !== '') this.afterCR = chunk.endsWith('\r')
    const lineEnd = /\r\n|\r|\n/g
    lineEnd.lastIndex = start
    for (let end = lineEnd.exec(chunk); end; end = lineEnd.exec(chunk)) {
      const line = this.line + chunk.slice(start, end.index)
      this.line = ''
      start = lineEnd.lastIndex
      if (line === '') {
        events.push({ id: this.id, data: this.data.join('\n') })
        this.id = undefined
        this.data = []
        this.read = 0
      } else {
        this.field(line)
      }
    }
    this.line += chunk.slice(start)
    return events
  }

  private field(line: string): void {
    this.read += line.length
    const colon = line.indexOf(':')
    if (colon === 0) return
    const name = colon < 0 ? line : line.slice(0, colon)
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
    if (name === 'id' && !value.includes('\0')) this.id = value
    else if (name === 'data') this.data.push(value)
  }
}

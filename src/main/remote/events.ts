// A Factdesk service's event stream, `GET /events`: an extension of the specification (another service answers
// 404), one `ReportUpdate` per `data:` event, each with an `id:`. RemoteService reads only its research
// updates, for the step each names, which the specification's Research does not carry; reports and runs are
// still polled.
import { z } from 'zod'
import type { ReportUpdate } from '../../shared/api'
import { EventStreamParser } from '../../shared/eventStream'
import { Research, ResearchStep } from '../../shared/schemas'

export type ResearchUpdate = Extract<ReportUpdate, { type: 'research' }>

/// Who hears the pushed research updates, and is told when the updates missed during a break are lost.
export interface PushListener {
  hear(update: ResearchUpdate): void
  /// The stream came back without what happened while it was away: what is shown must be read again.
  resync(): void
  /// The stream is open (called before its first update), and `read` ends when it closes.
  open?(): void
}

/// The longest event read: a research update with its whole argument map is far below it.
const MAX_EVENT_CHARS = 4_000_000

/// An id that can be sent back as `Last-Event-ID`: a header value of a sane length (a Factdesk service's ids
/// have 24 characters at most). Any other cannot resume the stream.
const RESUMABLE_ID = /^[\x20-\x7e]{1,1000}$/

const StreamEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('research'),
    research: Research,
    step: ResearchStep.nullable(),
    sourcesRead: z.number().int().min(0),
  }),
  z.object({ type: z.literal('resync') }),
])

/// The event stream at `url`, read with the bearer `token`; each time it is read again after a break it goes
/// on from where it was left, as a browser's `EventSource` does: the id of the last event read goes back as
/// `Last-Event-ID`, and the service first sends what was missed, or `resync` when it cannot.
export class ResearchEvents {
  /// The last event id, as the SSE specification sets it: by each `id:` field read ('' when none).
  private lastEventId = ''
  /// Whether a stream was open before: one opened again without an id to resume from has missed what
  /// happened in between.
  private wasOpen = false

  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  /// Goes on from where `previous` (the same service's stream, read with another token) was left: the next read
  /// sends its last event id back, or, when it had read none, is a stream opened again without one (a resync).
  /// The service streams only the new token's organization, whatever the id.
  takeOver(previous: ResearchEvents): void {
    this.lastEventId = previous.lastEventId
    this.wasOpen = previous.wasOpen
  }

  /// Reads the stream, passing each research update to `listener` (and each resync), until it ends (true) or
  /// it turns out the service has none (false: 404, or an answer that is not `text/event-stream`). Throws
  /// when it cannot be read; `signal` stops it.
  async read(listener: PushListener, signal: AbortSignal): Promise<boolean> {
    const resuming = RESUMABLE_ID.test(this.lastEventId)
    const response = await fetch(this.url, {
      headers: {
        Accept: 'text/event-stream',
        Authorization: `Bearer ${this.token}`,
        ...(resuming ? { 'Last-Event-ID': this.lastEventId } : {}),
      },
      redirect: 'error',
      signal,
    })
    const isStream = (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
    if (response.status === 404 || (response.ok && !isStream)) {
      await response.body?.cancel()
      return false
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel()
      throw new Error(`GET /events answered ${response.status}`)
    }
    if (this.wasOpen && !resuming) listener.resync()
    this.wasOpen = true
    listener.open?.()
    const stream = new EventStreamParser()
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const events = stream.push(read.value)
      if (stream.unfinished > MAX_EVENT_CHARS) {
        await reader.cancel()
        throw new Error(`GET /events sent an event of over ${MAX_EVENT_CHARS} characters`)
      }
      for (const { id, data } of events) {
        if (id !== undefined) this.lastEventId = id
        const update = parsed(data)
        if (update?.type === 'resync') listener.resync()
        else if (update) listener.hear(update)
      }
    }
    return true
  }
}

/// The research update or resync an event's data carries, if it carries one.
function parsed(data: string): z.infer<typeof StreamEvent> | null {
  if (!data) return null
  try {
    const event = StreamEvent.safeParse(JSON.parse(data))
    return event.success ? event.data : null
  } catch {
    return null
  }
}

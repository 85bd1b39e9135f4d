// Reading the engine's Server-Sent Events stream (`GET /api/v1/events`) in tests.

/// One event of the stream: its id, if it has one, and its data.
export interface StreamEvent {
  id: string | undefined
  data: string
}

/// Takes the whole events at the start of `buffer` (each ends with a blank line) into `events`, those without data
/// (comments) left out; gives what is left of the buffer, the start of an event still to come.
function takeEvents(buffer: string, events: StreamEvent[]): string {
  let cut: number
  while ((cut = buffer.indexOf('\n\n')) >= 0) {
    const lines = buffer.slice(0, cut).split('\n')
    buffer = buffer.slice(cut + 2)
    const field = (name: string) =>
      lines
        .filter((line) => line.startsWith(`${name}:`))
        .map((line) => line.slice(name.length + 1).trimStart())
    const data = field('data').join('\n')
    if (data) events.push({ id: field('id').at(-1), data })
  }
  return buffer
}

/// Reads the events of `response` until `done` says enough has come, then closes the stream; fails when the
/// stream closes first or `timeoutMs` has passed.
export async function readStream(
  response: Response,
  done: (events: StreamEvent[]) => boolean,
  timeoutMs = 15_000,
): Promise<StreamEvent[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  const events: StreamEvent[] = []
  const deadline = Date.now() + timeoutMs
  let buffer = ''
  while (!done(events)) {
    if (Date.now() > deadline) throw new Error(`the stream ended early: ${JSON.stringify(events)}`)
    const { value, done: ended } = await reader.read()
    if (ended) throw new Error('the stream closed')
    buffer = takeEvents(buffer + value, events)
  }
  await reader.cancel()
  return events
}

/// A stream read in the background as it comes (`followStream`).
export interface FollowedStream {
  /// Its events so far.
  readonly events: readonly StreamEvent[]
  /// Whether anything has come yet (the server's first comment says the stream is connected).
  readonly opened: boolean
  /// Whether it has ended: closed by the server, broken, or aborted by the test.
  readonly ended: boolean
}

/// Reads the events of `response` in the background until it ends, however it ends (a server killed mid-stream
/// breaks it): what came until then stays in `events`.
export function followStream(response: Response): FollowedStream {
  const events: StreamEvent[] = []
  const followed = { events, opened: false, ended: false }
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  void (async () => {
    let buffer = ''
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        followed.opened = true
        buffer = takeEvents(buffer + value, events)
      }
    } catch {
      // Broken or aborted: the events read so far are all there is.
    } finally {
      followed.ended = true
    }
  })()
  return followed
}

/// Reads the JSON of each event of `response` until `done` says enough has come (see `readStream`).
export async function readEvents<T>(
  response: Response,
  done: (events: T[]) => boolean,
  timeoutMs = 15_000,
): Promise<T[]> {
  const parsed = (events: StreamEvent[]) => events.map((event) => JSON.parse(event.data) as T)
  return parsed(await readStream(response, (events) => done(parsed(events)), timeoutMs))
}

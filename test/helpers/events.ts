// Reading the engine's Server-Sent Events stream (`GET /api/v1/events`) in tests.

/// One event of the stream: its id, if it has one, and its data.
export interface StreamEvent {
  id: string | undefined
  data: string
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
    buffer += value
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
  }
  await reader.cancel()
  return events
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

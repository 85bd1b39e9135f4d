// Reading the engine's Server-Sent Events stream (`GET /api/v1/events`) in tests.

/// Reads the JSON of each event of `response` until `done` says enough has come, then closes the stream;
/// fails when the stream closes first or `timeoutMs` has passed.
export async function readEvents<T>(
  response: Response,
  done: (events: T[]) => boolean,
  timeoutMs = 15_000,
): Promise<T[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  const events: T[] = []
  const deadline = Date.now() + timeoutMs
  let buffer = ''
  while (!done(events)) {
    if (Date.now() > deadline) throw new Error(`the stream ended early: ${JSON.stringify(events)}`)
    const { value, done: ended } = await reader.read()
    if (ended) throw new Error('the stream closed')
    buffer += value
    let cut: number
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer
        .slice(0, cut)
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n')
      buffer = buffer.slice(cut + 2)
      if (data) events.push(JSON.parse(data) as T)
    }
  }
  await reader.cancel()
  return events
}

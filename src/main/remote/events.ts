// A Factdesk service's event stream, `GET /events`: an extension of the specification (another service answers
// 404), one `ReportUpdate` per `data:` event. RemoteService reads only its research updates, for the step each
// names, which the specification's Research does not carry; reports and runs are still polled.
import { z } from 'zod'
import type { ReportUpdate } from '../../shared/api'
import { Research, ResearchStep } from '../../shared/schemas'

export type ResearchUpdate = Extract<ReportUpdate, { type: 'research' }>

/// Who hears the pushed research updates.
export interface PushListener {
  hear(update: ResearchUpdate): void
}

/// The longest event read: a research update with its whole argument map is far below it.
const MAX_EVENT_CHARS = 4_000_000

const ResearchEvent = z.object({
  type: z.literal('research'),
  research: Research,
  step: ResearchStep.nullable(),
  sourcesRead: z.number().int().min(0),
})

/// Reads the event stream at `url` with the bearer `token`, passing each research update to `hear`, until the
/// stream ends (true) or it turns out the service has none (false: 404, or an answer that is not
/// `text/event-stream`). Throws when it cannot be read; `signal` stops it.
export async function readResearchEvents(
  url: string,
  token: string,
  listener: PushListener,
  signal: AbortSignal,
): Promise<boolean> {
  const response = await fetch(url, {
    headers: { Accept: 'text/event-stream', Authorization: `Bearer ${token}` },
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
  let buffer = ''
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffer += read.value
    const events = buffer.split(/\r?\n\r?\n/)
    buffer = events.pop() ?? ''
    if (buffer.length > MAX_EVENT_CHARS) {
      await reader.cancel()
      throw new Error(`GET /events sent an event of over ${MAX_EVENT_CHARS} characters`)
    }
    for (const event of events) {
      const update = researchUpdate(event)
      if (update) listener.hear(update)
    }
  }
  return true
}

/// The research update one event carries, if it carries one.
function researchUpdate(event: string): ResearchUpdate | null {
  const data = event
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).replace(/^ /, ''))
    .join('\n')
  if (!data) return null
  try {
    const parsed = ResearchEvent.safeParse(JSON.parse(data))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

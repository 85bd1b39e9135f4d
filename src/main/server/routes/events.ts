import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import { streamSSE } from 'hono/streaming'
import {
  RECENT_EVENTS,
  REPLAY_LIMIT,
  toUpdate,
  type ReportEvent,
  type ReportEvents,
} from '../../engine/base/events'
import { EVENTS_PATH } from '../../../shared/rest'
import type { ApiEnv } from '../auth'
import { errorResponses } from './responses'

/// A comment line this often keeps proxies and idle timers from closing a quiet stream.
const KEEP_ALIVE_MS = 25_000

const events = createRoute({
  method: 'get',
  path: EVENTS_PATH,
  operationId: 'events',
  summary: 'Report changes of the organization as Server-Sent Events (extension)',
  description:
    'One `message` event per change, its data a JSON `ReportUpdate`: `{"type":"check","check":Check}` when a ' +
    'check\'s status, progress or credits change, `{"type":"claim",...}` when a vote, a consensus or ' +
    'spelling issues land on a claim, and `{"type":"research","research":Research,"step","sourcesRead"}` ' +
    "when a deep research run is accepted, ends a step or ends. Only the token's organization is streamed. " +
    'Each event has an `id`; a client that reconnects with `Last-Event-ID` (as `EventSource` does), to this ' +
    'server or to another replica of a team server, is first sent the events it missed, or ' +
    '`{"type":"resync"}` when they are no longer known (a server on a data folder restarted, or more than ' +
    `${RECENT_EVENTS} changes happened; a team server keeps a day of changes, up to ${REPLAY_LIMIT} of them ` +
    'sent again): it should then read again what it shows.',
  request: {
    headers: z.object({ 'last-event-id': z.string().optional() }),
  },
  responses: {
    200: {
      content: { 'text/event-stream': { schema: z.string() } },
      description: 'An endless stream of `data: <json>` events',
    },
    ...errorResponses('read'),
  },
})

/// The event stream the browser-mode editor listens to, scoped to the caller's organization. A token revoked
/// (or a browser session ended) while its stream is open ends the stream: `isCurrent` is asked before each
/// event and at each keep-alive. A stream that comes back after a break gets what it missed first (from any
/// replica of a team server). Streams end when the server stops (`stopping`): their clients reconnect, to it or
/// to the next one.
export function eventRoutes(
  reports: Pick<ReportEvents, 'numbered' | 'follow'>,
  isCurrent: (tokenId: string) => Promise<boolean>,
  stopping?: AbortSignal,
): OpenAPIHono<ApiEnv> {
  return new OpenAPIHono<ApiEnv>().openapi(events, (c) => {
    const { organizationId, tokenId } = c.var.principal
    const lastId = c.req.valid('header')['last-event-id']
    c.header('Cache-Control', 'no-store')
    c.header('X-Accel-Buffering', 'no')
    return streamSSE(c, async (stream) => {
      let end = (): void => undefined
      const ended = new Promise<void>((resolve) => (end = resolve))
      stream.onAbort(end)
      if (stopping?.aborted) end()
      stopping?.addEventListener('abort', end, { once: true })
      let pending = Promise.resolve()
      const send = (write: () => Promise<unknown>): void => {
        pending = pending
          .then(async () => ((await isCurrent(tokenId)) ? write() : end()))
          .then(
            () => undefined,
            () => undefined,
          )
      }
      const pass = (event: ReportEvent, id: string): void => {
        if (event.organizationId !== organizationId) return
        const data = JSON.stringify(toUpdate(event))
        send(() => stream.writeSSE({ id, data }))
      }
      const resync = (): void => send(() => stream.writeSSE({ data: JSON.stringify({ type: 'resync' }) }))
      const stop =
        lastId === undefined ? reports.numbered(pass) : reports.follow(lastId, organizationId, pass, resync)
      const keepAlive = setInterval(() => send(() => stream.write(': keep-alive\n\n')), KEEP_ALIVE_MS)
      await stream.write(': connected\n\n')
      await ended
      clearInterval(keepAlive)
      stopping?.removeEventListener('abort', end)
      stop()
    }) as never
  })
}

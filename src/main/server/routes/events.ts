import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import { streamSSE } from 'hono/streaming'
import type { ReportEvents } from '../../engine/events'
import type { ApiEnv } from '../auth'
import { toUpdate } from '../reportUpdate'
import { errorResponses } from './responses'

/// A comment line this often keeps proxies and idle timers from closing a quiet stream.
const KEEP_ALIVE_MS = 25_000

const events = createRoute({
  method: 'get',
  path: '/events',
  summary: 'Report changes of the organization as Server-Sent Events (extension)',
  description:
    'One `message` event per change, its data a JSON `ReportUpdate`: `{"type":"check","check":Check}` when a ' +
    'check\'s status, progress or credits change, `{"type":"claim",...}` when a vote, a consensus or ' +
    'spelling issues land on a claim, and `{"type":"research","research":Research,"step","sourcesRead"}` ' +
    "when a deep research run is accepted, ends a step or ends. Only the token's organization is streamed.",
  responses: {
    200: {
      content: { 'text/event-stream': { schema: z.string() } },
      description: 'An endless stream of `data: <json>` events',
    },
    ...errorResponses('read'),
  },
})

/// The event stream the browser-mode editor listens to, scoped to the caller's organization.
export function eventRoutes(reports: Pick<ReportEvents, 'subscribe'>): OpenAPIHono<ApiEnv> {
  return new OpenAPIHono<ApiEnv>().openapi(events, (c) => {
    const { organizationId } = c.var.principal
    c.header('Cache-Control', 'no-store')
    c.header('X-Accel-Buffering', 'no')
    return streamSSE(c, async (stream) => {
      let pending = Promise.resolve()
      const stop = reports.subscribe((event) => {
        if (event.organizationId !== organizationId) return
        const data = JSON.stringify(toUpdate(event))
        pending = pending.then(() => stream.writeSSE({ data })).catch(() => undefined)
      })
      const keepAlive = setInterval(() => {
        pending = pending
          .then(() => stream.write(': keep-alive\n\n'))
          .then(
            () => undefined,
            () => undefined,
          )
      }, KEEP_ALIVE_MS)
      await stream.write(': connected\n\n')
      await new Promise<void>((resolve) => stream.onAbort(resolve))
      clearInterval(keepAlive)
      stop()
    }) as never
  })
}

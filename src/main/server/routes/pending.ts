import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import { CreateCheckRequest, PendingCheck, PendingCheckList } from '../../../shared/schemas'
import type { PendingQueue } from '../../engine/pending'
import type { ApiEnv } from '../auth'
import { error, errorResponses, ok } from './responses'

const byId = z.object({ id: z.string().meta({ description: 'A pending check id, `pnd_…`' }) })

const queue = createRoute({
  method: 'post',
  path: '/pending-checks',
  summary: 'Queue a check to be submitted once its providers can be reached (extension)',
  description:
    'For a check refused with 503 `providers_unreachable`: the same body as `POST /checks`. The engine submits ' +
    'it with this `Idempotency-Key` (one is made up without it) when a probe of its providers succeeds, ' +
    'retrying with backoff; a repeat with the same key and body answers the first. Charged only when submitted.',
  request: {
    body: { content: { 'application/json': { schema: CreateCheckRequest } }, required: true },
    headers: z.object({
      'idempotency-key': z
        .string()
        .optional()
        .meta({ description: 'The key the check is submitted with; repeats answer the first' }),
    }),
  },
  responses: {
    202: ok(PendingCheck, 'The queued check (also for a repeat)'),
    ...errorResponses('write'),
    422: error('Well-formed but not acceptable'),
  },
})

const list = createRoute({
  method: 'get',
  path: '/pending-checks',
  summary: 'The organization’s queued checks, newest first (extension)',
  request: {
    query: z.object({
      status: z.enum(['waiting']).optional().meta({ description: 'Only those still waiting' }),
    }),
  },
  responses: { 200: ok(PendingCheckList, 'At most 100 queued checks'), ...errorResponses('read') },
})

const get = createRoute({
  method: 'get',
  path: '/pending-checks/{id}',
  summary: 'A queued check: waiting, submitted (with its checkId), cancelled or failed (extension)',
  request: { params: byId },
  responses: { 200: ok(PendingCheck, 'The queued check'), ...errorResponses('read') },
})

const cancel = createRoute({
  method: 'post',
  path: '/pending-checks/{id}/cancel',
  summary: 'Cancel a queued check that has not started (extension)',
  request: { params: byId },
  responses: {
    200: ok(PendingCheck, 'The cancelled check'),
    ...errorResponses('write'),
    422: error('It has started (cancel the check instead) or failed'),
  },
})

/// The routes of checks queued to run when online.
export function pendingRoutes(pending: PendingQueue): OpenAPIHono<ApiEnv> {
  return new OpenAPIHono<ApiEnv>()
    .openapi(queue, (c) => {
      const queued = pending.queue(
        c.var.principal,
        c.req.valid('json'),
        c.req.valid('header')['idempotency-key'],
      )
      if (queued.replayed) c.header('Idempotent-Replayed', 'true')
      return c.json(queued.pending, 202)
    })
    .openapi(list, (c) =>
      c.json(pending.list(c.var.principal, c.req.valid('query').status === 'waiting'), 200),
    )
    .openapi(get, (c) => c.json(pending.get(c.var.principal, c.req.valid('param').id), 200))
    .openapi(cancel, (c) => c.json(pending.cancel(c.var.principal, c.req.valid('param').id), 200))
}

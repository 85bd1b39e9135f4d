import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import {
  Check,
  CheckList,
  CreateCheckRequest,
  Estimate,
  EstimateRequest,
  PatchCheckRequest,
  Report,
} from '../../../shared/schemas'
import type { Service } from '../../engine/service'
import type { ApiEnv } from '../auth'
import { error, errorResponses, ok } from './responses'

const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
})
const byId = z.object({ id: z.string().meta({ description: 'A check id, `chk_…`' }) })
const with402 = { 402: error('The balance does not cover the price') }
const with422 = { 422: error('Well-formed but not acceptable') }

const estimate = createRoute({
  method: 'post',
  path: '/checks/estimate',
  summary: 'Quote the claims of a text and their price; charges nothing',
  request: json(EstimateRequest),
  responses: {
    200: ok(Estimate, 'The claims, the price and whether the balance covers it'),
    ...errorResponses('write'),
    ...with422,
    429: error(
      'More estimates in a minute than `limits.estimatesPerMinute`; `Retry-After` says when to retry',
    ),
  },
})

const submit = createRoute({
  method: 'post',
  path: '/checks',
  summary: 'Submit a check of a text or of an estimated document',
  request: {
    ...json(CreateCheckRequest),
    headers: z.object({
      'idempotency-key': z
        .string()
        .optional()
        .meta({ description: 'Repeats with the same key and body return the first check' }),
    }),
  },
  responses: {
    202: ok(Check, 'The accepted check (also for an idempotent replay)'),
    ...errorResponses('write'),
    ...with402,
    ...with422,
    503: error('Extension: the model or search providers of t2/t3 cannot be reached; nothing charged'),
  },
})

const list = createRoute({
  method: 'get',
  path: '/checks',
  summary: 'The organization’s checks, newest first (extension)',
  request: {
    query: z.object({
      limit: z.string().regex(/^\d+$/, 'must be a whole number').optional(),
      cursor: z.string().optional(),
    }),
  },
  responses: { 200: ok(CheckList, 'A page of checks'), ...errorResponses('read') },
})

const get = createRoute({
  method: 'get',
  path: '/checks/{id}',
  summary: 'A check and its status',
  request: { params: byId },
  responses: { 200: ok(Check, 'The check'), ...errorResponses('read') },
})

const etag = z.string().meta({ description: 'A strong tag of this version of the report, in this coding' })
const report = createRoute({
  method: 'get',
  path: '/checks/{id}/report',
  summary: 'The report: claims, votes per model, consensus per tier',
  request: {
    params: byId,
    headers: z.object({
      'if-none-match': z
        .string()
        .optional()
        .meta({ description: 'The `ETag` of a version the client holds: 304 while it is current' }),
      'accept-encoding': z
        .string()
        .optional()
        .meta({ description: '`br` or `gzip` for a compressed body (`Content-Encoding`)' }),
    }),
  },
  responses: {
    200: {
      ...ok(Report, 'The report as far as it is filled in'),
      headers: z.object({ ETag: etag, Vary: z.string().meta({ description: '`Accept-Encoding`' }) }),
    },
    304: {
      description: 'Not modified: `If-None-Match` names the current version',
      headers: z.object({ ETag: etag }),
    },
    ...errorResponses('read'),
  },
})

const cancel = createRoute({
  method: 'post',
  path: '/checks/{id}/cancel',
  summary: 'Stop a check and refund it',
  request: { params: byId },
  responses: { 200: ok(Check, 'The cancelled check'), ...errorResponses('write'), ...with422 },
})

const patch = createRoute({
  method: 'patch',
  path: '/checks/{id}',
  summary: 'Edit name, author or sourceUrl',
  request: { params: byId, ...json(PatchCheckRequest) },
  responses: { 200: ok(Check, 'The updated check'), ...errorResponses('write'), ...with422 },
})

/// The check routes: estimate, submit, list, read, report, cancel, edit.
export function checkRoutes(service: Service): OpenAPIHono<ApiEnv> {
  return new OpenAPIHono<ApiEnv>()
    .openapi(estimate, async (c) => c.json(await service.estimate(c.var.principal, c.req.valid('json')), 200))
    .openapi(submit, async (c) => {
      const { check, replayed } = await service.submit(
        c.var.principal,
        c.req.valid('json'),
        c.req.valid('header')['idempotency-key'],
      )
      if (replayed) c.header('Idempotent-Replayed', 'true')
      return c.json(check, 202)
    })
    .openapi(list, (c) => {
      const { limit, cursor } = c.req.valid('query')
      return c.json(
        service.listChecks(c.var.principal, limit === undefined ? undefined : Number(limit), cursor ?? null),
        200,
      )
    })
    .openapi(get, (c) => c.json(service.getCheck(c.var.principal, c.req.valid('param').id), 200))
    .openapi(report, (c) => c.json(service.report(c.var.principal, c.req.valid('param').id), 200))
    .openapi(cancel, (c) => c.json(service.cancel(c.var.principal, c.req.valid('param').id), 200))
    .openapi(patch, (c) =>
      c.json(service.patch(c.var.principal, c.req.valid('param').id, c.req.valid('json')), 200),
    )
}

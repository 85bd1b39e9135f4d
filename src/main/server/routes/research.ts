import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import { Research, ResearchRequest } from '../../../shared/schemas'
import type { DeepResearch } from '../../engine/research'
import type { ApiEnv } from '../auth'
import { error, errorResponses, ok } from './responses'

const start = createRoute({
  method: 'post',
  path: '/research',
  summary: 'Start deep research on one claim (a claimId from a report, or free text); flat price',
  request: { body: { content: { 'application/json': { schema: ResearchRequest } }, required: true } },
  responses: {
    202: ok(Research, 'The accepted research, charged'),
    ...errorResponses('write'),
    402: error('The balance does not cover the price'),
    422: error('Well-formed but not acceptable'),
    503: error(
      'Extension: the model or search providers of deep research cannot be reached; nothing charged',
    ),
  },
})

const get = createRoute({
  method: 'get',
  path: '/research/{id}',
  summary: 'A deep research run; poll until its status is terminal',
  request: { params: z.object({ id: z.string().meta({ description: 'A research id, `rsc_…`' }) }) },
  responses: { 200: ok(Research, 'The research and, once completed, its result'), ...errorResponses('read') },
})

/// The deep research routes.
export function researchRoutes(research: DeepResearch): OpenAPIHono<ApiEnv> {
  return new OpenAPIHono<ApiEnv>()
    .openapi(start, async (c) => c.json(await research.create(c.var.principal, c.req.valid('json')), 202))
    .openapi(get, (c) => c.json(research.get(c.var.principal, c.req.valid('param').id), 200))
}

import type { OpenAPIHono } from '@hono/zod-openapi'
import { z } from 'zod'
import { API_BASE, OPENAPI_PATH } from '../../shared/rest'
import type { WebhookEvent } from '../../shared/webhooks'
import { PAGE_KEY_HEADER } from '../../shared/browserSession'
import { SESSION_COOKIE, type ApiEnv } from './auth'
import { MISDIRECTED, ok } from './routes/responses'

/// The body of a webhook delivery of `type` (service-api.md, section 6; api-decisions.md, "Webhooks").
const webhookEvent = <Type extends WebhookEvent['type'], Status extends WebhookEvent['data']['status']>(
  type: Type,
  status: Status,
) =>
  z.object({
    id: z.string().meta({ description: '`evt_…`: the same on every retry and in `X-SVC-Delivery`' }),
    type: z.literal(type),
    createdAt: z.string().meta({ description: 'ISO-8601 UTC timestamp' }),
    data: z.object({
      checkId: z.string(),
      status: z.literal(status),
      claimCount: z.int(),
      verdicts: z
        .record(z.string(), z.int())
        .meta({ description: 'How many consensus entries reached each verdict, all tiers together' }),
      completedAt: z.string().nullable(),
    }),
  }) satisfies z.ZodType<WebhookEvent>

const SIGNED = z.object({
  'X-SVC-Signature': z.string().meta({
    description:
      '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body">>`, one `v1` per signing secret while an old one ' +
      'is still valid; reject a delivery whose `t` is more than 300 seconds off',
  }),
  'X-SVC-Event': z.string().meta({ description: 'The event type' }),
  'X-SVC-Delivery': z.string().meta({ description: 'The body’s `id`' }),
})

/// Registers what the routes do not declare themselves: how a caller signs in (an API token; in browser mode
/// also the page's session), the webhook deliveries a check with a `callbackUrl` sends, and this document's own
/// route.
export function describeApi(api: OpenAPIHono<ApiEnv>, acceptSessionCookie: boolean): void {
  const registry = api.openAPIRegistry
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API token: `factdesk token create --scope read|write`.',
  })
  if (acceptSessionCookie) {
    registry.registerComponent('securitySchemes', 'session', {
      type: 'apiKey',
      in: 'cookie',
      name: SESSION_COOKIE,
      description: 'The browser session of `factdesk web` (the owner), together with its page key',
    })
    registry.registerComponent('securitySchemes', 'pageKey', {
      type: 'apiKey',
      in: 'header',
      name: PAGE_KEY_HEADER,
      description: 'The key only the page of `factdesk web` holds, sent with its session cookie',
    })
  }
  for (const [type, status, when] of [
    ['check.completed', 'completed', 'A check reached `completed`'],
    ['check.failed', 'failed', 'A check reached `failed`'],
  ] as const) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      operationId: type,
      summary: `${when}: POSTed to its \`callbackUrl\``,
      description:
        'Retried with backoff for about 40 minutes until the receiver answers 2xx; redirects are not followed.',
      request: {
        headers: SIGNED,
        body: { content: { 'application/json': { schema: webhookEvent(type, status) } }, required: true },
      },
      responses: {
        200: { description: 'Received (any 2xx)' },
        400: { description: 'Refused (any other answer): delivered again later' },
      },
    })
  }
  registry.registerPath({
    method: 'get',
    path: OPENAPI_PATH,
    operationId: 'openapi',
    summary: 'This document; no token needed',
    security: [],
    responses: {
      200: ok(z.record(z.string(), z.unknown()), 'The OpenAPI 3.1 document of this API'),
      421: MISDIRECTED,
    },
  })
}

/// The OpenAPI document of `api`; `acceptSessionCookie` as `describeApi` was told.
export const openApiDocument = (api: OpenAPIHono<ApiEnv>, acceptSessionCookie: boolean) =>
  api.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Factdesk fact-checking service',
      version: '1',
      description: 'Fact-check text in tiers (t1 spelling and grammar, t2 model panel, t3 web research).',
    },
    servers: [{ url: API_BASE }],
    security: [{ bearer: [] }, ...(acceptSessionCookie ? [{ session: [], pageKey: [] }] : [])],
  })

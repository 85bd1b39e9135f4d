import { createRoute, OpenAPIHono } from '@hono/zod-openapi'
import { Credits, Me, WebhookSecret, WebhookSecretRotation } from '../../../shared/schemas'
import type { Service } from '../../engine/service'
import type { ApiEnv } from '../auth'
import { errorResponses, ok } from './responses'

const me = createRoute({
  method: 'get',
  path: '/me',
  summary: 'The organization the token acts as',
  responses: { 200: ok(Me, 'The organization and the token'), ...errorResponses('read') },
})

const credits = createRoute({
  method: 'get',
  path: '/credits',
  summary: 'The remaining balance and the prices',
  responses: { 200: ok(Credits, 'Balance and price list'), ...errorResponses('read') },
})

const webhookSecret = createRoute({
  method: 'get',
  path: '/webhook-secret',
  summary: 'The webhook signing secret (write scope)',
  responses: {
    200: ok(WebhookSecret, 'The current secret; rotated-out ones still valid are listed without value'),
    ...errorResponses('write'),
  },
})

const rotateWebhookSecret = createRoute({
  method: 'post',
  path: '/webhook-secret/rotate',
  summary: 'Issue a new signing secret; the old one stays valid for 24 hours',
  responses: { 200: ok(WebhookSecretRotation, 'The new secret'), ...errorResponses('write') },
})

/// Routes about the caller's organization: who am I, credits, the webhook secret.
export function accountRoutes(service: Service): OpenAPIHono<ApiEnv> {
  return new OpenAPIHono<ApiEnv>()
    .openapi(me, (c) => c.json(service.me(c.var.principal), 200))
    .openapi(credits, (c) => c.json(service.credits(c.var.principal), 200))
    .openapi(webhookSecret, (c) => c.json(service.webhookSecret(c.var.principal), 200))
    .openapi(rotateWebhookSecret, (c) => c.json(service.rotateWebhookSecret(c.var.principal), 200))
}

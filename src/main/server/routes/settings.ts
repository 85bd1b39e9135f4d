import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import {
  ApiToken,
  CreatedToken,
  CreateTokenRequest,
  Credits,
  GrantRequest,
  ModelTest,
  ModelTestRequest,
  SearchTest,
  SearchTestRequest,
  OllamaDetection,
  Settings,
  SettingsPatch,
  TokenList,
} from '../../../shared/schemas'
import type { AppSettings } from '../../engine/settings'
import type { ApiEnv } from '../auth'
import { error, errorResponses, ok } from './responses'

// An extension of the specification: the app's settings, tokens and credits. Only the person at this computer
// may call these (the desktop app, the session of `factdesk web`); every API token gets 403.

const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
})
const ownerOnly = {
  ...errorResponses('write'),
  403: error('Only the desktop app or the `factdesk web` session may do this; API tokens never can'),
}
const tags = ['Settings (extension)']

const getSettings = createRoute({
  method: 'get',
  path: '/settings',
  tags,
  summary: 'The app settings: models, search, writing, local server; keys only as hasKey and last4',
  responses: { 200: ok(Settings, 'The settings'), ...ownerOnly },
})

const patchSettings = createRoute({
  method: 'patch',
  path: '/settings',
  tags,
  summary: 'Save parts of the settings; new work uses them at once',
  request: json(SettingsPatch),
  responses: { 200: ok(Settings, 'The settings as saved'), ...ownerOnly },
})

const testModel = createRoute({
  method: 'post',
  path: '/settings/models/test',
  tags,
  summary: 'Test a model with one small structured request (the saved key when none is given)',
  request: json(ModelTestRequest),
  responses: { 200: ok(ModelTest, 'Whether it answered, and how fast, or why not'), ...ownerOnly },
})

const testSearch = createRoute({
  method: 'post',
  path: '/settings/search/test',
  tags,
  summary: 'Test a search provider with one search (the saved key when none is given)',
  request: json(SearchTestRequest),
  responses: { 200: ok(SearchTest, 'Whether it answered, how fast and with what, or why not'), ...ownerOnly },
})

const detectOllama = createRoute({
  method: 'get',
  path: '/settings/ollama',
  tags,
  summary: 'A local Ollama and the models it has pulled',
  responses: { 200: ok(OllamaDetection, 'Whether Ollama answers, and its models'), ...ownerOnly },
})

const listTokens = createRoute({
  method: 'get',
  path: '/tokens',
  tags,
  summary: "The organization's API tokens, never their values",
  responses: { 200: ok(TokenList, 'The tokens, revoked ones included'), ...ownerOnly },
})

const createToken = createRoute({
  method: 'post',
  path: '/tokens',
  tags,
  summary: 'Create a read or write token; its value is in this answer only',
  request: json(CreateTokenRequest),
  responses: { 201: ok(CreatedToken, 'The token and, this once, its value'), ...ownerOnly },
})

const revokeToken = createRoute({
  method: 'post',
  path: '/tokens/{id}/revoke',
  tags,
  summary: 'Revoke a token; requests with it get 401 from now on',
  request: { params: z.object({ id: z.string().meta({ description: 'A token id, `tok_…`' }) }) },
  responses: {
    200: ok(ApiToken, 'The revoked token'),
    ...ownerOnly,
    422: error('The token this session signs in with'),
  },
})

const grant = createRoute({
  method: 'post',
  path: '/credits/grants',
  tags,
  summary: 'Add credits to the organization',
  request: json(GrantRequest),
  responses: { 201: ok(Credits, 'The new balance and the prices'), ...ownerOnly },
})

/// The settings, tokens and credit grants of the person at this computer.
export function settingsRoutes(settings: AppSettings): OpenAPIHono<ApiEnv> {
  return new OpenAPIHono<ApiEnv>()
    .openapi(getSettings, (c) => c.json(settings.view(c.var.principal), 200))
    .openapi(patchSettings, async (c) =>
      c.json(await settings.update(c.var.principal, c.req.valid('json')), 200),
    )
    .openapi(testModel, async (c) =>
      c.json(await settings.probes.testModel(c.var.principal, c.req.valid('json')), 200),
    )
    .openapi(testSearch, async (c) =>
      c.json(await settings.probes.testSearch(c.var.principal, c.req.valid('json')), 200),
    )
    .openapi(detectOllama, async (c) => c.json(await settings.probes.detectOllama(c.var.principal), 200))
    .openapi(listTokens, (c) => c.json(settings.listTokens(c.var.principal), 200))
    .openapi(createToken, (c) => c.json(settings.createToken(c.var.principal, c.req.valid('json')), 201))
    .openapi(revokeToken, (c) => c.json(settings.revokeToken(c.var.principal, c.req.valid('param').id), 200))
    .openapi(grant, (c) => c.json(settings.grantCredits(c.var.principal, c.req.valid('json').amount), 201))
}

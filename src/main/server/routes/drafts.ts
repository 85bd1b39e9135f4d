import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import {
  CreateDraftRequest,
  Draft,
  DraftList,
  DraftSummary,
  ImportFileRequest,
  SaveDraftRequest,
} from '../../../shared/schemas'
import type { DraftService } from '../../engine/drafts'
import type { ApiEnv } from '../auth'
import { error, errorResponses, ok } from './responses'

// An extension of the specification: the writer's drafts, autosaved by the editor (browser mode), of the
// token's organization. Files on disk are the desktop app's alone and have no route.

const json = <T extends z.ZodType>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
})
const draftId = { params: z.object({ id: z.string().meta({ description: 'A draft id, `drf_…`' }) }) }
const tags = ['Drafts (extension)']

const list = createRoute({
  method: 'get',
  path: '/drafts',
  tags,
  summary: 'The drafts, the most recently opened first, without their text',
  responses: { 200: ok(DraftList, 'The recent drafts'), ...errorResponses('read') },
})

const create = createRoute({
  method: 'post',
  path: '/drafts',
  tags,
  summary: 'A new draft',
  request: json(CreateDraftRequest),
  responses: { 201: ok(Draft, 'The draft'), ...errorResponses('write') },
})

const importFile = createRoute({
  method: 'post',
  path: '/drafts/import',
  tags,
  summary: 'A new draft of a file: Markdown or text as it is, a Word document (.docx) converted to Markdown',
  request: json(ImportFileRequest),
  responses: {
    201: ok(Draft, 'The draft holding the file'),
    ...errorResponses('write'),
    422: error('Not a Markdown, text or Word file, or not readable as one'),
  },
})

const open = createRoute({
  method: 'post',
  path: '/drafts/{id}/open',
  tags,
  summary: 'A draft with its text and its last check’s claim anchors; it moves to the top of the recent list',
  request: draftId,
  responses: { 200: ok(Draft, 'The draft'), ...errorResponses('write') },
})

const save = createRoute({
  method: 'patch',
  path: '/drafts/{id}',
  tags,
  summary: 'Autosave: the text, title or last check of a draft; idempotent',
  request: { ...draftId, ...json(SaveDraftRequest) },
  responses: { 200: ok(DraftSummary, 'The draft as saved, without its text'), ...errorResponses('write') },
})

/// The draft routes.
export function draftRoutes(drafts: DraftService): OpenAPIHono<ApiEnv> {
  return new OpenAPIHono<ApiEnv>()
    .openapi(list, (c) => c.json(drafts.list(c.var.principal), 200))
    .openapi(create, (c) => c.json(drafts.create(c.var.principal, c.req.valid('json')), 201))
    .openapi(importFile, async (c) =>
      c.json(await drafts.importFile(c.var.principal, c.req.valid('json')), 201),
    )
    .openapi(open, (c) => c.json(drafts.open(c.var.principal, c.req.valid('param').id), 200))
    .openapi(save, (c) =>
      c.json(drafts.save(c.var.principal, c.req.valid('param').id, c.req.valid('json')), 200),
    )
}

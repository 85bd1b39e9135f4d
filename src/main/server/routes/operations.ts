import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import {
  isRestOperation,
  OPERATION_TABLE,
  OPERATIONS,
  restRouteOf,
  type Operation,
  type OperationArgs,
  type RestOperation,
  type RestRoute,
} from '../../../shared/operations'
import { requireAccess } from '../../engine/checks/access'
import { API_BASE } from '../../../shared/rest'
import { runOperation, type OperationParts } from '../../engine/operations'
import type { ApiEnv } from '../auth'
import { errorResponses, ok } from './responses'

const IDEMPOTENCY = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .meta({ description: 'Repeats with the same key and body answer the first' }),
})
const etag = z.string().meta({ description: 'A strong tag of this version of the report, in this coding' })
const CONDITIONAL = z.object({
  'if-none-match': z
    .string()
    .optional()
    .meta({ description: 'The `ETag` of a version the client holds: 304 while it is current' }),
  'accept-encoding': z
    .string()
    .optional()
    .meta({ description: '`br` or `gzip` for a compressed body (`Content-Encoding`)' }),
})
const TAGGED = z.object({ ETag: etag, Vary: z.string().meta({ description: '`Accept-Encoding`' }) })
const NOT_MODIFIED = {
  description: 'Not modified: `If-None-Match` names the current version',
  headers: z.object({ ETag: etag }),
}
const REPLAYED = z.object({
  'Idempotent-Replayed': z.enum(['true']).optional().meta({
    description: 'Sent when this answers a repeat of an earlier request with the same key and body',
  }),
})

/// An operation's arguments as they arrive over HTTP: the path's `{…}` segments, then at most one object, the
/// query of a GET or the JSON body of the others (see `RestRoute`).
export function restArguments(operation: Operation, route: RestRoute) {
  const items = OPERATION_TABLE[operation].args.def.items
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string)
  const object = items[names.length] as z.ZodObject | undefined
  return {
    names,
    params:
      names.length > 0 ? z.object(Object.fromEntries(names.map((name, at) => [name, items[at]]))) : null,
    // Extra query parameters are let through, as on any web page; a body's members are the declaration's.
    query: object && route.method === 'get' ? z.object(object.shape) : null,
    body: object && route.method !== 'get' ? object : null,
  }
}

/// The OpenAPI declaration of an operation's route: what validates its requests and documents it.
function declare(
  operation: RestOperation,
  route: RestRoute,
  { params, query, body }: ReturnType<typeof restArguments>,
  middleware: MiddlewareHandler<ApiEnv>[],
) {
  const { result, access, summary } = OPERATION_TABLE[operation]
  const errors = errorResponses(access, route.errors)
  return createRoute({
    method: route.method,
    path: route.path,
    operationId: operation,
    summary,
    ...(route.description ? { description: route.description } : {}),
    ...(route.tags ? { tags: route.tags } : {}),
    middleware,
    request: {
      ...(params ? { params } : {}),
      ...(query ? { query } : {}),
      ...(body ? { body: { content: { 'application/json': { schema: body } }, required: true } } : {}),
      ...(route.idempotent ? { headers: IDEMPOTENCY } : route.cached ? { headers: CONDITIONAL } : {}),
    },
    responses: {
      [route.status]: {
        ...ok(result, route.answer),
        ...(route.idempotent ? { headers: REPLAYED } : route.cached ? { headers: TAGGED } : {}),
      },
      ...(route.cached ? { 304: NOT_MODIFIED } : {}),
      ...errors,
    },
  })
}

/// The routes of every operation answered as JSON, each validating its request against the operation's
/// declaration and running it on the engine. `middleware` runs before the handler of the operations it names.
export function operationRoutes(
  parts: OperationParts,
  middleware: { [Op in RestOperation]?: MiddlewareHandler<ApiEnv>[] } = {},
): OpenAPIHono<ApiEnv> {
  const api = new OpenAPIHono<ApiEnv>()
  for (const operation of OPERATIONS.filter(isRestOperation)) {
    const route = restRouteOf(operation) as RestRoute
    const request = restArguments(operation, route)
    const { names, query, body } = request
    api.openapi(declare(operation, route, request, middleware[operation] ?? []), async (c) => {
      // Validated by the route's declaration: read here without the per-route types a literal route would have.
      const valid = c.req.valid.bind(c.req) as (target: string) => Record<string, unknown>
      const params = names.length > 0 ? valid('param') : {}
      const args = [
        ...names.map((name) => params[name]),
        ...(query ? [valid('query')] : body ? [valid('json')] : []),
        ...(route.idempotent ? [valid('header')['idempotency-key']] : []),
      ] as OperationArgs<typeof operation>
      const result = await runOperation(
        parts,
        operation,
        { principal: c.var.principal, replayed: () => c.header('Idempotent-Replayed', 'true') },
        args,
      )
      return c.json(result as object, route.status)
    })
  }
  return api
}

/// Refuses a caller below the declared access of the operation its request is routed to, before the request's
/// body is read: the same rule `runOperation` holds every path to, applied first on REST. A route of no operation
/// (the event stream) is left to its handler.
export function operationAccess(): MiddlewareHandler<ApiEnv> {
  const declared = new Map(
    OPERATIONS.flatMap((operation) => {
      const route = restRouteOf(operation)
      if (!route) return []
      // As Hono's router writes the path: `{id}` as `:id`.
      const path = route.path.replaceAll(/\{(\w+)\}/g, ':$1')
      return [[`${route.method.toUpperCase()} ${path}`, OPERATION_TABLE[operation].access] as const]
    }),
  )
  return async (c, next) => {
    for (const route of c.req.matchedRoutes) {
      const path = route.path.startsWith(API_BASE) ? route.path.slice(API_BASE.length) : route.path
      const access = declared.get(`${route.method} ${path}`)
      if (access) requireAccess(c.var.principal, access)
    }
    await next()
  }
}

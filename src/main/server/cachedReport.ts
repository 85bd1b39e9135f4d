import type { HttpBindings } from '@hono/node-server'
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response'
import type { Context, MiddlewareHandler } from 'hono'
import type { Coding, ReportCache } from '../engine/checks/reports'
import type { ApiEnv } from './auth'

/// `GET /checks/{id}/report` from the engine's serialized reports: a strong `ETag` per version and coding,
/// `304 Not Modified` for an `If-None-Match` that names the version, the body compressed when
/// `Accept-Encoding` asks for brotli or gzip (the compressed bytes kept with the version).
export function cachedReport(reports: ReportCache): MiddlewareHandler<ApiEnv> {
  return async (c) => {
    const report = await reports.report(c.var.principal, c.req.param('id') ?? '')
    const coding = preferredCoding(c.req.header('Accept-Encoding'))
    const headers: Record<string, string> = {
      ETag: report.etag(coding),
      Vary: 'Accept-Encoding',
      // A running check's report changes as its claims land: ask each time, a 304 when it has not.
      'Cache-Control': 'private, no-cache',
    }
    const tags = ([null, 'gzip', 'br'] as const).map((each) => report.etag(each))
    if (matches(c.req.header('If-None-Match'), tags)) return send(c, headers, null)
    headers['Content-Type'] = 'application/json'
    if (coding !== null) headers['Content-Encoding'] = coding
    return send(c, headers, coding === null ? report.json : await report.encode(coding))
  }
}

/// Sends a kept report's bytes as they are, or with none `304 Not Modified`. Served by @hono/node-server, they
/// are written to Node's response at once, without a Response and its Headers made and read back for every
/// request (a few microseconds each); headers set on the context before would not be sent (none are on this
/// route).
function send(
  c: Context<ApiEnv>,
  headers: Record<string, string>,
  body: Buffer<ArrayBuffer> | null,
): Response {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing
  if (!outgoing) return body ? c.body(body, 200, headers) : c.body(null, 304, headers)
  if (body) headers['Content-Length'] = String(body.length)
  outgoing.writeHead(body ? 200 : 304, headers)
  outgoing.end(body ?? undefined)
  return RESPONSE_ALREADY_SENT
}

/// The coding `Accept-Encoding` prefers, brotli before gzip when it ranks them the same; null for none.
function preferredCoding(accept: string | undefined): Coding | null {
  let best: { coding: Coding; q: number } | null = null
  for (const item of (accept ?? '').split(',')) {
    const [name = '', ...params] = item.trim().toLowerCase().split(';')
    const q = Number(params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean) ?? 1)
    const coding = name.trim() === 'br' ? 'br' : name.trim() === 'gzip' ? 'gzip' : null
    if (coding && q > 0 && (!best || q > best.q || (q === best.q && coding === 'br'))) best = { coding, q }
  }
  return best?.coding ?? null
}

/// Whether `If-None-Match` names one of `tags` (compared weakly, as RFC 9110 asks for this header) or is `*`.
function matches(ifNoneMatch: string | undefined, tags: readonly string[]): boolean {
  if (ifNoneMatch === undefined) return false
  if (ifNoneMatch.trim() === '*') return true
  return ifNoneMatch.split(',').some((tag) => tags.includes(tag.trim().replace(/^W\//, '')))
}

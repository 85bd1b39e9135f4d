import { validate } from '@readme/openapi-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from '../../helpers/server'

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

describe('GET /api/v1/openapi.json', () => {
  it('needs no token and lists every implemented path with its method', async () => {
    const res = await fetch(`${server.api}/openapi.json`)
    expect(res.status).toBe(200)
    const doc = await res.json()
    expect(doc.openapi).toBe('3.1.0')
    const operations = Object.entries(doc.paths as Record<string, object>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(operations.sort()).toEqual([
      'GET /checks',
      'GET /checks/{id}',
      'GET /checks/{id}/export',
      'GET /checks/{id}/report',
      'GET /credits',
      'GET /drafts',
      'GET /events',
      'GET /me',
      'GET /openapi.json',
      'GET /pending-checks',
      'GET /pending-checks/{id}',
      'GET /research',
      'GET /research/{id}',
      'GET /settings',
      'GET /settings/ollama',
      'GET /tokens',
      'GET /webhook-secret',
      'PATCH /checks/{id}',
      'PATCH /drafts/{id}',
      'PATCH /settings',
      'POST /checks',
      'POST /checks/estimate',
      'POST /checks/{id}/cancel',
      'POST /credits/grants',
      'POST /drafts',
      'POST /drafts/import',
      'POST /drafts/{id}/open',
      'POST /pending-checks',
      'POST /pending-checks/{id}/cancel',
      'POST /research',
      'POST /settings/models/test',
      'POST /settings/search/test',
      'POST /tokens',
      'POST /tokens/{id}/revoke',
      'POST /webhook-secret/rotate',
    ])
    // The extension's refusal when the providers cannot be reached is documented where it can happen.
    for (const path of ['/checks', '/research']) expect(doc.paths[path].post.responses).toHaveProperty('503')
    expect(doc.components.schemas).toHaveProperty('Error')
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' })
  })

  it('describes manuscripts: the part a check is, the part a submission is, and the limit of one check', async () => {
    const { schemas } = (await (await fetch(`${server.api}/openapi.json`)).json()).components
    expect(schemas.CheckManuscript.required).toEqual(['id', 'parts'])
    expect(schemas.Check.properties.manuscript).toEqual({ $ref: '#/components/schemas/CheckManuscript' })
    expect(schemas.Check.required).not.toContain('manuscript')
    expect(schemas.CreateCheckRequest.properties.manuscript.required).toEqual(['id', 'part', 'parts'])
    expect(schemas.Me.properties.limits).toEqual({ $ref: '#/components/schemas/Limits' })
    expect(schemas.Limits.properties.maxTextChars.type).toBe('integer')
    expect(schemas.Limits.properties.draftBytes.type).toBe('integer')
  })

  it('describes the source policy where settings and reports carry it, and the trusted mark of a citation', async () => {
    const { schemas } = (await (await fetch(`${server.api}/openapi.json`)).json()).components
    expect(schemas.SourcePolicy.required).toEqual(['prefer', 'only', 'never'])
    expect(schemas.Settings.properties.sources).toEqual({ $ref: '#/components/schemas/SourcePolicy' })
    expect(schemas.SettingsPatch.properties.sources).toEqual({
      $ref: '#/components/schemas/SourcePolicyInput',
    })
    expect(schemas.SourcePolicyInput.additionalProperties).toBe(false)
    expect(schemas.Report.required).toContain('sources')
    expect(schemas.Citation.properties.preferred.type).toBe('boolean')
    expect(schemas.Citation.required).toContain('preferred')
  })

  it('is a valid OpenAPI 3.1 document', async () => {
    const doc = await (await fetch(`${server.api}/openapi.json`)).json()
    const result = await validate(doc)
    expect(result.valid ? [] : result.errors).toEqual([])
    expect(result.valid).toBe(true)
  })
})

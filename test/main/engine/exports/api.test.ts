import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseHTML } from 'linkedom'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXPORT_FORMAT_IDS, EXPORT_FORMATS } from '../../../../src/shared/exportFormats'
import { ReportExport } from '../../../../src/shared/reportExport'
import { Report } from '../../../../src/shared/schemas'
import {
  call,
  expectEnvelope,
  startServer,
  tempDir,
  waitForEnd,
  type TestServer,
} from '../../../helpers/server'

// The real engine and HTTP server, a t1 check (Harper, offline), and every format read back over REST.

const TEXT =
  'The Eiffel Tower is 330 metres tall and it recieves seven million visitors a year.\n\n' +
  'Mount Everest is 8,849 metres high.'

let server: TestServer
let checkId: string
let report: Report

beforeAll(async () => {
  server = await startServer()
  const submitted = await call(server, 'POST', '/checks', {
    body: { text: TEXT, tiers: ['t1'], name: 'Tall things.md' },
  })
  checkId = submitted.json.id
  await waitForEnd(server, checkId, 60_000)
  report = Report.parse((await call(server, 'GET', `/checks/${checkId}/report`)).json)
}, 90_000)

afterAll(() => server.close())

const download = async (format: string, token = server.read) => {
  const response = await fetch(`${server.api}/checks/${checkId}/export?format=${format}`, {
    headers: { Authorization: `Bearer ${token}` },
  })
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) }
}

describe('GET /checks/{id}/export', () => {
  it('serves the HTML export to a read token, as an attachment named after the check', async () => {
    expect(report.claims.length).toBeGreaterThanOrEqual(2)
    const { response, bytes } = await download('html')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Tall-things-factcheck.html"; filename*=UTF-8''Tall-things-factcheck.html`,
    )
    expect(response.headers.get('content-security-policy')).toContain('sandbox')
    const { document } = parseHTML(new TextDecoder().decode(bytes))
    const marks = [...document.querySelectorAll('mark.claim')]
    expect(marks.map((mark) => mark.textContent)).toEqual(report.claims.map((claim) => claim.text))
    report.claims.forEach((claim, index) => {
      const verdict = claim.consensus.t1?.verdict
      expect(verdict).toBeDefined()
      expect(marks[index]?.classList.contains(`verdict-${verdict}`)).toBe(true)
    })
    // Harper finds "recieves": the claim holding it has issues.
    expect(document.querySelector('mark.verdict-issues')?.textContent).toContain('recieves')
  })

  it('serves Markdown, Word and JSON with their media types', async () => {
    const md = await download('md')
    expect(md.response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(new TextDecoder().decode(md.bytes).match(/^\[\^claim-\d+\]:/gm)).toHaveLength(report.claims.length)
    const docx = await download('docx')
    expect(docx.response.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    )
    expect(String.fromCharCode(...docx.bytes.slice(0, 2))).toBe('PK')
    const json = await download('json')
    expect(json.response.headers.get('content-type')).toBe('application/json; charset=utf-8')
    // The report, each claim counted by the verdict the report shows, and the claims that need attention (none).
    const exported = ReportExport.parse(JSON.parse(new TextDecoder().decode(json.bytes)))
    const { headlineVerdicts, needAttention, spellingFixes, ...summary } = exported.summary
    expect({ ...exported, summary }).toEqual({ ...report, attention: [] })
    expect(needAttention).toBe(0)
    // A t1 check corrects "recieves" as its claim's correction: no spelling fix stands beside it.
    expect(spellingFixes).toBe(0)
    const shown = report.claims.map((claim) => claim.consensus.t1?.verdict)
    expect(Object.values(headlineVerdicts).reduce((all, count) => all + count, 0)).toBe(report.claims.length)
    expect(headlineVerdicts.issues).toBe(shown.filter((verdict) => verdict === 'issues').length)
    expect(headlineVerdicts.clean).toBe(shown.filter((verdict) => verdict === 'clean').length)
    expect(headlineVerdicts.refuted).toBe(0)
  })

  it('serves every format of the registry with its media type, named with its extension', async () => {
    for (const format of EXPORT_FORMAT_IDS) {
      const { response } = await download(format)
      const { mediaType, extension } = EXPORT_FORMATS[format]
      expect(response.status, format).toBe(200)
      expect(response.headers.get('content-type')).toBe(mediaType)
      expect(response.headers.get('content-disposition')).toContain(
        `filename="Tall-things-factcheck.${extension}"`,
      )
    }
  }, 60_000)

  it('prints the PDF from the HTML export: pdftotext finds the claims and their verdicts', async () => {
    const { response, bytes } = await download('pdf')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    const file = join(tempDir(), 'report.pdf')
    writeFileSync(file, bytes)
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ')
    expect(text).toContain('Mount Everest is 8,849 metres high.')
    expect(text).toContain('SPELLING OR GRAMMAR ISSUES')
    expect(text).toContain('2 claims, 0 need attention.')
  }, 60_000)

  it('refuses a missing token, a bad format, and another organization’s check', async () => {
    const anonymous = await fetch(`${server.api}/checks/${checkId}/export?format=html`)
    expect(anonymous.status).toBe(401)
    expectEnvelope(await anonymous.json(), 'unauthorized')

    const bad = await call(server, 'GET', `/checks/${checkId}/export?format=rtf`, { token: server.read })
    expect(bad.status).toBe(400)
    expectEnvelope(bad.json, 'bad_request')
    const badComments = await call(server, 'GET', `/checks/${checkId}/export?format=md&comments=none`, {
      token: server.read,
    })
    expect(badComments.status).toBe(400)
    expectEnvelope(badComments.json, 'bad_request')
    const missing = await call(server, 'GET', `/checks/${checkId}/export`, { token: server.read })
    expect(missing.status).toBe(400)

    const other = await server.engine.admin.createOrganization('Other', 10)
    const outsider = (await server.engine.admin.createToken('read', other.id, 'outsider')).value
    const hidden = await call(server, 'GET', `/checks/${checkId}/export?format=html`, { token: outsider })
    expect(hidden.status).toBe(404)
    expectEnvelope(hidden.json, 'not_found')
    const unknown = await call(server, 'GET', '/checks/chk_nope/export?format=md', { token: server.read })
    expect(unknown.status).toBe(404)
  })

  it('is documented in the OpenAPI document with every media type', async () => {
    const doc = await (await fetch(`${server.api}/openapi.json`)).json()
    const operation = doc.paths['/checks/{id}/export'].get
    expect(operation.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'comments',
      'format',
      'id',
    ])
    const format = operation.parameters.find((p: { name: string }) => p.name === 'format')
    expect(doc.components.schemas[format.schema.$ref.split('/').at(-1)].enum).toEqual(EXPORT_FORMAT_IDS)
    const content = operation.responses['200'].content
    expect(Object.keys(content).sort()).toEqual([
      'application/json; charset=utf-8',
      'application/ld+json',
      'application/pdf',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'text/html; charset=utf-8',
      'text/markdown; charset=utf-8',
    ])
    expect(content['application/json; charset=utf-8'].schema.$ref).toBe('#/components/schemas/ReportExport')
    expect(content['application/ld+json'].schema.items.$ref).toBe('#/components/schemas/ClaimReview')
    expect(Object.keys(operation.responses)).toContain('404')
  })
})

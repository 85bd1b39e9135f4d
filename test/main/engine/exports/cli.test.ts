import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openEngine } from '../../../../src/main/engine/engine'
import { hasEnded } from '../../../../src/shared/vocabulary'
import { EXPORT_FORMATS } from '../../../../src/shared/exportFormats'
import { factdesk } from '../../../helpers/cli'
import { tempDir } from '../../../helpers/server'

// A t1 check run in a data folder, then exported by `factdesk export` from that folder.
async function checkedFolder(): Promise<{ dir: string; checkId: string }> {
  const dir = tempDir()
  const engine = await openEngine({ dataDir: dir, runJobs: true })
  try {
    const principal = await engine.localPrincipal()
    const { check } = await engine.service.submit(principal, {
      text: 'The Moon is 384,400 km from the Earth.\n\nWater boils at 50 degrees Celsius at sea level.',
      tiers: ['t1'],
      name: 'science.md',
    })
    if (!hasEnded(await engine.service.getCheck(principal, check.id))) await engine.events.ended(check.id)
    return { dir, checkId: check.id }
  } finally {
    await engine.close()
  }
}

describe('factdesk export', () => {
  it('writes Markdown to stdout, Word and PDF to --out, and refuses what it cannot do', async () => {
    const { dir, checkId } = await checkedFolder()

    const md = await factdesk(['export', checkId, '--format', 'md', '--data-dir', dir])
    expect(md.code).toBe(0)
    expect(md.stdout.match(/^\[\^claim-\d+\]:/gm)).toHaveLength(2)
    expect(md.stdout).toContain('Water boils at 50 degrees Celsius at sea level.[^claim-2]')

    const out = join(tempDir(), 'science.pdf')
    const pdf = await factdesk(['export', checkId, '--format', 'pdf', '--out', out, '--data-dir', dir])
    expect(pdf.code).toBe(0)
    expect(pdf.stderr).toContain(`wrote ${out}`)
    const text = execFileSync('pdftotext', [out, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ')
    expect(text).toContain('The Moon is 384,400 km from the Earth.')

    const docxOut = join(tempDir(), 'science.docx')
    expect(
      (await factdesk(['export', checkId, '--format', 'docx', '--out', docxOut, '--data-dir', dir])).code,
    ).toBe(0)
    expect(readFileSync(docxOut).subarray(0, 2).toString()).toBe('PK')

    const binary = await factdesk(['export', checkId, '--format', 'docx', '--data-dir', dir])
    expect(binary.code).toBe(2)
    expect(binary.stderr).toContain('A docx export needs --out FILE.')
    const bad = await factdesk(['export', checkId, '--format', 'odt', '--data-dir', dir])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--format must be html, pdf, docx, md, json or claimreview')
    // A t1 check decides no claim true or false: there is no review to publish.
    const reviews = await factdesk(['export', checkId, '--format', 'claimreview', '--data-dir', dir])
    expect(reviews.code).toBe(0)
    expect(JSON.parse(reviews.stdout)).toEqual([])
    const unknown = await factdesk(['export', 'chk_nope', '--format', 'md', '--data-dir', dir])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('factdesk: There is no check chk_nope.')
  }, 120_000)

  it("asks for --org for a check of another organization, and exports it with that organization's id", async () => {
    const { dir, checkId } = await checkedFolder()
    const engine = await openEngine({ dataDir: dir, runJobs: false })
    let other: string
    try {
      other = (await engine.admin.createOrganization('Other desk', 0)).id
    } finally {
      await engine.close()
    }
    const own = await factdesk(['export', checkId, '--format', 'md', '--org', other, '--data-dir', dir])
    expect(own.code).toBe(1)
    const local = own.stderr.match(/add --org (\S+)\./)?.[1]
    expect(own.stderr).toContain(
      `factdesk: Check ${checkId} belongs to organization ${local}: add --org ${local}.`,
    )
    const md = await factdesk(['export', checkId, '--format', 'md', '--org', local!, '--data-dir', dir])
    expect(md.code).toBe(0)
    expect(md.stdout).toContain('The Moon is 384,400 km from the Earth.')
    const none = await factdesk(['export', checkId, '--format', 'md', '--org', 'org_nope', '--data-dir', dir])
    expect(none.stderr).toContain('There is no organization org_nope.')
  }, 120_000)

  it('is in the help with exactly the registry’s formats, in its order', async () => {
    const help = await factdesk(['help'])
    expect(help.stdout).toContain(
      'export CHECK_ID --format html|pdf|docx|md|json|claimreview [--out FILE] [--org ID]',
    )
    expect(help.stdout).toContain('[--comments needed|all]')
    const formats = /export CHECK_ID --format (\S+)/.exec(help.stdout)?.[1]?.split('|')
    expect(formats).toEqual(Object.keys(EXPORT_FORMATS))
  })
})

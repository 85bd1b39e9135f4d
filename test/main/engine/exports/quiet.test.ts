import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { writeFileSync } from 'node:fs'
import { strFromU8, unzipSync } from 'fflate'
import { DOMParser, parseHTML } from 'linkedom'
import MarkdownIt from 'markdown-it'
import footnotes from 'markdown-it-footnote'
import { describe, expect, it } from 'vitest'
import { toDocx } from '../../../../src/main/engine/exports/docx'
import { toHtml } from '../../../../src/main/engine/exports/html'
import { toMarkdown } from '../../../../src/main/engine/exports/markdown'
import { chromiumPdf } from '../../../../src/main/engine/exports/pdf'
import { VOCABULARY } from '../../../../src/shared/vocabulary'
import { tempDir } from '../../../helpers/server'
import { articleReport } from './article'

// The article as a real check of a long one comes out: nothing could confirm most of its claims. Those are
// listed at the end instead of a comment or note each, unless every claim is to be noted.
const { report, expected } = articleReport({ unconfirmed: true })
const quiet = new Set(expected.quiet)
const noted = report.claims.filter((claim) => !quiet.has(claim.claimId))
const numberOf = (claimId: string): number =>
  report.claims.findIndex((claim) => claim.claimId === claimId) + 1
const SUMMARY_LINE = `${expected.quiet.length} claims could not be confirmed: see the list at the end`

/// The ids of the claims a Word file comments on (a comment's id is its claim's number − 1).
async function commented(bytes: Uint8Array): Promise<string[]> {
  const xml = strFromU8(unzipSync(bytes)['word/comments.xml'] as Uint8Array)
  return [...new DOMParser().parseFromString(xml, 'text/xml').getElementsByTagName('w:comment')].map(
    (comment) => report.claims[Number(comment.getAttribute('w:id'))]!.claimId,
  )
}

describe('the claims nothing confirmed, in a mostly unconfirmed article', () => {
  it('is the case the issue describes: most claims quiet, the one with a spelling finding not', () => {
    expect(expected.quiet.length).toBeGreaterThan(report.claims.length / 2)
    expect(quiet.has(expected.withFinding)).toBe(false)
    expect(quiet.has(expected.disputed)).toBe(false)
    for (const claimId of expected.attention) expect(quiet.has(claimId)).toBe(false)
  })

  it('gives Word comments only to the claims that need them, and lists the others in the appendix', async () => {
    const bytes = await toDocx(report)
    expect(await commented(bytes)).toEqual(noted.map((claim) => claim.claimId))
    const files = unzipSync(bytes)
    const body = strFromU8(files['word/document.xml'] as Uint8Array)
    expect(body.match(/<w:commentRangeStart /g)).toHaveLength(noted.length)
    expect(body.match(/<w:commentReference /g)).toHaveLength(noted.length)
    // A quiet claim is underlined with dots of its verdict's colour, not shaded.
    expect(body).toContain(
      `<w:u w:val="dotted" w:color="${VOCABULARY.unverifiable.colour.light.slice(1).toUpperCase()}"/>`,
    )
    const text = body.replace(/<[^>]+>/g, '')
    expect(text).toContain(`${SUMMARY_LINE}.`)
    const list = text.slice(text.indexOf('Could not be confirmed'))
    for (const claimId of expected.quiet)
      expect(list).toContain(`“${report.claims[numberOf(claimId) - 1]!.text.slice(0, 30)}`)
    expect(list).toContain(': no evidence found')
  })

  it('notes every claim in Word when asked for all comments', async () => {
    expect(await commented(await toDocx(report, 'all'))).toEqual(report.claims.map((claim) => claim.claimId))
  })

  it('marks a quiet claim lightly in the HTML, with no note, and lists it at the end with a link to it', () => {
    const { document } = parseHTML(toHtml(report))
    expect(document.querySelector('.quiet-line')?.textContent).toBe(SUMMARY_LINE)
    const notes = [...document.querySelectorAll('.notes > li')].map((note) =>
      note.getAttribute('data-claim-id'),
    )
    expect(notes).toEqual(noted.map((claim) => claim.claimId))
    const refs = [...document.querySelectorAll('.article sup.ref a')].map((ref) => ref.textContent)
    expect(refs).toEqual(noted.map((claim) => String(numberOf(claim.claimId))))
    const quietMarks = [...document.querySelectorAll('.article mark.claim.quiet')]
    expect(new Set(quietMarks.map((mark) => mark.getAttribute('data-claim-id')))).toEqual(quiet)
    expect(document.querySelectorAll('.details .detail')).toHaveLength(noted.length)

    const items = [...document.querySelectorAll('.quiet-list li')]
    expect(items.map((item) => item.getAttribute('data-claim-id'))).toEqual(expected.quiet)
    const first = items[0]!
    const target = first.querySelector('a')?.getAttribute('href')
    expect(target).toBe(`#claim-${numberOf(expected.quiet[0]!)}`)
    expect(document.querySelector(target!)?.getAttribute('data-claim-id')).toBe(expected.quiet[0])
    expect(first.querySelector('.place')?.textContent).toMatch(/^paragraph \d+ under “.+”$/)
    expect(first.textContent).toContain('no evidence found')
    for (const item of items) expect(item.querySelector('a')!.textContent!.length).toBeLessThanOrEqual(83)
  })

  it('prints the HTML to a PDF with the summary line, a note box only for the noted claims, pages shorter', async () => {
    const printed = async (comments: 'needed' | 'all') => {
      const file = join(tempDir(), `${comments}.pdf`)
      writeFileSync(file, await chromiumPdf(toHtml(report, comments)))
      const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1])
      return {
        pages,
        text: execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' '),
      }
    }
    const [needed, all] = [await printed('needed'), await printed('all')]
    expect(needed.text).toContain(SUMMARY_LINE)
    expect(needed.text).toContain('COULD NOT BE CONFIRMED')
    // One note of that verdict is left: the claim with a spelling finding's.
    const boxes = (text: string) => text.match(/UNVERIFIABLE: NO EVIDENCE FOUND/g)?.length ?? 0
    expect(boxes(needed.text)).toBe(1)
    expect(boxes(all.text)).toBeGreaterThanOrEqual(expected.quiet.length)
    expect(needed.pages).toBeLessThan(all.pages - 2)
  }, 60_000)

  it('notes every claim in the HTML when asked for all comments, as before', () => {
    const { document } = parseHTML(toHtml(report, 'all'))
    expect(document.querySelectorAll('.notes > li')).toHaveLength(report.claims.length)
    expect(document.querySelectorAll('.article sup.ref')).toHaveLength(report.claims.length)
    expect(document.querySelector('.quiet-line, .quiet-list, mark.quiet')).toBeNull()
  })

  it('gives the Markdown the summary line, footnotes for the noted claims and one list of the quiet ones', () => {
    const markdown = toMarkdown(report)
    expect(markdown).toContain(`> ${SUMMARY_LINE}  \n`)
    const definitions = [...markdown.matchAll(/^\[\^claim-(\d+)\]:/gm)].map(([, n]) => Number(n))
    expect(definitions).toEqual(noted.map((claim) => numberOf(claim.claimId)))
    const list = markdown.slice(markdown.indexOf('**Could not be confirmed**'))
    const lines = list.split('\n').filter((line) => line.startsWith('- '))
    expect(lines).toHaveLength(expected.quiet.length)
    expect(lines[0]).toMatch(/^- “.+”, paragraph \d+ under “.+”: no evidence found$/)
    // Rendered, every reference has its footnote and every footnote its reference; the text is as submitted.
    const { document } = parseHTML(
      `<html><body>${new MarkdownIt().use(footnotes).render(markdown)}</body></html>`,
    )
    expect(document.querySelectorAll('section.footnotes li.footnote-item')).toHaveLength(noted.length)
    expect(document.querySelectorAll('sup.footnote-ref')).toHaveLength(noted.length)
    expect(markdown.replace(/\[\^claim-\d+\](?!:)/g, '')).toContain(report.text.trimEnd())
  })

  it('gives every claim its footnote in Markdown when asked for all comments', () => {
    const markdown = toMarkdown(report, 'all')
    expect(markdown.match(/^\[\^claim-\d+\]:/gm)).toHaveLength(report.claims.length)
    expect(markdown).not.toContain('could not be confirmed')
  })
})

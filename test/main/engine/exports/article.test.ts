import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { DOMParser, parseHTML } from 'linkedom'
import mammoth from 'mammoth'
import MarkdownIt from 'markdown-it'
import footnotes from 'markdown-it-footnote'
import { chromium } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { extractClaims } from '../../../../src/main/engine/claims'
import { toDocx } from '../../../../src/main/engine/exports/docx'
import { toHtml } from '../../../../src/main/engine/exports/html'
import { toMarkdown } from '../../../../src/main/engine/exports/markdown'
import { memo } from '../../../../src/main/engine/exports/memo'
import { CHROMIUM_ARGS, chromiumPdf } from '../../../../src/main/engine/exports/pdf'
import { VOCABULARY } from '../../../../src/shared/vocabulary'
import { tempDir } from '../../../helpers/server'
import { articleReport, HEBREW, LINKED_CLAIM_URL } from './article'

// The 1,500-word article of issue 24, checked with t1, t2 and t3, in every format an editor reads.
const { report, expected } = articleReport()
const claimById = (id: string) => report.claims.find((claim) => claim.claimId === id)!
const DOCS = join(process.cwd(), 'docs')

describe('the report of a 1,500-word article', () => {
  it('is the article the issue describes', () => {
    expect(report.text.split(/\s+/).length).toBeGreaterThanOrEqual(1450)
    expect(report.claims.length).toBeGreaterThanOrEqual(60)
  })

  it('has claims in its paragraphs only: none of its title, headings, byline or date', () => {
    const claims = extractClaims(report.text)
    expect(claims.length).toBeGreaterThanOrEqual(60)
    const lineOf = (at: number) => report.text.slice(report.text.lastIndexOf('\n', at) + 1).split('\n')[0]!
    expect(claims.filter((claim) => /^#|^\*/.test(lineOf(claim.charStart)))).toEqual([])
    expect(claims.map((claim) => claim.text)).toContain(HEBREW)
  })

  it('lists exactly the claims that need attention, with where each is and one line of reason', () => {
    const memoed = memo(report)
    expect(memoed.attention.map((claim) => claim.claim.claimId)).toEqual(expected.attention)
    const disputed = memoed.claims.find((claim) => claim.claim.claimId === expected.disputed)!
    expect(disputed.verdict).toBe('disputed')
    expect(disputed.place).toEqual({
      heading: 'Voices',
      introduction: false,
      kind: 'paragraph',
      number: 2,
      list: null,
    })
    // A correction that is no rewrite of the claim is not offered.
    expect(
      memoed.claims.find((claim) => claim.claim.claimId === expected.badCorrection)?.correction,
    ).toBeNull()
  })

  it('renders as HTML: a memo first, then the article as headings, lists, links and code, then the notes', () => {
    const { document } = parseHTML(toHtml(report))
    const attention = [...document.querySelectorAll('.attention li')]
    expect(attention.map((item) => item.getAttribute('data-claim-id'))).toEqual(expected.attention)
    expect(document.querySelector('.lead strong')?.textContent).toBe(
      `${report.claims.length} claims, 5 need attention.`,
    )
    // The verdicts pictured as one bar: a part per verdict, in the vocabulary's order and light colours.
    const bar = document.querySelector('svg.verdict-bar')
    const counts = memo(report).counts
    expect(bar?.getAttribute('aria-label')).toBe(
      counts.map(({ verdict, count }) => `${VOCABULARY[verdict].label} ${count}`).join(', '),
    )
    const parts = [...(bar?.querySelectorAll('rect') ?? [])]
    expect(parts.map((part) => part.getAttribute('data-verdict'))).toEqual(
      counts.map(({ verdict }) => verdict),
    )
    expect(parts.map((part) => part.getAttribute('fill'))).toEqual(
      counts.map(({ verdict }) => VOCABULARY[verdict].colour.light),
    )
    const disputed = attention.find((item) => item.getAttribute('data-claim-id') === expected.disputed)
    expect(disputed?.textContent).toContain('Check by hand')
    expect(disputed?.textContent).toContain('paragraph 2 under “Voices”')
    expect(disputed?.textContent).toContain('The t3 panel refuted it; no source confirmed it: check by hand.')
    // Counted apart from the unverifiable claims.
    expect(document.querySelector('.counts [data-verdict="unverifiable"] .count')?.textContent).toBe('1')

    const article = document.querySelector('.article')!
    expect(article.querySelector('h1')?.textContent).toBe('The climate in review 🌍')
    expect([...article.querySelectorAll('h2')].map((h) => h.textContent).slice(0, 4)).toEqual([
      'What the record shows',
      'Ice and sea',
      'Voices',
      'Politics',
    ])
    expect(article.querySelectorAll('ul > li')).toHaveLength(3)
    expect(article.querySelector('code')?.textContent).toBe('noaa-co2')
    expect(article.querySelector('blockquote mark.claim')).not.toBeNull()
    const link = article.querySelector(`a[href="${LINKED_CLAIM_URL}"]`)
    expect(link?.querySelector('mark')?.getAttribute('data-claim-id')).toBe(expected.linked)
    expect(link?.nextElementSibling?.matches('sup.ref')).toBe(true)
    expect(article.querySelector('p[dir="rtl"] mark')?.textContent).toBe(HEBREW)
    expect(article.textContent).not.toMatch(/#|\]\(http|\*By|`/)
    const marks = new Set(
      [...article.querySelectorAll('mark.claim')].map((m) => m.getAttribute('data-claim-id')),
    )
    expect(marks.size).toBe(report.claims.length)

    // Notes short, details after: every model's vote in order, the spelling checker not among them.
    const details = document.querySelector(
      `#details-${report.claims.indexOf(claimById(expected.withFinding)) + 1}`,
    )
    expect(
      [...(details?.querySelectorAll('.vote') ?? [])].map((vote) => vote.getAttribute('data-model')),
    ).toEqual(['panel-a', 'panel-b', 'panel-c', 'panel-a', 'panel-b', 'panel-c'])
    expect(details?.textContent?.match(/Possible spelling mistake/g)).toHaveLength(1)
    expect(document.querySelector('.notes')?.textContent).not.toContain('Possible spelling mistake')
    expect(document.querySelector('.details')?.textContent).not.toContain('harper')
    // The same report with its votes stored in another order exports the same.
    const reordered = {
      ...report,
      claims: report.claims.map((claim) => ({ ...claim, evaluations: [...claim.evaluations].reverse() })),
    }
    expect(toHtml(reordered)).toBe(toHtml(report))
    expect(toMarkdown(reordered)).toBe(toMarkdown(report))
  })

  it('prints to at most 13 A4 pages, the Markdown rendered; screenshots of the page and of the PDF', async () => {
    const html = toHtml(report)
    const file = join(tempDir(), 'report.pdf')
    writeFileSync(file, await chromiumPdf(html))
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1])
    expect(pages).toBeGreaterThan(3)
    // 12 with a note on every claim; the list of the one claim nothing confirmed starts a page of its own.
    expect(pages).toBeLessThanOrEqual(13)
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })
    expect(text).not.toContain('##')
    expect(text).not.toContain('](http')
    expect(text).toContain('NEEDS ATTENTION')

    mkdirSync(DOCS, { recursive: true })
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '80',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      file,
      join(DOCS, 'report-pdf'),
    ])
    const browser = await chromium.launch({
      executablePath: process.env.FACTDESK_CHROMIUM ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    })
    try {
      const page = await browser.newPage({
        viewport: { width: 1280, height: 1100 },
        javaScriptEnabled: false,
      })
      await page.setContent(html)
      await page.screenshot({ path: join(DOCS, 'report-html.png') })
    } finally {
      await browser.close()
    }
  }, 120_000)

  it('is a Word document with short linked comments, corrections as tracked changes and the details apart', async () => {
    const bytes = await toDocx(report)
    const files = unzipSync(bytes)
    const xml = (name: string) => strFromU8(files[name] as Uint8Array)
    const comments = [
      ...new DOMParser()
        .parseFromString(xml('word/comments.xml'), 'text/xml')
        .getElementsByTagName('w:comment'),
    ]
    // A comment on every claim but the one nothing could confirm, which the appendix lists instead.
    expect(comments).toHaveLength(report.claims.length - expected.quiet.length)
    for (const comment of comments) {
      expect(comment.getElementsByTagName('w:p').length).toBeLessThanOrEqual(3)
      expect(comment.getAttribute('w:date')).toBe('2026-11-20T10:15:00.000Z')
    }
    const linked = comments.filter((comment) => comment.getElementsByTagName('w:hyperlink').length > 0)
    expect(linked.length).toBeGreaterThanOrEqual(comments.length - 2)
    expect(xml('word/_rels/comments.xml.rels')).toContain('TargetMode="External"')

    // The correction is a tracked change on the claim's words: accepted (as mammoth reads it), the claim reads
    // corrected; no change for a correction that is no rewrite.
    const body = xml('word/document.xml')
    expect(body.match(/<w:ins /g)?.length).toBeGreaterThan(0)
    expect(body.match(/<w:del /g)?.length).toBeGreaterThan(0)
    const { value: accepted } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) })
    const corrected = claimById(expected.corrected.claimId)
    const following = report.claims[report.claims.indexOf(corrected) + 1]!.text
    expect(accepted).toContain(`${expected.corrected.correction} ${following}`)
    expect(accepted).not.toContain(`${expected.corrected.text} ${following}`)
    const range = (claimId: string): string => {
      const id = report.claims.indexOf(claimById(claimId))
      return body.slice(
        body.indexOf(`<w:commentRangeStart w:id="${id}"/>`),
        body.indexOf(`<w:commentRangeEnd w:id="${id}"/>`),
      )
    }
    expect(range(expected.corrected.claimId)).toContain('<w:ins ')
    expect(range(expected.badCorrection)).not.toMatch(/<w:ins |<w:del /)
    // Headings are Word's, without their marks; the Hebrew paragraph is right to left.
    expect(accepted).not.toMatch(/^#/m)
    const hebrew = [...body.matchAll(/<w:p>(.*?)<\/w:p>/g)].find(([p]) => p.includes('תל אביב'))?.[0] ?? ''
    expect(hebrew).toContain('<w:bidi/>')
    expect(hebrew).toContain('<w:rtl/>')
    expect(accepted.indexOf('Needs attention')).toBeLessThan(accepted.indexOf('What the record shows'))
    const attention = accepted.slice(accepted.indexOf('Needs attention'), accepted.indexOf('Article'))
    expect(
      [...attention.matchAll(/” \[(\d+)\]/g)].map(([, number]) => report.claims[Number(number) - 1]!.claimId),
    ).toEqual(expected.attention)
    expect(accepted.indexOf('Details of each claim')).toBeGreaterThan(
      accepted.indexOf('What the record shows'),
    )
  })

  it('is Markdown with a footnote per claim that starts with its verdict, none inside a heading', () => {
    const markdown = toMarkdown(report)
    const [text, notes] = [markdown.slice(0, markdown.indexOf('\n[^claim-1]:')), markdown]
    const references = text.match(/\[\^claim-(\d+)\](?!:)/g) ?? []
    const definitions = notes.match(/^\[\^claim-\d+\]: \*\*[A-Z][^*]+\*\*/gm) ?? []
    // Every claim but the one nothing could confirm, listed at the end instead.
    const noted = report.claims.length - expected.quiet.length
    expect(references).toHaveLength(noted)
    expect(definitions).toHaveLength(noted)
    expect(new Set(references).size).toBe(noted)
    const attention = [...markdown.matchAll(/^> \d+\. .*\(note (\d+)\)/gm)].map(
      ([, n]) => report.claims[Number(n) - 1]!.claimId,
    )
    expect(attention).toEqual(expected.attention)
    expect(text.split('\n').filter((line) => /^#/.test(line) && line.includes('[^'))).toEqual([])
    // Every vote's reasoning is kept, and model names and words are not escaped needlessly.
    expect(markdown).toContain('Vote (t3, round 1, panel-a): Refuted — panel-a read')
    expect(markdown).not.toContain('panel\\-a')
    expect(markdown).toContain(
      `**Check by hand**: The t3 panel refuted it; no source confirmed it: check by hand.`,
    )
    expect(markdown.replace(/\[\^claim-\d+\](?!:)/g, '')).toContain(report.text.trimEnd())
  })

  it('renders with markdown-it and its footnotes to a note per noted claim, each referenced once, none in a heading', () => {
    const { document } = parseHTML(
      `<html><body>${new MarkdownIt().use(footnotes).render(toMarkdown(report))}</body></html>`,
    )
    const noted = report.claims.length - expected.quiet.length
    expect(document.querySelectorAll('section.footnotes li.footnote-item')).toHaveLength(noted)
    expect(document.querySelectorAll('sup.footnote-ref')).toHaveLength(noted)
    expect(
      document.querySelectorAll('h1 sup.footnote-ref, h2 sup.footnote-ref, h3 sup.footnote-ref'),
    ).toHaveLength(0)
    // The headings are headings, not text with their marks.
    expect(document.querySelectorAll('h1, h2').length).toBeGreaterThan(2)
    expect(document.body.textContent).not.toMatch(/^#+ /m)
  })
})

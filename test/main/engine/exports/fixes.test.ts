// Issue 36, typos as fixes: a misspelt word whose first suggestion is clearly the word meant is corrected in
// every export (a tracked change in Word, marked in the HTML and PDF article, counted in every summary); a name
// and a word that could be two stay findings. Spelling and grammar messages show the words they quote as code.
import { strFromU8, unzipSync } from 'fflate'
import { parseHTML } from 'linkedom'
import mammoth from 'mammoth'
import MarkdownIt from 'markdown-it'
import footnotes from 'markdown-it-footnote'
import { describe, expect, it } from 'vitest'
import { exportReport } from '../../../../src/main/engine/exports'
import { annotate } from '../../../../src/main/engine/exports/annotate'
import { toDocx } from '../../../../src/main/engine/exports/docx'
import { toHtml } from '../../../../src/main/engine/exports/html'
import { toMarkdown } from '../../../../src/main/engine/exports/markdown'
import { chromiumPdf } from '../../../../src/main/engine/exports/pdf'
import { renderFile } from '../../../../src/main/engine/exports/render'
import { ReportExport } from '../../../../src/shared/reportExport'
import type { Report } from '../../../../src/shared/schemas'
import { articleReport } from './article'
import { fixtureReport, pdfText } from './fixture'

const { report, expected } = articleReport({ typos: true })
const words = expected.fixes.map((fix) => fix.word)
const suggestions = expected.fixes.map((fix) => fix.suggestion)
const noPdf = (): Promise<Uint8Array<ArrayBuffer>> => Promise.reject(new Error('no PDF in this test'))

/// The Word document's body and its text with every change accepted (as mammoth reads it).
async function word(of: Report): Promise<{ body: string; accepted: string }> {
  const bytes = await toDocx(of)
  const body = strFromU8(unzipSync(bytes)['word/document.xml'] as Uint8Array)
  const { value: accepted } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) })
  return { body, accepted }
}

/// The text of each tracked deletion or insertion of a Word body, in order.
const tracked = (body: string, kind: 'del' | 'ins'): string[] =>
  [...body.matchAll(new RegExp(`<w:${kind} [^>]*w:author="Factdesk"[^>]*>(.*?)</w:${kind}>`, 'g'))].map(
    ([, inner]) => [...(inner ?? '').matchAll(/<w:(?:delText|t)[^>]*>([^<]*)</g)].map(([, t]) => t).join(''),
  )

describe('spelling fixes in the exports of the 1,500-word article', () => {
  it('are the five misspelt words Harper clearly corrects; the name and the word that could be two are not', () => {
    const { fixes } = annotate(report)
    expect(fixes.map(({ word, suggestion }) => [word, suggestion])).toEqual(
      expected.fixes.map(({ word, suggestion }) => [word, suggestion]),
    )
    expect(expected.unfixed.map(({ word }) => word)).toEqual(['Zwally', 'wods'])
    // A word in capitals is taken for a name at a sentence's start too: "Paris" is not "Parish".
    expect(annotate(fixtureReport()).fixes).toEqual([])
    // The claims keep their count, order and verdicts: the typos are in plain supported claims.
    expect(report.claims).toHaveLength(articleReport().report.claims.length)
    expect(
      annotate(report)
        .claims.filter((claim) => claim.attention)
        .map((c) => c.claim.claimId),
    ).toEqual(expected.attention)
  })

  it('Word: each fix a tracked change by Factdesk on the word alone; accepted, the words are right', async () => {
    const { body, accepted } = await word(report)
    const deleted = tracked(body, 'del')
    const inserted = tracked(body, 'ins')
    // The appendix quotes the claims as written.
    const article = accepted.slice(
      accepted.indexOf('\nArticle\n'),
      accepted.indexOf('\nDetails of each claim'),
    )
    for (const [index, typo] of words.entries()) {
      expect(deleted).toContain(typo)
      expect(inserted[deleted.indexOf(typo)]).toBe(suggestions[index])
      expect(article).not.toContain(typo)
    }
    expect(accepted).toContain('Researchers kept separate records of the winter sea ice for three decades.')
    expect(accepted).toContain('5 spelling fixes, tracked in the text.')
    // The name and the unclear word stay as written, no tracked change.
    for (const { word: kept } of expected.unfixed) {
      expect(deleted.join(' ')).not.toContain(kept)
      expect(article).toContain(` ${kept} `)
    }
    // A fix is inside its claim's comment range.
    const first = report.claims.findIndex((claim) => claim.claimId === expected.fixes[0]?.claimId)
    const range = body.slice(
      body.indexOf(`<w:commentRangeStart w:id="${first}"/>`),
      body.indexOf(`<w:commentRangeEnd w:id="${first}"/>`),
    )
    expect(range).toMatch(/<w:del [^>]*>.*seperate/)
  })

  it('HTML and PDF: each fix marked in its claim, the word struck and the fix beside it; counted in the summary', async () => {
    const html = toHtml(report)
    const { document } = parseHTML(html)
    const struck = [...document.querySelectorAll('.article del.fix')]
    expect(struck.map((del) => del.textContent)).toEqual(words)
    expect(
      struck.map((del) => del.nextElementSibling?.matches('ins.fix') && del.nextElementSibling.textContent),
    ).toEqual(suggestions)
    expect(struck.map((del) => del.closest('mark.claim')?.getAttribute('data-claim-id'))).toEqual(
      expected.fixes.map((fix) => fix.claimId),
    )
    expect(document.querySelector('.fixes')?.textContent).toBe('5 spelling fixes, marked in the article.')
    expect(document.querySelector('.article')?.textContent).toContain(' Zwally ')
    expect(pdfText(await chromiumPdf(html))).toContain('5 spelling fixes, marked in the article.')
  }, 60_000)

  it('Markdown: the text as written, the fixes counted and listed in the summary', () => {
    const markdown = toMarkdown(report)
    expect(markdown).toContain(
      '> 5 spelling fixes: seperate → separate, recieve → receive, occured → occurred, ' +
        'goverment → government, definately → definitely  \n',
    )
    expect(markdown).toContain('Researchers kept seperate records')
  })

  it('JSON: the summary counts the fixes', async () => {
    const file = await exportReport(report, 'json', { render: renderFile, printPdf: noPdf, publisher: {} })
    const exported = ReportExport.parse(JSON.parse(new TextDecoder().decode(file.data)))
    expect(exported.summary.spellingFixes).toBe(5)
  })
})

describe('spelling and grammar messages', () => {
  const name = expected.unfixed[0]?.claimId
  const number = report.claims.findIndex((claim) => claim.claimId === name) + 1

  it('HTML: the words a message quotes are code, without their backticks', () => {
    const { document } = parseHTML(toHtml(report))
    const finding = document.querySelector(`#details-${number} .finding`)
    expect(finding?.querySelector('code')?.textContent).toBe('Zwally')
    expect(finding?.textContent).toContain('Did you mean to spell Zwally this way?')
  })

  it('Markdown: a real code span, read as code', () => {
    const markdown = toMarkdown(report)
    expect(markdown).toContain('Spelling or grammar: Did you mean to spell `Zwally` this way?')
    const { document } = parseHTML(
      `<html><body>${new MarkdownIt().use(footnotes).render(markdown)}</body></html>`,
    )
    expect([...document.querySelectorAll('.footnotes code')].map((code) => code.textContent)).toContain(
      'Zwally',
    )
  })

  it('Word: a monospace run', async () => {
    const { body, accepted } = await word(report)
    expect(body).toMatch(/<w:rFonts w:ascii="Courier New"[^>]*\/>(?:<[^>]+>)*<w:t[^>]*>Zwally<\/w:t>/)
    expect(accepted).toContain('Spelling or grammar: Did you mean to spell Zwally this way?')
  })
})

describe('a spelling fix in a claim that has a correction', () => {
  const typo = 'It was definately finished in 1789.'
  /// The fixture with its refuted claim misspelt, corrected as `correction`.
  const misspelt = (correction: string): Report => {
    const base = fixtureReport()
    const claim = base.claims.find((each) => each.claimId === 'clm_2')!
    const shift = typo.length - claim.text.length
    const charStart = claim.charStart + typo.indexOf('definately')
    return {
      ...base,
      text: base.text.replace(claim.text, typo),
      claims: base.claims.map((each) =>
        each.claimId === 'clm_2'
          ? {
              ...each,
              text: typo,
              charEnd: each.charEnd + shift,
              issues: [
                {
                  charStart,
                  charEnd: charStart + 'definately'.length,
                  message: 'Did you mean to spell `definately` this way?',
                  suggestions: ['definitely', 'delicately', 'defiantly'],
                  rule: 'SpellCheck',
                },
              ],
              consensus: { ...each.consensus, t2: { ...each.consensus.t2!, correction } },
            }
          : each.charStart > claim.charStart
            ? { ...each, charStart: each.charStart + shift, charEnd: each.charEnd + shift }
            : each,
      ),
    }
  }

  it('is made within the correction where the correction keeps the word', async () => {
    const report = misspelt('(unverified) It was definately finished in 1889.')
    const annotated = annotate(report)
    expect(annotated.fixes).toEqual([])
    expect(annotated.claims[1]?.correction).toBe('(unverified) It was definitely finished in 1889.')
    const { body, accepted } = await word(report)
    expect(accepted).toContain('It was definitely finished in 1889.')
    expect(body.match(/<w:delText[^>]*>definately<\/w:delText>/g)).toHaveLength(1)
  })

  it('is the correction’s where the correction rewrites the word', async () => {
    const report = misspelt('(unverified) It was finished in 1889.')
    const annotated = annotate(report)
    expect(annotated.fixes).toEqual([])
    expect(annotated.claims[1]?.correction).toBe('(unverified) It was finished in 1889.')
    const { body, accepted } = await word(report)
    expect(accepted).toContain('It was finished in 1889.')
    expect(body).not.toContain('definitely')
    expect(toHtml(report)).not.toContain('class="fix"')
  })
})

// "Needs attention" lists every claim a tier found refuted or misleading, whatever the headline verdict (issue 31:
// a claim t2's judge and two of three models refuted, on which t3 found no source, was shown as "Unverifiable: no
// evidence found" and left out). Every format says why, the models' reason and the correction; Word tracks the
// correction as unconfirmed; each verdict says the steps that fell back.
import { strFromU8, unzipSync } from 'fflate'
import { parseHTML } from 'linkedom'
import { describe, expect, it } from 'vitest'
import { exportReport } from '../../../../src/main/engine/exports'
import { toDocx } from '../../../../src/main/engine/exports/docx'
import { toHtml } from '../../../../src/main/engine/exports/html'
import { toMarkdown } from '../../../../src/main/engine/exports/markdown'
import { chromiumPdf } from '../../../../src/main/engine/exports/pdf'
import { renderFile } from '../../../../src/main/engine/exports/render'
import { ReportExport } from '../../../../src/shared/reportExport'
import { pdfText, SPLIT_WHY, splitRefutationReport } from './fixture'

const report = splitRefutationReport()
const FELL_BACK = 'evidence chosen by its words (the model named no passage)'
const noPdf = (): Promise<Uint8Array<ArrayBuffer>> => Promise.reject(new Error('no PDF in this test'))

describe('a claim t2 refuted and t3 found no source for', () => {
  it('Markdown: in Needs attention with why, the models’ reason and the correction; the fallback beside t3', () => {
    const markdown = toMarkdown(report)
    expect(markdown).toContain('> **Needs attention: 1**')
    const item = markdown.split('\n').find((line) => line.startsWith('> 1. ')) ?? ''
    expect(item).toContain('**Check by hand** “It was completed in 1789.” (note 2)')
    expect(item).toContain(SPLIT_WHY)
    expect(item).toContain('The models’ reason: The tower was completed in 1889, a century after 1789.')
    expect(item).toContain('Correction: (unverified) It was completed in 1889.')
    const note = markdown.slice(markdown.indexOf('[^claim-2]:'))
    expect(note).toMatch(/^\[\^claim-2\]: \*\*Check by hand\*\*: The t2 judge refuted it/)
    expect(note).toContain(
      `(t3, Unsourced: the models’ judgement · decided by the judge · agreement 33% · ${FELL_BACK})`,
    )
    expect(note).toContain('Correction: (unverified) It was completed in 1889.')
    expect(note).toContain('t2: Refuted')
  })

  it('HTML (and so the PDF): listed with its why, reason and unverified correction, its note flagged', () => {
    const { document } = parseHTML(toHtml(report))
    expect(document.querySelector('.lead strong')?.textContent).toBe('2 claims, 1 need attention.')
    const items = [...document.querySelectorAll('.attention li')]
    expect(items.map((li) => li.getAttribute('data-claim-id'))).toEqual(['clm_split'])
    const item = items[0]?.textContent ?? ''
    expect(item).toContain('Check by hand')
    expect(item).toContain(SPLIT_WHY)
    expect(item).toContain('The models’ reason: The tower was completed in 1889, a century after 1789.')
    expect(items[0]?.querySelector('.correction')?.textContent).toBe(
      'Correction (unverified): It was completed in 1889.',
    )
    expect(
      document.querySelector('mark[data-claim-id="clm_split"]')?.classList.contains('verdict-disputed'),
    ).toBe(true)
    expect(document.querySelector('#note-2 .basis')?.textContent).toContain(FELL_BACK)
    expect(document.querySelector('#note-2 .correction')?.textContent).toBe(
      'Correction (unverified): It was completed in 1889.',
    )
  })

  it('PDF: printed with the claim in Needs attention', async () => {
    // The page's part headings are printed in capitals.
    const text = pdfText(await chromiumPdf(toHtml(report))).replace(/\s+/g, ' ')
    const attention = text.slice(text.indexOf('NEEDS ATTENTION'), text.indexOf('ARTICLE'))
    expect(attention).toContain('It was completed in 1789.')
    expect(attention).toContain('no source confirmed it: check by hand.')
  }, 60_000)

  it('Word: in Needs attention, the correction a tracked change marked unconfirmed, the comment says so', async () => {
    const files = unzipSync(await toDocx(report))
    const body = strFromU8(files['word/document.xml'] as Uint8Array)
    const words = (xml: string) =>
      [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map(([, t]) => t).join('')
    const all = words(body)
    const attention = all.slice(all.indexOf('Needs attention'), all.indexOf('Article'))
    expect(attention).toContain('Check by hand: “It was completed in 1789.” [2]')
    expect(attention).toContain(SPLIT_WHY)
    expect(attention).toContain('Correction tracked in the text, unconfirmed: no source confirmed it.')
    // The claim's words: 1789 deleted and 1889 inserted, both by "Factdesk (unconfirmed)".
    expect(body).toMatch(/<w:del w:id="\d+" w:author="Factdesk \(unconfirmed\)"[^>]*>.*?1789.*?<\/w:del>/)
    expect(body).toMatch(/<w:ins w:id="\d+" w:author="Factdesk \(unconfirmed\)"[^>]*>.*?1889.*?<\/w:ins>/)
    const comments = strFromU8(files['word/comments.xml'] as Uint8Array)
    const second = comments.slice(comments.indexOf('w:id="1"'))
    expect(words(second)).toContain(`Check by hand: ${SPLIT_WHY}`)
    expect(all).toContain(FELL_BACK)
  })

  it('JSON: the report with `attention`, each entry the claim, why and the correction', async () => {
    const file = await exportReport(report, 'json', { render: renderFile, printPdf: noPdf, publisher: {} })
    const exported = ReportExport.parse(JSON.parse(new TextDecoder().decode(file.data)))
    // The same words as the Markdown list's item (its verdict and place aside).
    const item = toMarkdown(report)
      .split('\n')
      .find((line) => line.startsWith('> 1. '))
    expect(exported.attention).toEqual([
      {
        claimId: 'clm_split',
        why: `${SPLIT_WHY} The models’ reason: The tower was completed in 1889, a century after 1789.`,
        correction: '(unverified) It was completed in 1889.',
      },
    ])
    expect(item).toContain(exported.attention[0]?.why ?? 'an item')
    expect(exported.summary.needAttention).toBe(1)
    expect(exported.summary.headlineVerdicts).toMatchObject({ disputed: 1, supported: 1, refuted: 0 })
  })
})

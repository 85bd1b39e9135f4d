import { strFromU8, unzipSync } from 'fflate'
import { DOMParser, parseHTML } from 'linkedom'
import { describe, expect, it } from 'vitest'
import { exportFileName, exportReport } from '../../../../src/main/engine/exports'
import { toDocx } from '../../../../src/main/engine/exports/docx'
import { toHtml } from '../../../../src/main/engine/exports/html'
import { toMarkdown } from '../../../../src/main/engine/exports/markdown'
import { renderFile } from '../../../../src/main/engine/exports/render'
import { Report } from '../../../../src/shared/schemas'
import { EXPECTED_VERDICTS, fixtureReport, INJECTED } from './fixture'

const report = fixtureReport()
const noPdf = (): Promise<Uint8Array<ArrayBuffer>> => Promise.reject(new Error('no PDF in this test'))

describe('HTML export', () => {
  const { document } = parseHTML(toHtml(report))

  it('highlights every claim with its verdict class, its exact text and a footnote', () => {
    const marks = [...document.querySelectorAll('mark.claim')]
    expect(marks.map((mark) => mark.getAttribute('data-claim-id'))).toEqual(Object.keys(EXPECTED_VERDICTS))
    for (const mark of marks) {
      const id = mark.getAttribute('data-claim-id') ?? ''
      expect(mark.classList.contains(`verdict-${EXPECTED_VERDICTS[id]}`)).toBe(true)
      expect(mark.textContent).toBe(report.claims.find((claim) => claim.claimId === id)?.text)
      const ref = mark.nextElementSibling?.querySelector('a')?.getAttribute('href') ?? ''
      const note = document.querySelector(ref)
      expect(note?.getAttribute('data-claim-id')).toBe(id)
      expect(note?.classList.contains(`verdict-${EXPECTED_VERDICTS[id]}`)).toBe(true)
    }
    // The article reads as rendered: its heading a heading, the claims in place after the emoji (UTF-16 offsets).
    expect(document.querySelector('.article h1')?.textContent).toBe('Landmarks 🗼 alert(1)')
    for (const ref of document.querySelectorAll('.article sup.ref')) ref.remove()
    expect(document.querySelector('.article p')?.textContent).toBe(
      'The Eiffel Tower is 330 metres tall. It was finished in 1789. Paris has 40 million residents.',
    )
  })

  it('says what stands behind each verdict: unsourced, who decided, agreement; never the judge’s confidence', () => {
    const lines = [...document.querySelectorAll('li.note .basis')].map((line) => line.textContent)
    expect(lines).toEqual([
      't2, Unsourced: the models’ judgement · decided by the judge · agreement 100%',
      't2, Unsourced: the models’ judgement · decided by the judge · agreement 100%',
      't2, Unsourced: the models’ judgement · decided by the judge · agreement 50%',
      't2',
    ])
  })

  it("renders the text's Markdown, each claim highlighted whole and its note mark outside the link", () => {
    const text =
      '## The tower\n\n*By Ann*\n\nSee [the tower is 330 metres tall](https://example.org/t). `x = 1`\n\n' +
      '- It opened in **1889**.\n- Two\n\n> Quoted words.\n\n```\n# not a heading\n```\n\nתל אביב נוסדה בשנת 1909.'
    const claimed = (i: number, words: string) => {
      const charStart = text.indexOf(words)
      return { ...report.claims[i]!, text: words, charStart, charEnd: charStart + words.length }
    }
    const styled = Report.parse({
      ...report,
      text,
      claims: [
        claimed(0, 'the tower is 330 metres tall'),
        claimed(1, 'It opened in **1889**.'),
        claimed(2, 'תל אביב נוסדה בשנת 1909.'),
      ],
    })
    const { document: page } = parseHTML(toHtml(styled))
    const article = page.querySelector('.article')
    expect(article?.querySelector('h2')?.textContent).toBe('The tower')
    expect(article?.querySelector('em')?.textContent).toBe('By Ann')
    const link = article?.querySelector('a[href="https://example.org/t"]')
    expect(link?.querySelector('mark.claim')?.textContent).toBe('the tower is 330 metres tall')
    // The note mark follows the link, not inside its brackets.
    expect(link?.nextElementSibling?.matches('sup.ref')).toBe(true)
    expect(article?.querySelector('code')?.textContent).toBe('x = 1')
    expect([...(article?.querySelectorAll('ul li') ?? [])].map((li) => li.textContent.trim())).toEqual([
      'It opened in 1889.2',
      'Two',
    ])
    expect(article?.querySelector('li strong mark, li mark strong')?.textContent).toBe('1889')
    expect(article?.querySelector('blockquote')?.textContent).toBe('Quoted words.')
    expect(article?.querySelector('pre')?.textContent).toBe('# not a heading')
    expect(article?.querySelector('p[dir="rtl"]')?.textContent).toBe('תל אביב נוסדה בשנת 1909.3')
    expect(article?.textContent).not.toMatch(/##|\]\(http|\*\*|`/)
  })

  it('has a summary with the count of each verdict and of the claims that need attention', () => {
    const counts = Object.fromEntries(
      [...document.querySelectorAll('.counts li')].map((item) => [
        item.getAttribute('data-verdict'),
        Number(item.querySelector('.count')?.textContent),
      ]),
    )
    expect(counts).toEqual({ supported: 1, refuted: 1, misleading: 1, unchecked: 1 })
    expect(document.querySelector('.lead strong')?.textContent).toBe('4 claims, 2 need attention.')
    expect(
      [...document.querySelectorAll('.attention li')].map((li) => li.getAttribute('data-claim-id')),
    ).toEqual(['clm_2', 'clm_3'])
    expect(document.querySelector('.facts')?.textContent).toContain('20 charged, 4 refunded')
    // Times as a reader reads them, in UTC whatever the machine's zone.
    expect(document.querySelector('.facts')?.textContent).toContain('Submitted: 1 Jan 2026, 00:00 UTC')
  })

  it('notes the verdict, the reason, the correction and the sources; the details every vote and finding once', () => {
    const first = document.querySelector('#note-1')
    expect(first?.querySelector('.reasoning')?.textContent).toBe(`Both sources agree ${INJECTED}`)
    expect(first?.querySelector('.basis')?.textContent).toBe(
      't2, Unsourced: the models’ judgement · decided by the judge · agreement 100%',
    )
    expect(first?.querySelector('.sources q')?.textContent).toContain('330 metres (1,083 ft) tall')
    expect(first?.querySelector('.sources .stance')?.textContent).toBe('supports the claim')
    expect(document.querySelectorAll('#details-1 .vote')).toHaveLength(2)
    expect(document.querySelector('#details-1')?.textContent).toContain('Matches the official height.')
    expect(document.querySelector('#note-2 .correction')?.textContent).toBe(
      'Correction (unverified): It was finished in 1889.',
    )
    expect(document.querySelector('#details-3')?.textContent?.match(/Odd word/g)).toHaveLength(1)
  })

  it('says what a claim was checked as when that is not its own words', () => {
    expect(document.querySelector('#note-2 .checked-as')?.textContent).toBe(
      'Checked as: The Eiffel Tower was finished in 1789.',
    )
    expect(document.querySelectorAll('.checked-as')).toHaveLength(1)
  })

  it('keeps injected markup inert: no script, no handler, no script link, only its own style', () => {
    expect(document.querySelectorAll('script, img, iframe, object, embed, link')).toHaveLength(0)
    const attributes = [...document.querySelectorAll('*')].flatMap((element) => [...element.attributes])
    expect(attributes.filter((attribute) => attribute.name.startsWith('on'))).toEqual([])
    const links = [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? '')
    expect(links.every((href) => href.startsWith('#') || href.startsWith('https://'))).toBe(true)
    expect(links).toContain('https://example.org/eiffel?a=1&b="2"')
    expect(document.querySelector('.sources a')?.textContent).toBe(`Eiffel facts </a>${INJECTED}`)
    expect(document.querySelector('.facts')?.textContent).toContain('Ann <b>Author</b>')
    expect(document.querySelectorAll('style')).toHaveLength(1)
    expect(
      document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content'),
    ).toMatch(/default-src 'none'/)
  })
})

describe('Markdown export', () => {
  const markdown = toMarkdown(report)

  it('has one footnote reference after each claim and one footnote per claim', () => {
    const references = markdown.match(/\[\^claim-\d+\](?!:)/g) ?? []
    const definitions = markdown.match(/^\[\^claim-\d+\]:/gm) ?? []
    expect(references).toHaveLength(report.claims.length)
    expect(definitions).toHaveLength(report.claims.length)
    for (const claim of report.claims) expect(markdown).toContain(`${claim.text}[^claim-`)
  })

  it('gives each footnote its verdict, reasoning and sources, with model text escaped', () => {
    const notes = markdown.split(/^(?=\[\^claim-\d+\]:)/m).slice(1)
    expect(notes[0]).toMatch(
      /^\[\^claim-1\]: \*\*Supported\*\*: Both sources agree \\<script\\>alert\(1\)\\<\/script\\>/,
    )
    // What stands behind the verdict, not the judge's own confidence: t2 is the models' unsourced judgement.
    expect(notes[0]).toContain(
      '(t2, Unsourced: the models’ judgement · decided by the judge · agreement 100%)',
    )
    expect(notes[2]).toMatch(/^\[\^claim-3\]: \*\*Misleading: missing context\*\*/)
    expect(notes[0]).toContain('(<https://example.org/eiffel?a=1&b=%222%22>)')
    expect(notes[0]).not.toContain('](<javascript:')
    expect(notes[0]).toContain('“quoted words” (retrieved 2026-01-01), supports the claim')
    expect(notes[0]).toContain('Vote (t2, round 1, model-a): Supported — Matches the official height.')
    expect(notes[0]).toContain('Vote (t2, round 1, model-b): Supported — Yes.')
    expect(notes[1]).toContain('**Refuted**')
    expect(notes[1]).toContain('\n    Checked as: The Eiffel Tower was finished in 1789.\n')
    expect(markdown.match(/Checked as:/g)).toHaveLength(1)
    expect(notes[3]).toContain('**Not checked**')
  })

  it('says the calibrated confidence in place of the agreement only when a calibration map gave one', () => {
    const calibrated = fixtureReport()
    const first = calibrated.claims[0]?.consensus.t2
    if (first) first.calibratedConfidence = 0.812
    const notes = toMarkdown(calibrated)
      .split(/^(?=\[\^claim-\d+\]:)/m)
      .slice(1)
    expect(notes[0]).toContain(
      '(t2, Unsourced: the models’ judgement · decided by the judge · calibrated confidence 81%)',
    )
    expect(notes[0]).not.toContain('agreement')
    expect(notes[1]).toContain('decided by the judge · agreement 100%)')
    expect(notes[1]).not.toContain('calibrated')
  })

  it('keeps the document text as submitted between the footnote marks', () => {
    expect(markdown.replace(/\[\^claim-\d+\](?!:)/g, '')).toContain(report.text)
  })
  it('puts a reference after a link or a line break that ends a claim, and closes a code block left open', () => {
    const text =
      'See [The Eiffel Tower is 330 metres tall](https://example.org/t). It was finished in 1789\\\n' +
      'Paris has **40 million residents**.\n\nBerlin is the capital of Germany.\n\n~~~~python\nprint(1)'
    const sentences = [
      'The Eiffel Tower is 330 metres tall',
      'It was finished in 1789\\',
      '40 million residents',
      'Berlin is the capital of Germany.',
    ]
    const base = fixtureReport()
    const moved: Report = {
      ...base,
      text,
      claims: base.claims.map((claim, i) => {
        const sentence = sentences[i] as string
        const charStart = text.indexOf(sentence)
        return { ...claim, text: sentence, charStart, charEnd: charStart + sentence.length, issues: [] }
      }),
    }
    const exported = toMarkdown(moved)
    expect(exported).toContain('See [The Eiffel Tower is 330 metres tall](https://example.org/t)[^claim-1].')
    expect(exported).toContain('It was finished in 1789[^claim-2]\\\n')
    expect(exported).toContain('Paris has **40 million residents**[^claim-3].')
    expect(exported).toMatch(/~~~~python\nprint\(1\)\n~~~~\n\n\[\^claim-1\]: /)
  })

  it('puts the reference of a claim in a heading on the line after the heading, never inside it', () => {
    const text = '## The tower is 330 metres tall\n\nIt opened in 1889.'
    const at = (words: string) => ({
      charStart: text.indexOf(words),
      charEnd: text.indexOf(words) + words.length,
    })
    const base = fixtureReport()
    const exported = toMarkdown({
      ...base,
      text,
      claims: [
        { ...base.claims[0]!, text: 'The tower is 330 metres tall', ...at('The tower is 330 metres tall') },
        { ...base.claims[1]!, text: 'It opened in 1889.', ...at('It opened in 1889.') },
      ],
    })
    expect(exported).toContain('## The tower is 330 metres tall\n[^claim-1]\n\nIt opened in 1889.[^claim-2]')
  })

  it('escapes & in model text and keeps a source address as it is, escapes included', () => {
    const base = fixtureReport()
    const first = base.claims[0]!
    const t2 = first.consensus.t2!
    const withSource: Report = {
      ...base,
      claims: [
        {
          ...first,
          consensus: {
            t2: {
              ...t2,
              reasoning: 'Fish &amp; chips &copy;',
              citations: [{ ...t2.citations[0]!, url: 'https://example.org/Caf%C3%A9 du%20monde?q=a b' }],
            },
          },
        },
      ],
    }
    const exported = toMarkdown(withSource)
    expect(exported).toContain('Fish \\&amp; chips \\&copy;')
    expect(exported).not.toMatch(/\\[-()!#+|]/)
    expect(exported).toContain('(<https://example.org/Caf%C3%A9%20du%20monde?q=a%20b>)')
    expect(exported).toContain('> 1 claim: ')
  })
})

describe('DOCX export', () => {
  it('carries a short Word comment on each claim: its verdict, one line of reason, its sources as links', async () => {
    const files = unzipSync(await toDocx(report))
    const xml = (name: string) => {
      const file = files[name]
      if (!file) throw new Error(`${name} is missing`)
      return new DOMParser().parseFromString(strFromU8(file), 'text/xml')
    }
    const comments = [...xml('word/comments.xml').getElementsByTagName('w:comment')]
    expect(comments).toHaveLength(report.claims.length)
    const commentText = (comment: Element) =>
      [...comment.getElementsByTagName('w:t')].map((t) => t.textContent).join('')
    report.claims.forEach((claim, index) => {
      const comment = comments[index]
      if (!comment) throw new Error('no comment')
      expect(comment.getAttribute('w:author')).toBe('Factdesk')
      expect(comment.getElementsByTagName('w:p').length).toBeLessThanOrEqual(2)
      const consensus = claim.consensus.t2
      expect(commentText(comment)).toContain(consensus ? consensus.reasoning : 'Not checked')
    })
    expect(commentText(comments[0] as Element)).toMatch(/^Supported: Both sources agree/)
    // The source is a link from the comment; an address that runs script is not.
    expect(comments[0]?.getElementsByTagName('w:hyperlink')).toHaveLength(1)
    const links = strFromU8(files['word/_rels/comments.xml.rels'] as Uint8Array)
    expect(links).toContain('Target="https://example.org/eiffel?a=1&amp;b=&quot;2&quot;"')
    expect(links).not.toContain('javascript:')
    expect(comments[1]?.getAttribute('w:date')).toBe('2026-01-01T00:00:00.000Z')
    expect(commentText(comments[1] as Element)).toContain(
      'Checked as: The Eiffel Tower was finished in 1789.',
    )
    expect(comments.filter((comment) => commentText(comment).includes('Checked as'))).toHaveLength(1)

    // Each comment's range holds exactly its claim's words; the correction is a tracked change on them, which
    // Word's Reject leaves as written and Accept applies.
    const body = xml('word/document.xml')
    const documentXml = strFromU8(files['word/document.xml'] as Uint8Array)
    const rangeTexts = (xmlText: string): string[] => {
      const ranges = new Map<string, string>()
      let open: string | null = null
      const tokens =
        /<w:commentRangeStart w:id="(\d+)"\/>|<w:commentRangeEnd [^>]*>|<w:(?:t|delText)(?: [^>]*)?>([^<]*)<\/w:(?:t|delText)>/g
      for (const [token, start, text] of xmlText.matchAll(tokens)) {
        if (start !== undefined) open = start
        else if (token.startsWith('<w:commentRangeEnd')) open = null
        else if (open !== null) ranges.set(open, (ranges.get(open) ?? '') + text)
      }
      return [...ranges.values()]
    }
    const rejected = documentXml.replace(/<w:ins\b[^>]*>.*?<\/w:ins>/g, '')
    const accepted = documentXml.replace(/<w:del\b[^>]*>.*?<\/w:del>/g, '')
    expect(rangeTexts(rejected)).toEqual(report.claims.map((claim) => claim.text))
    expect(rangeTexts(accepted)[1]).toBe('It was finished in 1889.')
    // t2's correction no source confirmed: Word shows the change as unconfirmed.
    expect(documentXml).toMatch(
      /<w:ins w:id="\d+" w:author="Factdesk \(unconfirmed\)" w:date="2026-01-01T00:00:00.000Z">/,
    )
    // The summary comes first, and the details of each claim in an appendix after the article.
    const all = [...body.getElementsByTagName('w:t')].map((t) => t.textContent).join(' ')
    expect(all.indexOf('need attention')).toBeLessThan(all.indexOf('The Eiffel Tower'))
    expect(all.indexOf('Details of each claim')).toBeGreaterThan(all.indexOf('Berlin is the capital'))
    expect(all).toContain('t2, round 1, model-a: Supported')
  })

  it("makes the text's Markdown Word's own headings, lists and monospace code, without its marks", async () => {
    const text = '## Bridges\n\n- The span is 1,280 metres.\n\n```\nconst span = 1280\n```\nThe end.'
    const files = unzipSync(await toDocx(Report.parse({ ...report, text, claims: [] })))
    const xml = strFromU8(files['word/document.xml'] as Uint8Array)
    const paragraphs = [...xml.matchAll(/<w:p>(.*?)<\/w:p>/g)].map(([, inner]) => inner ?? '')
    // The article's paragraph (the report's title is its headline too).
    const holding = (words: string) => paragraphs.findLast((p) => p.includes(`>${words}</w:t>`)) ?? ''
    // One level below the report's own headings: "#" is Heading 2, "##" Heading 3.
    expect(holding('Bridges')).toContain('<w:pStyle w:val="Heading3"/>')
    expect(holding('The span is 1,280 metres.')).toContain('<w:numPr>')
    expect(holding('const span = 1280')).toContain('Courier New')
    expect(holding('The end.')).not.toContain('Courier New')
    expect(xml).not.toContain('## ')
    expect(xml).not.toContain('- The span')
  })

  it('lays a right-to-left paragraph out right to left, and keeps no carriage return of CRLF text', async () => {
    const text = 'Tel Aviv was founded in 1909.\r\n\r\nתל אביב נוסדה בשנת 1909.\r\nעל חולות יפו.\r\n'
    const files = unzipSync(await toDocx(Report.parse({ ...report, text, claims: [] })))
    const xml = strFromU8(files['word/document.xml'] as Uint8Array)
    const paragraphs = [...xml.matchAll(/<w:p>(.*?)<\/w:p>/g)].map(([, inner]) => inner ?? '')
    const hebrew = paragraphs.find((p) => p.includes('תל אביב')) ?? ''
    const english = paragraphs.find((p) => p.includes('Tel Aviv')) ?? ''
    expect(hebrew).toContain('<w:bidi/>')
    expect(hebrew).toContain('<w:rtl/>')
    expect(hebrew).toContain('תל אביב נוסדה בשנת 1909. על חולות יפו.')
    expect(english).not.toContain('<w:bidi/>')
    expect(xml).not.toContain('\r')
  })

  it('leaves out the control characters XML cannot hold (the docx package drops them), claims in place', async () => {
    const text = `Bell\u0007 ${report.text}`
    const shifted = report.claims.map((claim) => ({
      ...claim,
      charStart: claim.charStart + 6,
      charEnd: claim.charEnd + 6,
    }))
    const files = unzipSync(await toDocx({ ...report, text, claims: shifted }))
    const body = strFromU8(files['word/document.xml'] as Uint8Array)
    expect(body).not.toContain('\u0007')
    expect(body).toContain('Bell ')
    expect(body.match(/<w:commentRangeStart /g)).toHaveLength(report.claims.length)
  })
})

describe('JSON export and file names', () => {
  it('is the report exactly, with the document text', async () => {
    const file = await exportReport(report, 'json', { render: renderFile, printPdf: noPdf, publisher: {} })
    expect(file.contentType).toBe('application/json; charset=utf-8')
    const parsed = Report.parse(JSON.parse(new TextDecoder().decode(file.data)))
    expect(parsed).toEqual(report)
    expect(parsed.text).toBe(report.text)
  })

  it('names files after the check, without its own extension', () => {
    expect(exportFileName(report, 'docx')).toBe('landmarks-factcheck.docx')
    const unnamed = { ...report, check: { ...report.check, name: null } }
    expect(exportFileName(unnamed, 'pdf')).toBe('chk_fixture-factcheck.pdf')
    const odd = { ...report, check: { ...report.check, name: '../../etc/passwd "x".txt' } }
    expect(exportFileName(odd, 'md')).toBe('etc-passwd-x-factcheck.md')
    const named = (name: string) => exportFileName({ ...report, check: { ...report.check, name } }, 'md')
    expect(named('Report v1.2')).toBe('Report-v1.2-factcheck.md')
    expect(named('Zoe\u0308 notes.docx')).toBe('Zoe\u0308-notes-factcheck.md')
    // Cut at 80 characters, never inside one (a half surrogate pair made the API's export fail).
    expect(named(`${'A'.repeat(79)}𠀀 name`)).toBe(`${'A'.repeat(79)}𠀀-factcheck.md`)
  })
})

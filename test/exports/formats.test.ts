import { strFromU8, unzipSync } from 'fflate'
import { DOMParser, parseHTML } from 'linkedom'
import { describe, expect, it } from 'vitest'
import { exportFileName, exportReport } from '../../src/main/engine/exports'
import { toDocx } from '../../src/main/engine/exports/docx'
import { toHtml } from '../../src/main/engine/exports/html'
import { toMarkdown } from '../../src/main/engine/exports/markdown'
import { Report } from '../../src/shared/schemas'
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
    // The text reads back whole: the claims in place, nothing lost around them (UTF-16 offsets after an emoji).
    for (const ref of document.querySelectorAll('.text sup.ref')) ref.remove()
    expect(document.querySelector('.text')?.textContent).toBe(report.text)
  })

  it('says what stands behind each verdict: its kind, unsourced, agreement; never the judge’s confidence', () => {
    const lines = [...document.querySelectorAll('li.note .verdict-label + .muted')].map(
      (line) => line.textContent,
    )
    expect(lines).toEqual([
      '(t2, Unsourced: the models’ judgement · decided by the judge · agreement 100%)',
      '(t2, Unsourced: the models’ judgement · decided by the judge · agreement 100%)',
      '(t2, missing context · Unsourced: the models’ judgement · decided by the judge · agreement 50%)',
      '(t2)',
    ])
  })

  it("styles the text's Markdown in place, keeping every character and each claim's highlight whole", () => {
    const text = '## The tower is 330 metres tall\n\n```\n# not a heading\n```\nIt opened in 1889.'
    const heading = 'The tower is 330 metres tall'
    const styled = Report.parse({
      ...report,
      text,
      claims: [
        { ...report.claims[0], text: heading, charStart: 3, charEnd: 3 + heading.length },
        {
          ...report.claims[1],
          text: 'It opened in 1889.',
          charStart: text.indexOf('It'),
          charEnd: text.length,
        },
      ],
    })
    const { document: page } = parseHTML(toHtml(styled))
    const headingSpan = page.querySelector('.text .md-heading.md-h2')
    expect(headingSpan?.querySelector('mark.claim')?.textContent).toBe(heading)
    expect(page.querySelector('.text .md-syntax')?.textContent).toBe('## ')
    expect(page.querySelector('.text .md-code')?.textContent).toBe('# not a heading')
    expect(page.querySelectorAll('.text .md-heading')).toHaveLength(1)
    expect([...page.querySelectorAll('.text mark.claim')].map((mark) => mark.textContent)).toEqual([
      heading,
      'It opened in 1889.',
    ])
    for (const ref of page.querySelectorAll('.text sup.ref')) ref.remove()
    expect(page.querySelector('.text')?.textContent).toBe(text)
  })

  it('has a summary table with the count of each verdict', () => {
    const counts = Object.fromEntries(
      [...document.querySelectorAll('.summary-verdicts tbody tr')].map((row) => [
        row.getAttribute('data-verdict'),
        Number(row.querySelectorAll('td')[1]?.textContent),
      ]),
    )
    expect(counts).toEqual({ supported: 1, refuted: 1, misleading: 1, unchecked: 1 })
    expect(document.querySelector('.summary-verdicts tfoot td')?.textContent).toBe('4')
    expect(document.querySelector('.facts')?.textContent).toContain('20 charged, 4 refunded')
    // Times as a reader reads them, in UTC whatever the machine's zone.
    expect(document.querySelector('.facts')?.textContent).toContain('Submitted1 Jan 2026, 00:00 UTC')
  })

  it('footnotes the reasoning, the correction, the votes and the citations', () => {
    const first = document.querySelector('#note-1')
    expect(first?.querySelector('.reasoning')?.textContent).toBe(`Both sources agree ${INJECTED}`)
    expect(first?.querySelectorAll('.votes tbody tr')).toHaveLength(2)
    expect(first?.querySelector('.sources blockquote')?.textContent).toContain('330 metres (1,083 ft) tall')
    expect(first?.textContent).toContain('t1: No issues')
    expect(document.querySelector('#note-2 .correction')?.textContent).toContain('1889')
    expect(document.querySelector('#note-3')?.textContent).toContain('Odd word')
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
    // What stands behind the verdict, not the judge's own confidence: t2 is the models' unsourced judgement.
    expect(notes[0]).toMatch(
      /^\[\^claim-1\]: \*\*Supported\*\* \(t2, Unsourced: the models’ judgement · decided by the judge · agreement 100%\)/,
    )
    expect(notes[2]).toContain(
      '(t2, missing context · Unsourced: the models’ judgement · decided by the judge · agreement 50%)',
    )
    expect(notes[0]).toContain('(<https://example.org/eiffel?a=1&b=%222%22>)')
    expect(notes[0]).toContain('\\<script\\>alert\\(1\\)\\</script\\>')
    expect(notes[0]).not.toContain('](<javascript:')
    expect(notes[0]).toContain('Votes: t2 model\\-a: Supported 80%; t2 model\\-b: Supported 80%')
    expect(notes[1]).toContain('**Refuted**')
    expect(notes[1]).toContain('\n    Checked as: The Eiffel Tower was finished in 1789.\n')
    expect(markdown.match(/Checked as:/g)).toHaveLength(1)
    expect(notes[3]).toContain('**Not checked**')
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
    expect(exported).toContain('(<https://example.org/Caf%C3%A9%20du%20monde?q=a%20b>)')
    expect(exported).toContain('> 1 claim: ')
  })
})

describe('DOCX export', () => {
  it('carries a Word comment on each claim with its verdict, reasoning and sources', async () => {
    const files = unzipSync(await toDocx(report))
    const xml = (name: string) => {
      const file = files[name]
      if (!file) throw new Error(`${name} is missing`)
      return new DOMParser().parseFromString(strFromU8(file), 'text/xml')
    }
    const comments = [...xml('word/comments.xml').getElementsByTagName('w:comment')]
    expect(comments).toHaveLength(report.claims.length)
    const commentText = (comment: Element) =>
      [...comment.getElementsByTagName('w:t')].map((t) => t.textContent).join('\n')
    report.claims.forEach((claim, index) => {
      const comment = comments[index]
      if (!comment) throw new Error('no comment')
      expect(comment.getAttribute('w:author')).toBe('Factdesk')
      const text = commentText(comment)
      const consensus = claim.consensus.t2
      expect(text).toContain(consensus ? consensus.reasoning : 'Not checked')
      for (const citation of consensus?.citations ?? []) expect(text).toContain(citation.url)
    })
    expect(commentText(comments[0] as Element)).toMatch(
      /^Supported \(t2, Unsourced: the models’ judgement · decided by the judge · agreement 100%\)/,
    )
    expect(commentText(comments[1] as Element)).toContain(
      'Checked as: The Eiffel Tower was finished in 1789.',
    )
    expect(comments.filter((comment) => commentText(comment).includes('Checked as'))).toHaveLength(1)

    // Each comment's range holds exactly its claim's words.
    const body = xml('word/document.xml')
    const ranges = new Map<string, string>()
    let open: string | null = null
    const tokens =
      /<w:commentRangeStart w:id="(\d+)"\/>|<w:commentRangeEnd [^>]*>|<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g
    for (const [token, start, text] of strFromU8(files['word/document.xml'] as Uint8Array).matchAll(tokens)) {
      if (start !== undefined) open = start
      else if (token.startsWith('<w:commentRangeEnd')) open = null
      else if (open !== null) ranges.set(open, (ranges.get(open) ?? '') + text)
    }
    expect([...ranges.values()]).toEqual(report.claims.map((claim) => claim.text))
    // The summary table comes first, and markup in the text stays text.
    const all = [...body.getElementsByTagName('w:t')].map((t) => t.textContent).join(' ')
    expect(all.indexOf('All claims')).toBeLessThan(all.indexOf('The Eiffel Tower'))
    expect(all).toContain(INJECTED)
  })
  it("makes the text's Markdown headings Word headings and its fenced code monospace, every character kept", async () => {
    const text = '## Bridges\n\n```\nconst span = 1280\n```\nThe span is 1,280 metres.'
    const files = unzipSync(await toDocx(Report.parse({ ...report, text, claims: [] })))
    const xml = strFromU8(files['word/document.xml'] as Uint8Array)
    const paragraphs = [...xml.matchAll(/<w:p>(.*?)<\/w:p>/g)].map(([, inner]) => inner ?? '')
    const holding = (words: string) => paragraphs.find((p) => p.includes(`>${words}</w:t>`)) ?? ''
    // One level below the report's own "Text" heading: "#" is Heading 2, "##" Heading 3.
    expect(holding('## Bridges')).toContain('<w:pStyle w:val="Heading3"/>')
    expect(holding('const span = 1280')).toContain('Courier New')
    expect(holding('The span is 1,280 metres.')).not.toContain('Courier New')
    expect(holding('The span is 1,280 metres.')).not.toContain('<w:pStyle')
  })

  it('lays a right-to-left line out right to left, and keeps no carriage return of CRLF text', async () => {
    const text = 'Tel Aviv was founded in 1909.\r\nתל אביב נוסדה בשנת 1909.\r\n'
    const files = unzipSync(await toDocx(Report.parse({ ...report, text, claims: [] })))
    const xml = strFromU8(files['word/document.xml'] as Uint8Array)
    const paragraphs = [...xml.matchAll(/<w:p>(.*?)<\/w:p>/g)].map(([, inner]) => inner ?? '')
    const hebrew = paragraphs.find((p) => p.includes('תל אביב')) ?? ''
    const english = paragraphs.find((p) => p.includes('Tel Aviv')) ?? ''
    expect(hebrew).toContain('<w:bidi/>')
    expect(hebrew).toContain('<w:rtl/>')
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
    const file = await exportReport(report, 'json', noPdf)
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

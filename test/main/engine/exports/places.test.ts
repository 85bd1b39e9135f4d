import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { DOMParser, parseHTML } from 'linkedom'
import mammoth from 'mammoth'
import { describe, expect, it } from 'vitest'
import { QUIET_HEADING } from '../../../../src/main/engine/exports/annotate'
import { toDocx } from '../../../../src/main/engine/exports/docx'
import { toHtml } from '../../../../src/main/engine/exports/html'
import { exportFileName } from '../../../../src/main/engine/exports/index'
import { toMarkdown } from '../../../../src/main/engine/exports/markdown'
import { memo, placeWords } from '../../../../src/main/engine/exports/memo'
import { chromiumPdf } from '../../../../src/main/engine/exports/pdf'
import { Report } from '../../../../src/shared/schemas'
import { tempDir } from '../../../helpers/server'
import { articleReport, HEBREW, MARKED_CLAIM, MARKED_CLAIM_WORDS } from './article'

// Issue 36: where a claim is, said as a reader counts, and linked to from what needs attention; the headline as
// the report's title; claims quoted without their Markdown; a Word document with spacing and one appendix heading.
const { report, expected } = articleReport({ marked: true })
const HEADLINE = 'The climate in review 🌍'
const numberOf = (claimId: string): number =>
  [...report.claims]
    .sort((a, b) => a.charStart - b.charStart)
    .findIndex((claim) => claim.claimId === claimId) + 1

/// Claims of the article's report put on other words of another text, in order.
const claimsOf = (text: string, sentences: string[]) =>
  sentences.map((words, index) => {
    const charStart = text.indexOf(words)
    return { ...report.claims[index]!, text: words, charStart, charEnd: charStart + words.length }
  })

/// The places, in words, of claims on another text.
const placesOf = (text: string, claims: ReturnType<typeof claimsOf>): string[] =>
  memo(Report.parse({ ...report, text, claims })).claims.map((claim) => placeWords(claim.place))

/// The places of the claims whose text the line of the article holds, in words.
const placesOnLine = (prefix: string): string[] => {
  const memoed = memo(report)
  const line = report.text.split('\n').filter((each) => each.startsWith(prefix))
  return memoed.claims
    .filter((claim) => line.some((each) => each.includes(claim.claim.text)))
    .map((claim) => placeWords(claim.place))
}

describe('where a claim is, as a reader counts', () => {
  it('counts the paragraphs under their heading, not the byline and date line under the headline', () => {
    const memoed = memo(report)
    expect(memoed.claims[0]?.place).toEqual({
      heading: 'What the record shows',
      introduction: false,
      kind: 'paragraph',
      number: 1,
      list: null,
    })
    expect(placeWords(memoed.claims[0]!.place)).toBe('paragraph 1 under “What the record shows”')
    const disputed = memoed.claims.find((claim) => claim.claim.claimId === expected.disputed)!
    expect(placeWords(disputed.place)).toBe('paragraph 2 under “Voices”')
    const hebrew = memoed.claims.find((claim) => claim.claim.text === HEBREW)!
    expect(placeWords(hebrew.place)).toBe('paragraph 1 under “Voices”')
    expect(placeWords(memoed.claims.at(-1)!.place)).toBe('paragraph 1 under “The archive”')
  })

  it('counts the paragraphs under the headline from the first after its byline and date line', () => {
    const text =
      '# The bridge\n\n*By Ann Lee*\n\n**20 November 2026**\n\nIt opened in 1889.\n\n*It is grey.*\n\n' +
      '## Later\n\nIt rose in 1887.'
    const claims = claimsOf(text, ['Ann Lee', 'It opened in 1889.', 'It is grey.', 'It rose in 1887.'])
    // Short lines of emphasis count as paragraphs once the body has started.
    expect(placesOf(text, claims)).toEqual([
      'a line under “The bridge”',
      'paragraph 1 under “The bridge”',
      'paragraph 2 under “The bridge”',
      'paragraph 1 under “Later”',
    ])
    // A byline and a date line without emphasis, as the claims tell them: not paragraphs either.
    const plain = '# The bridge\n\nBy Ann Lee\n\nUpdated: 20 November 2026\n\nIt opened in 1889.'
    expect(placesOf(plain, claimsOf(plain, ['It opened in 1889.']))).toEqual([
      'paragraph 1 under “The bridge”',
    ])
  })

  it('counts list items within their list, and names the quotation', () => {
    expect(placesOnLine('- ')).toEqual([
      'list item 1 under “Ice and sea”',
      'list item 2 under “Ice and sea”',
      'list item 3 under “Ice and sea”',
    ])
    // The paragraph after the list is the section's second.
    const after = report.text.split('\n').findLast((line) => line.startsWith('- '))!
    const next = memo(report).claims.find(
      (claim) => claim.claim.charStart > report.text.lastIndexOf(after) + after.length,
    )!
    expect(placeWords(next.place)).toBe('paragraph 2 under “Ice and sea”')
    expect(new Set(placesOnLine('> '))).toEqual(new Set(['the quotation under “Voices”']))
  })

  it('says which list and which quotation when a section has several, and what comes before any heading', () => {
    const text =
      'It opened in 1889.\n\n## Towers\n\nThe span is 300 metres.\n\n- One item.\n- It rose in 1887.\n\n' +
      'Between the lists.\n\n1. It was painted in 1968.\n   - It is grey.\n\n> It was built in 1888.\n\n' +
      'After the first quotation.\n\n> It is made of iron.'
    const sentences = [
      'It opened in 1889.',
      'It rose in 1887.',
      'Between the lists.',
      'It was painted in 1968.',
      'It is grey.',
      'It is made of iron.',
    ]
    expect(placesOf(text, claimsOf(text, sentences))).toEqual([
      'paragraph 1 in the introduction',
      'list item 2 of list 1 under “Towers”',
      'paragraph 2 under “Towers”',
      'list item 1 of list 2 under “Towers”',
      'list item 1 of list 2 under “Towers”',
      'quotation 2 under “Towers”',
    ])
    // A text without headings has no introduction: its paragraphs are counted from its start.
    const plain = 'The span is 300 metres.\n\nIt opened in 1889.'
    expect(placesOf(plain, claimsOf(plain, ['It opened in 1889.']))).toEqual(['paragraph 2'])
  })
})

describe('the headline as the title', () => {
  const named = (name: string | null, text = report.text) =>
    memo({ ...report, text, check: { ...report.check, name } }).title

  it('takes the headline when the check is named after its file or not named, else the name', () => {
    expect(named('climate-review.md')).toBe(HEADLINE)
    expect(named('Climate Review.DOCX')).toBe(HEADLINE)
    expect(named(null)).toBe(HEADLINE)
    expect(named('Review v1.2')).toBe('Review v1.2')
    expect(named('The **bold** headline', '# Another')).toBe('The **bold** headline')
    // The headline as read: without its Markdown marks.
    expect(named(null, '## The *bold* [headline](https://example.org)\n\nWords.')).toBe('The bold headline')
    expect(named('draft.md', 'No heading here.')).toBe('draft.md')
    expect(named(null, 'No heading here.')).toBe('Check chk_article')
    // The export's file name is still the check's.
    expect(exportFileName(report, 'html')).toBe('climate-review-factcheck.html')
  })

  it('is the HTML page’s title and first heading, and the Markdown’s header', () => {
    const { document } = parseHTML(toHtml(report))
    expect(document.querySelector('title')?.textContent).toBe(HEADLINE)
    expect(document.querySelector('body > h1')?.textContent).toBe(HEADLINE)
    expect(toMarkdown(report)).toMatch(new RegExp(`^> \\*\\*Fact-check report: ${HEADLINE}\\*\\*`))
  })
})

describe('links from what needs attention to the claims’ places', () => {
  it('links each HTML item’s place to its claim’s words, and keeps its link to the note', () => {
    const { document } = parseHTML(toHtml(report))
    const items = [...document.querySelectorAll('.attention li')]
    expect(items.map((item) => item.getAttribute('data-claim-id'))).toEqual(expected.attention)
    for (const item of items) {
      const id = item.getAttribute('data-claim-id')!
      const place = item.querySelector('a.place')!
      expect(place.textContent).toMatch(/^paragraph \d+ under “/)
      const target = document.querySelector(place.getAttribute('href')!)
      expect(target?.matches('mark.claim')).toBe(true)
      expect(target?.getAttribute('data-claim-id')).toBe(id)
      expect(item.querySelector(`a[href="#note-${numberOf(id)}"]`)).not.toBeNull()
    }
  })

  it('prints the links into the PDF, titled with the headline', async () => {
    const file = join(tempDir(), 'report.pdf')
    const bytes = await chromiumPdf(toHtml(report))
    writeFileSync(file, bytes)
    expect(execFileSync('pdfinfo', [file], { encoding: 'utf8' })).toMatch(
      new RegExp(`^Title:\\s+${HEADLINE}$`, 'm'),
    )
    // Chromium writes an internal link as a link annotation to a named place in the document: the list's place
    // words go to their claims' words (the notes' links back to the claims are not printed).
    const raw = Buffer.from(bytes).toString('latin1')
    const links = raw.match(/\/Subtype \/Link[^>]*\/Dest \/claim-\d+>>/g) ?? []
    const numbers = expected.attention.map(numberOf)
    const linked = links.map((link) => Number(/claim-(\d+)/.exec(link)?.[1]))
    expect(linked.slice(0, numbers.length)).toEqual(numbers)
    // Then the list of the claims nothing confirmed (a link may print as one annotation per line it spans).
    const quiet = expected.quiet.map(numberOf)
    expect(linked.slice(numbers.length).length).toBeGreaterThanOrEqual(quiet.length)
    expect([...new Set(linked.slice(numbers.length))]).toEqual(quiet)
    for (const number of numbers) expect(raw).toMatch(new RegExp(`/claim-${number} \\[\\d+ 0 R /XYZ`))
  }, 120_000)

  it('bookmarks each claim in the Word article and links to it from the list and the appendix', async () => {
    const files = unzipSync(await toDocx(report))
    const xml = strFromU8(files['word/document.xml'] as Uint8Array)
    const body = new DOMParser().parseFromString(xml, 'text/xml')
    const starts = [...body.getElementsByTagName('w:bookmarkStart')]
    const names = starts.map((start) => start.getAttribute('w:name'))
    expect(names).toEqual(report.claims.map((_, index) => `claim_${index + 1}`))
    // Each bookmark holds its claim's words.
    // The words of a stretch of the document as written (tracked insertions left out).
    const text = (from: number, to: number) =>
      [
        ...xml
          .slice(from, to)
          .replace(/<w:ins\b.*?<\/w:ins>/g, '')
          .matchAll(/<w:(?:t|delText)(?: [^>]*)?>([^<]*)</g),
      ]
        .map(([, t]) => t)
        .join('')
    const claims = memo(report).claims
    for (const start of starts.slice(0, 3)) {
      const name = start.getAttribute('w:name')
      const from = xml.indexOf(`w:name="${name}"`)
      const to = xml.indexOf(`<w:bookmarkEnd w:id="${start.getAttribute('w:id')}"/>`, from)
      expect(text(from, to)).toBe(claims.find((claim) => `claim_${claim.number}` === name)?.claim.text)
    }
    const anchors = [...body.getElementsByTagName('w:hyperlink')]
      .map((link) => link.getAttribute('w:anchor'))
      .filter((anchor) => anchor !== null)
    const attention = expected.attention.map((id) => `claim_${numberOf(id)}`)
    // The "Needs attention" list first, then every note of the appendix, then the list of the claims nothing
    // confirmed (which have no note of their own).
    const quiet = expected.quiet.map((id) => `claim_${numberOf(id)}`)
    expect(anchors.slice(0, attention.length)).toEqual(attention)
    expect(anchors.slice(attention.length)).toEqual([
      ...names.filter((name) => !quiet.includes(name as string)),
      ...quiet,
    ])
  })
})

describe('claims quoted as a reader reads them', () => {
  it('strips the claim’s Markdown in the HTML, Markdown and Word lists and notes', async () => {
    expect(report.claims.at(-1)?.text).toBe(MARKED_CLAIM)
    const { document } = parseHTML(toHtml(report))
    const item = document.querySelector(`.attention li[data-claim-id="${expected.marked}"]`)
    expect(item?.querySelector('.quoted')?.textContent).toBe(`“${MARKED_CLAIM_WORDS}”`)
    expect(item?.textContent).toContain('paragraph 1 under “The archive”')

    const markdown = toMarkdown(report)
    expect(markdown).toContain(`“${MARKED_CLAIM_WORDS}” (note ${numberOf(expected.marked)})`)

    const { value } = await mammoth.extractRawText({ buffer: Buffer.from(await toDocx(report)) })
    const [, notes] = value.split('\nDetails of each claim\n')
    const list = value.slice(value.indexOf('Needs attention'), value.indexOf('\nArticle\n'))
    const quoted = `“${MARKED_CLAIM_WORDS}”`
    expect(list).toContain(`${quoted} [${numberOf(expected.marked)}]`)
    expect(notes).toContain(`${numberOf(expected.marked)}. Misleading: partly true — ${quoted}.`)
    // Every claim is quoted as read (the models' reasons are their own words).
    const quotes = [...list.matchAll(/“([^”]*)” \[\d+\]/g)].map(([, words]) => words)
    expect(quotes).toHaveLength(expected.attention.length)
    expect(quotes.filter((words) => /\*\*|`|\]\(/.test(words!))).toEqual([])
  })
})

describe('a Word document an editor can read', () => {
  it('spaces its paragraphs and puts the appendix notes under one heading, each a bold run-in', async () => {
    const files = unzipSync(await toDocx(report))
    const xml = (name: string) => strFromU8(files[name] as Uint8Array)
    expect(xml('docProps/core.xml')).toContain(`<dc:title>${HEADLINE}</dc:title>`)
    const body = new DOMParser().parseFromString(xml('word/document.xml'), 'text/xml')
    const paragraphs = [...body.getElementsByTagName('w:p')]
    const words = (p: Element) => [...p.getElementsByTagName('w:t')].map((t) => t.textContent).join('')
    const style = (p: Element) => p.getElementsByTagName('w:pStyle')[0]?.getAttribute('w:val') ?? null
    expect(paragraphs.filter((p) => style(p) === 'Title').map(words)).toEqual([HEADLINE])

    // Word's paragraphs have space after them; headings more before than after.
    const styles = new DOMParser().parseFromString(xml('word/styles.xml'), 'text/xml')
    const defaults = styles.getElementsByTagName('w:pPrDefault')[0]
    expect(Number(defaults?.getElementsByTagName('w:spacing')[0]?.getAttribute('w:after'))).toBeGreaterThan(0)
    const heading = [...styles.getElementsByTagName('w:style')].find(
      (each) => each.getAttribute('w:styleId') === 'Heading2',
    )
    const spacing = heading?.getElementsByTagName('w:spacing')[0]
    expect(Number(spacing?.getAttribute('w:before'))).toBeGreaterThan(
      Number(spacing?.getAttribute('w:after')),
    )

    const start = paragraphs.findIndex((p) => words(p) === 'Details of each claim')
    expect(style(paragraphs[start]!)).toBe('Heading1')
    const appendix = paragraphs.slice(start + 1)
    // One more heading only: the list of the claims nothing confirmed, which have no note of their own.
    expect(appendix.filter((p) => style(p)?.startsWith('Heading')).map(words)).toEqual([QUIET_HEADING])
    const runIns = appendix.filter((p) => /^\d+\. /.test(words(p)))
    expect(runIns).toHaveLength(report.claims.length - expected.quiet.length)
    for (const p of runIns)
      expect(p.getElementsByTagName('w:r')[0]?.getElementsByTagName('w:b')).toHaveLength(1)
  })
})

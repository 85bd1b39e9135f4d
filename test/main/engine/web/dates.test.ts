import { describe, expect, it } from 'vitest'
import { isoDate, resultDate } from '../../../../src/main/engine/web'
import { readableText } from '../../../../src/main/engine/web/readable'

const BODY =
  '<p>The bridge opened to traffic in 1883 after fourteen years of construction on the East River.</p>'
const page = (head: string, body = `<article><h1>The bridge</h1>${BODY}</article>`) =>
  `<!doctype html><html><head><title>The bridge</title>${head}</head><body>${body}</body></html>`
const published = (html: string) => readableText(html, 'text/html', 'https://news.test/a').publishedAt

describe('a page’s publication date', () => {
  it('from <meta property="article:published_time">, normalised to UTC', () => {
    expect(
      published(page('<meta property="article:published_time" content="2024-05-01T10:15:00+02:00">')),
    ).toBe('2024-05-01T08:15:00.000Z')
  })

  it('from JSON-LD datePublished, also inside an @graph', () => {
    const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`
    expect(published(page(ld({ '@type': 'NewsArticle', datePublished: '2023-11-20' })))).toBe(
      '2023-11-20T00:00:00.000Z',
    )
    const graph = {
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebSite', name: 'News' },
        { '@type': 'Article', datePublished: '2022-03-04T05:06:07Z' },
      ],
    }
    expect(published(page(ld(graph)))).toBe('2022-03-04T05:06:07.000Z')
    // A broken block says nothing; the next one is read.
    expect(
      published(
        page(`<script type="application/ld+json">{oops</script>${ld([{ datePublished: '2021-01-02' }])}`),
      ),
    ).toBe('2021-01-02T00:00:00.000Z')
  })

  it('from the first <time datetime> of the article, before one elsewhere on the page', () => {
    const body =
      '<aside><time datetime="2019-09-09">Most read</time></aside>' +
      `<article><h1>The bridge</h1><p>By a reporter, <time datetime="2020-07-08T09:00">8 July 2020</time></p>${BODY}` +
      '<time datetime="2020-12-31">Updated</time></article>'
    expect(published(page('', body))).toBe('2020-07-08T09:00:00.000Z')
  })

  it('null when the page declares none, or a date that is not one', () => {
    expect(published(page(''))).toBeNull()
    expect(published(page('<meta property="article:published_time" content="yesterday">'))).toBeNull()
    expect(published(page('<meta property="article:published_time" content="2024-02-30">'))).toBeNull()
    expect(published(page('', `<article><time datetime="soon">Soon</time>${BODY}</article>`))).toBeNull()
    expect(readableText('Plain text.', 'text/plain', 'u').publishedAt).toBeNull()
    for (const bad of ['', '12', 'May 2024', '2024-13-01', '2024-05-01T25:00Z', '0001-01-01', null, 2024])
      expect(isoDate(bad)).toBeNull()
  })
})

describe('a search result’s date, as its provider writes it', () => {
  it.each([
    ['2024-05-01T08:30:00', '2024-05-01T08:30:00.000Z'],
    ['2024-05-01T08:30:00Z', '2024-05-01T08:30:00.000Z'],
    ['Wed, 01 May 2024 08:30:00 GMT', '2024-05-01T08:30:00.000Z'],
    ['1 May 2024', '2024-05-01T00:00:00.000Z'],
    ['2 days ago', null],
    ['Fri, 31 Feb 2024 08:30:00 GMT', null],
    ['', null],
    [null, null],
  ])('%s → %s', (written, date) => {
    expect(resultDate(written)).toBe(date)
  })
})

import { Readability } from '@mozilla/readability'
import { parseDocument, type HtmlElement } from '../base/dom'
import { publishedAt } from './dates'
import { normaliseSpace } from './passages'

/// A page's readable text: its title, its main content as blocks joined by blank lines, and the publication
/// date it declares (ISO UTC), if any.
export interface ReadableText {
  title: string
  text: string
  publishedAt: string | null
}

const BLOCKS = 'h1, h2, h3, h4, h5, h6, p, li, blockquote, pre, td, th, dt, dd, figcaption'

/// The blocks of `root` as text, one per block element that holds no other block (so nothing is repeated);
/// the whole root's text when it has none.
function blocksOf(root: Pick<HtmlElement, 'querySelectorAll' | 'textContent'>): string {
  const blocks: string[] = []
  for (const element of Array.from(root.querySelectorAll(BLOCKS))) {
    if (element.querySelector(BLOCKS)) continue
    const text = normaliseSpace(element.textContent ?? '')
    if (text) blocks.push(text)
  }
  return blocks.length > 0 ? blocks.join('\n\n') : normaliseSpace(root.textContent ?? '')
}

/// The readable text of an HTML page (Readability's article, scripts and navigation dropped), or of plain text.
export function readableText(body: string, contentType: string, url: string): ReadableText {
  if (contentType === 'text/plain') {
    const text = body
      .split(/\n\s*\n/)
      .map(normaliseSpace)
      .filter(Boolean)
      .join('\n\n')
    return { title: url, text, publishedAt: null }
  }
  const document = parseDocument(body)
  const pageTitle = normaliseSpace(document.title) || url
  const published = publishedAt(document)
  for (const element of Array.from(document.querySelectorAll('script, style, noscript, template'))) {
    element.remove()
  }
  let article: { title?: string | null; content?: string | null } | null = null
  try {
    article = new Readability(document as unknown as Document, { charThreshold: 100 }).parse()
  } catch {
    article = null
  }
  if (article?.content) {
    const content = parseDocument(`<!doctype html><html><body>${article.content}</body></html>`)
    const text = blocksOf(content.body ?? content.documentElement)
    if (text) return { title: normaliseSpace(article.title ?? '') || pageTitle, text, publishedAt: published }
  }
  const again = parseDocument(body)
  for (const element of Array.from(
    again.querySelectorAll('script, style, noscript, template, nav, header, footer'),
  )) {
    element.remove()
  }
  return {
    title: pageTitle,
    text: blocksOf(again.body ?? again.documentElement),
    publishedAt: published,
  }
}

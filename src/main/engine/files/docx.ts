import { unzipSync, zipSync, type Unzipped } from 'fflate'
import mammoth from 'mammoth'
import { ApiError } from '../../../shared/errors'
import { parseDocument, type HtmlElement, type HtmlNode } from '../base/dom'

/// The most a Word document's XML may unpack to. A .docx is a zip, and a small one can unpack into gigabytes
/// (a "zip bomb"); this is far more than the XML of the longest text a check takes.
export const MAX_UNPACKED_BYTES = 64 * 1024 * 1024

/// The text of a Word document as Markdown: headings, paragraphs, lists (nested), bold, italic, strikethrough,
/// links, code and tables' text kept; images, comments and styles dropped. Rejects what is not a `.docx`, and
/// a document whose XML unpacks to more than MAX_UNPACKED_BYTES.
export async function docxToMarkdown(bytes: Buffer): Promise<string> {
  const { value } = await mammoth.convertToHtml(
    { buffer: Buffer.from(boundedDocx(bytes)) },
    {
      // An image becomes nothing rather than a data: URL the size of the picture.
      convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })),
      externalFileAccess: false,
    },
  )
  return htmlToMarkdown(value)
}

/// The document's zip with only its XML parts unpacked, each into no more than the size its zip declares (so
/// a part that lies about its size is cut, not unpacked in full) and all within MAX_UNPACKED_BYTES; the other
/// parts (pictures, fonts, embedded files, all dropped anyway) are left empty. Stored without compression, so
/// that mammoth reads it without unpacking again.
function boundedDocx(bytes: Buffer): Uint8Array {
  let unpacked = 0
  const skipped: string[] = []
  const parts: Unzipped = unzipSync(bytes, {
    filter: (part) => {
      if (!/\.(xml|rels)$/i.test(part.name)) {
        skipped.push(part.name)
        return false
      }
      unpacked += part.originalSize
      if (unpacked > MAX_UNPACKED_BYTES) {
        throw new ApiError(
          'unprocessable',
          `This Word document unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MB of text and markup.`,
        )
      }
      return true
    },
  })
  for (const name of skipped) parts[name] = new Uint8Array(0)
  return zipSync(parts, { level: 0 })
}

/// A small HTML → Markdown conversion, for the HTML mammoth writes (and any simple HTML).
export function htmlToMarkdown(html: string): string {
  const document = parseDocument(`<!doctype html><html><body>${html}</body></html>`)
  return blocks(document.body ?? document.documentElement)
    .join('\n\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

const HEADING = /^h([1-6])$/

// The Markdown blocks of an element's children; loose inline content between blocks makes a paragraph.
function blocks(parent: HtmlElement): string[] {
  const out: string[] = []
  let loose = ''
  const flush = (): void => {
    const text = loose.trim()
    if (text) out.push(escapeBlockStart(text))
    loose = ''
  }
  for (const node of Array.from(parent.childNodes)) {
    const tag = node.nodeType === 1 ? (node as HtmlElement).tagName.toLowerCase() : ''
    const block = tag ? blockOf(node as HtmlElement, tag) : null
    if (block === null) {
      loose += inline(node)
      continue
    }
    flush()
    if (block) out.push(block)
  }
  flush()
  return out
}

// One block element as Markdown ('' when it is empty); null for an inline element.
function blockOf(element: HtmlElement, tag: string): string | null {
  const heading = HEADING.exec(tag)
  if (heading) {
    const text = inlineOf(element).trim()
    return text ? `${'#'.repeat(Number(heading[1]))} ${text}` : ''
  }
  switch (tag) {
    case 'p':
    case 'div':
    case 'section':
    case 'article':
      return blocks(element).join('\n\n')
    case 'ul':
    case 'ol':
      return list(element, tag === 'ol')
    case 'blockquote':
      return blocks(element)
        .join('\n\n')
        .split('\n')
        .map((line) => (line ? `> ${line}` : '>'))
        .join('\n')
    case 'pre':
      return `\`\`\`\n${(element.textContent ?? '').replace(/\n$/, '')}\n\`\`\``
    case 'table':
      return Array.from(element.querySelectorAll('tr'))
        .map((row) =>
          Array.from(row.children)
            .map((cell) => blocks(cell).join(' ').trim())
            .join(' | '),
        )
        .filter((row) => row.replace(/[\s|]/g, '') !== '')
        .join('\n\n')
    case 'hr':
      return '---'
    default:
      return null
  }
}

// A list, its items numbered or bulleted; a nested list is indented under its item.
function list(element: HtmlElement, ordered: boolean): string {
  const items = Array.from(element.children).filter((child) => child.tagName.toLowerCase() === 'li')
  return items
    .map((item, index) => {
      const marker = ordered ? `${index + 1}. ` : '- '
      const pad = ' '.repeat(marker.length)
      const body = blocks(item).join('\n')
      return (
        marker +
        body
          .split('\n')
          .map((line, at) => (at === 0 || !line ? line : pad + line))
          .join('\n')
      )
    })
    .join('\n')
}

// Inline content of an element's children.
function inlineOf(element: HtmlElement): string {
  return Array.from(element.childNodes).map(inline).join('')
}

function inline(node: HtmlNode): string {
  if (node.nodeType === 3) return escapeInline((node.textContent ?? '').replace(/\s+/g, ' '))
  if (node.nodeType !== 1) return ''
  const element = node as HtmlElement
  const tag = element.tagName.toLowerCase()
  switch (tag) {
    case 'strong':
    case 'b':
      return wrap(inlineOf(element), '**')
    case 'em':
    case 'i':
      return wrap(inlineOf(element), '*')
    case 's':
    case 'del':
    case 'strike':
      return wrap(inlineOf(element), '~~')
    case 'code':
      return wrap((element.textContent ?? '').replace(/`/g, ''), '`')
    case 'a': {
      const text = inlineOf(element)
      const href = element.getAttribute('href') ?? ''
      // Mammoth's bookmarks and footnote back-links point inside the document: only their text is kept.
      return href && !href.startsWith('#') && text.trim()
        ? `[${text.trim()}](${href.replace(/[()\s]/g, encodeURIComponent)})`
        : text
    }
    case 'br':
      return '\n'
    case 'img':
      return ''
    default:
      return inlineOf(element)
  }
}

// Emphasis hugs its words: spaces at either end go outside the markers, and empty emphasis disappears.
function wrap(text: string, marker: string): string {
  const inner = text.trim()
  if (!inner) return text
  const lead = text.slice(0, text.length - text.trimStart().length)
  const trail = text.slice(text.trimEnd().length)
  return `${lead}${marker}${inner}${marker}${trail}`
}

// Characters that would read as Markdown inside a paragraph.
const escapeInline = (text: string): string => text.replace(/([\\`*_[\]<>])/g, '\\$1')

// A paragraph that starts like a heading, a list item, a quote or a rule is escaped so it stays a paragraph.
const escapeBlockStart = (text: string): string =>
  text.replace(/^(#{1,6}\s|[-+]\s|>|\d+[.)]\s)/, (start) => `\\${start}`)

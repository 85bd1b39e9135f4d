// The engine reads HTML through linkedom's DOM (pages in web/, Word's HTML in files/), but is compiled without
// the browser's DOM types (tsconfig.node.json), so that `window` or `document` in it is a compile error: these
// are the members it reads, as linkedom has them.
import { parseHTML } from 'linkedom'

/// A node of a parsed document: an element (nodeType 1), text (3) or another kind.
export interface HtmlNode {
  readonly nodeType: number
  readonly textContent: string | null
}

export interface HtmlElement extends HtmlNode {
  readonly tagName: string
  readonly childNodes: ArrayLike<HtmlNode>
  readonly children: ArrayLike<HtmlElement>
  getAttribute(name: string): string | null
  querySelector(selector: string): HtmlElement | null
  querySelectorAll(selector: string): ArrayLike<HtmlElement>
  remove(): void
}

export interface HtmlDocument {
  readonly title: string
  readonly body: HtmlElement | null
  readonly documentElement: HtmlElement
  querySelector(selector: string): HtmlElement | null
  querySelectorAll(selector: string): ArrayLike<HtmlElement>
}

/// A parsed HTML document (linkedom's, typed by the members above).
export function parseDocument(html: string): HtmlDocument {
  return parseHTML(html).document as unknown as HtmlDocument
}

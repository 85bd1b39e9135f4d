// A quote as a model copies it from a page, found on that page. Models write a page's ’ as ', its — as " - ",
// its non-breaking space as a space; they double spaces, drop or add the final full stop, and wrap a quote in
// quote marks or an ellipsis. Those are typography, not other words: the quote is found through them, and the
// citation keeps the page's own words of the stretch found. A quote whose words are not on the page is not found.
import { normaliseSpace } from './passages'
import { foldChar } from './typography'

/// The fewest characters a quote has once its ends are trimmed: a shorter one could be found anywhere.
const MIN_QUOTE = 12
/// What opens or closes a quote without being its words (folded): quote marks, brackets, markup, an ellipsis,
/// punctuation and dashes.
const OPENING = /^[\s"'([{<*_.,;:!?-]+/
const CLOSING = /[\s"')\]}>*_.,;:!?-]+$/
/// A sentence's end right after the stretch found, kept with it when the quote stopped short of it.
const SENTENCE_END = /^[.!?]+["')\]]*/

/// Text as quotes are compared (folded: case, typography, runs of spaces as one, a dash with the spaces around
/// it as one dash), with the span of the original each folded character comes from.
function comparable(text: string): { folded: string; from: number[]; to: number[] } {
  const out: string[] = []
  const from: number[] = []
  const to: number[] = []
  for (let at = 0; at < text.length;) {
    // A character of one code unit (nearly all of a page) without making a string of its code point.
    const code = text.charCodeAt(at)
    const char =
      code >= 0xd800 && code <= 0xdbff
        ? String.fromCodePoint(text.codePointAt(at) as number)
        : (text[at] as string)
    const end = at + char.length
    for (const folded of foldChar(char)) {
      const last = out[out.length - 1]
      if (folded === ' ' && (last === undefined || last === ' ' || last === '-')) continue
      if (folded === '-' && last === '-') {
        to[to.length - 1] = end
        continue
      }
      if (folded === '-' && last === ' ') {
        out.pop()
        from.pop()
        to.pop()
      }
      out.push(folded)
      from.push(at)
      to.push(end)
    }
    at = end
  }
  return { folded: out.join(''), from, to }
}

/// Pages whose comparable text is kept: a claim's quotes are looked for on the same few pages, one after another.
const KEPT_PAGES = 8
const pages = new Map<string, ReturnType<typeof comparable>>()

/// `comparable(page)`, made once for the pages of the last few quotes.
function comparablePage(page: string): ReturnType<typeof comparable> {
  let known = pages.get(page)
  if (known) return known
  known = comparable(page)
  if (pages.size >= KEPT_PAGES) pages.delete(pages.keys().next().value as string)
  pages.set(page, known)
  return known
}

/// The page's own words of the stretch of `page` that `quote` copies (whitespace runs as one space), or null
/// when its words are not on the page. The quote's closing punctuation is kept where the page has it too; a
/// quote that closes otherwise where its sentence ends on the page gets the page's end.
export function quoteOnPage(quote: string, page: string): string | null {
  const folded = comparable(quote).folded
  const opening = OPENING.exec(folded)?.[0].length ?? 0
  const core = folded.slice(opening).replace(CLOSING, '')
  if (core.length < MIN_QUOTE) return null
  const text = comparablePage(page)
  const start = text.folded.indexOf(core)
  if (start < 0) return null
  const words = start + core.length
  let end = words
  for (const char of folded.slice(opening + core.length).replace(/ /g, '')) {
    if (text.folded[end] !== char) break
    end++
  }
  if (end === words) end += SENTENCE_END.exec(text.folded.slice(end))?.[0].length ?? 0
  return normaliseSpace(page.slice(text.from[start], text.to[end - 1]))
}

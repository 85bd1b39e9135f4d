import { markdown, markdownLanguage } from '@codemirror/lang-markdown'
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language'
import type { Extension } from '@codemirror/state'
import { tags } from '@lezer/highlight'

/// How Markdown reads in a writing editor: headings larger, emphasis shown as emphasis, and the markup itself
/// (`#`, `*`, `-`, `>`, link targets) quieter than the words. Colours come from the page's CSS variables.
const proseStyle = HighlightStyle.define([
  { tag: tags.heading1, fontSize: '1.6em', fontWeight: '650', color: 'var(--fd-heading)' },
  { tag: tags.heading2, fontSize: '1.3em', fontWeight: '650', color: 'var(--fd-heading)' },
  { tag: tags.heading3, fontSize: '1.12em', fontWeight: '650', color: 'var(--fd-heading)' },
  { tag: [tags.heading4, tags.heading5, tags.heading6], fontWeight: '650', color: 'var(--fd-heading)' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strong, fontWeight: '650' },
  { tag: tags.strikethrough, textDecoration: 'line-through' },
  { tag: tags.link, color: 'var(--fd-link)' },
  { tag: tags.url, color: 'var(--fd-muted)' },
  { tag: tags.quote, color: 'var(--fd-quote)' },
  { tag: tags.monospace, fontFamily: 'var(--fd-mono)', fontSize: '0.9em' },
  { tag: [tags.processingInstruction, tags.contentSeparator, tags.meta], color: 'var(--fd-muted)' },
])

/// Markdown (CommonMark with GitHub's tables, task lists and strikethrough), its list-continuing keys, and the
/// prose highlighting. No HTML tag completion: this is for writing, not markup.
export function markdownProse(): Extension {
  return [markdown({ base: markdownLanguage, completeHTMLTags: false }), syntaxHighlighting(proseStyle)]
}

import type { EditorState } from '@codemirror/state'

/// A part of the text checked on its own: the selection, or a heading's section. `from` and `to` are offsets
/// into the whole text, so that the part's claims land on the right words; `name` is what history calls it.
export interface Part {
  from: number
  to: number
  name: string
}

const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/gm
const NAME_WORDS = 6

/// The selection as a part, or null when nothing is selected.
export function selectedPart(state: EditorState): Part | null {
  const { from, to } = state.selection.main
  if (from === to) return null
  const words = state.sliceDoc(from, to).trim().split(/\s+/)
  const name = `“${words.slice(0, NAME_WORDS).join(' ')}${words.length > NAME_WORDS ? '…' : ''}”`
  return { from, to, name }
}

/// The heading's section around `pos`: from its heading to the next heading of the same or a higher level
/// (subsections included), named "§ Heading". Before the first heading, the text up to it; null in a text
/// without headings (the section is the whole text).
export function sectionAt(text: string, pos: number): Part | null {
  const headings = [...text.matchAll(HEADING)].map((match) => ({
    at: match.index,
    level: match[1]?.length ?? 1,
    title: match[2] ?? '',
  }))
  if (headings.length === 0) return null
  const index = headings.findLastIndex((heading) => heading.at <= pos)
  const heading = headings[index]
  if (!heading) return { from: 0, to: headings[0]?.at ?? text.length, name: '§ Beginning' }
  const next = headings.slice(index + 1).find((other) => other.level <= heading.level)
  return { from: heading.at, to: next?.at ?? text.length, name: `§ ${heading.title}` }
}

/// Whether two parts (or the whole text, null) are the same.
export const samePart = (a: Part | null, b: Part | null): boolean =>
  a === b || (a !== null && b !== null && a.from === b.from && a.to === b.to)

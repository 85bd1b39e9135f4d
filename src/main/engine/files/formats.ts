import { extname } from 'node:path'
import { ApiError } from '../../../shared/errors'

/// The kinds of file Factdesk opens: Markdown and plain text as they are, Word documents imported as Markdown.
export type FileKind = 'markdown' | 'text' | 'docx'

const KINDS: Record<string, FileKind> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
  '.docx': 'docx',
}

/// The file name extensions of each kind, as file dialogs and the page's file input list them.
export const OPENABLE = Object.keys(KINDS)
/// What a file can be saved as: Word documents are only imported.
export const SAVABLE = OPENABLE.filter((extension) => KINDS[extension] !== 'docx')

/// The kind of a file by its name, or the reason it cannot be opened.
export function kindOf(name: string): FileKind {
  const kind = KINDS[extname(name).toLowerCase()]
  if (!kind) {
    throw new ApiError(
      'unprocessable',
      `Factdesk opens Markdown (.md), plain text (.txt) and Word (.docx) files; "${name}" is none of them.`,
    )
  }
  return kind
}

/// How a text file writes the text the editor holds (\n line ends, no byte-order mark).
export interface TextConventions {
  lineEnd: '\n' | '\r\n'
  byteOrderMark: boolean
}

/// The editor's own conventions: a new file is written with them.
export const EDITOR_CONVENTIONS: TextConventions = { lineEnd: '\n', byteOrderMark: false }

/// The conventions of a text file's bytes (its first line end decides), so that saving it back keeps them and
/// a Windows file does not come back with every line changed.
export function conventionsOf(bytes: Buffer): TextConventions {
  const lineFeed = bytes.indexOf(0x0a)
  return {
    lineEnd: lineFeed > 0 && bytes[lineFeed - 1] === 0x0d ? '\r\n' : '\n',
    byteOrderMark: bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf,
  }
}

/// The editor's text as a file of those conventions holds it.
export function fileText(text: string, conventions: TextConventions): string {
  const lines = conventions.lineEnd === '\n' ? text : text.replace(/\n/g, '\r\n')
  return conventions.byteOrderMark ? `\uFEFF${lines}` : lines
}

/// The text of a file of any name, as `factdesk check` reads it: a Word document by its `.docx` name,
/// anything else as UTF-8 text.
export async function textOfAnyFile(name: string, bytes: Buffer): Promise<string> {
  return extname(name).toLowerCase() in KINDS ? textOfFile(name, bytes) : utf8Text(name, bytes)
}

/// The text of a file, by its name: UTF-8 text (a byte-order mark dropped, line ends made \n, as the editor
/// holds them), or a Word document converted to Markdown.
export async function textOfFile(name: string, bytes: Buffer): Promise<string> {
  if (kindOf(name) === 'docx') {
    // Loaded on the first Word document: mammoth is megabytes of heap an engine that never opens one would hold.
    const { docxToMarkdown } = await import('./docx')
    return docxToMarkdown(bytes).catch((error: unknown) => {
      if (error instanceof ApiError) throw new ApiError(error.code, `"${name}": ${error.message}`)
      throw new ApiError('unprocessable', `"${name}" could not be read as a Word document.`)
    })
  }
  return utf8Text(name, bytes)
}

/// UTF-8 text, its byte-order mark dropped and line ends made \n; refused when it is not UTF-8, or holds a
/// NUL character, as a binary file does.
function utf8Text(name: string, bytes: Buffer): string {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    throw new ApiError('unprocessable', `"${name}" is not UTF-8 text.`)
  }
  if (text.includes('\0')) throw new ApiError('unprocessable', `"${name}" is a binary file, not text.`)
  return text.replace(/\r\n?/g, '\n')
}

import { extname } from 'node:path'
import { ApiError } from '../../shared/errors'
import { docxToMarkdown } from './docx'

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

/// The text of a file, by its name: UTF-8 text (a byte-order mark dropped, line ends made \n, as the editor
/// holds them), or a Word document converted to Markdown.
export async function textOfFile(name: string, bytes: Buffer): Promise<string> {
  if (kindOf(name) === 'docx') {
    return docxToMarkdown(bytes).catch(() => {
      throw new ApiError('unprocessable', `"${name}" could not be read as a Word document.`)
    })
  }
  const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false })
  try {
    return text.decode(bytes).replace(/\r\n?/g, '\n')
  } catch {
    throw new ApiError('unprocessable', `"${name}" is not UTF-8 text.`)
  }
}

/// What every side needs to know of one export format: the menu, the CLI, the REST route and the file's name.
export interface ExportFormatInfo {
  /// The file name's extension, without its dot.
  extension: string
  /// The file's media type, as the REST route and the browser's download say it.
  mediaType: string
  /// The menu's name for it, in the writer's words.
  name: string
  /// What the file holds, after its name in the menu and the API's description.
  detail: string
  /// Whether the file is text, which the CLI may write to standard output.
  text: boolean
}

/// Every export format, in the order the menu and the CLI list them. A new format is a row here and its
/// renderer in the engine's `exports/index.ts` (a `Record` of every format, so the compiler asks for it).
export const EXPORT_FORMATS = {
  html: {
    extension: 'html',
    mediaType: 'text/html; charset=utf-8',
    name: 'Web page (HTML)',
    detail: 'highlighted claims, notes, votes and sources',
    text: true,
  },
  pdf: {
    extension: 'pdf',
    mediaType: 'application/pdf',
    name: 'PDF',
    detail: 'the web page, ready to print',
    text: false,
  },
  docx: {
    extension: 'docx',
    mediaType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    name: 'Word (DOCX)',
    detail: 'a comment on each claim',
    text: false,
  },
  md: {
    extension: 'md',
    mediaType: 'text/markdown; charset=utf-8',
    name: 'Markdown',
    detail: 'a footnote on each claim',
    text: true,
  },
  json: {
    extension: 'json',
    mediaType: 'application/json; charset=utf-8',
    name: 'JSON',
    detail: 'the whole report and the text',
    text: true,
  },
  claimreview: {
    extension: 'jsonld',
    mediaType: 'application/ld+json',
    name: 'ClaimReview (JSON-LD)',
    detail: 'the verdicts for publishing, as schema.org ClaimReview for search engines',
    text: true,
  },
} as const satisfies Record<string, ExportFormatInfo>

/// An export format's id, as the API and the CLI's `--format` take it.
export type ExportFormatId = keyof typeof EXPORT_FORMATS

/// Every format's id, in the table's order (the `ExportFormat` schema's values).
export const EXPORT_FORMAT_IDS = Object.keys(EXPORT_FORMATS) as [ExportFormatId, ...ExportFormatId[]]

/// The formats' ids as a list in words: "html, pdf, docx, md, json or claimreview".
export const EXPORT_FORMAT_WORDS = `${EXPORT_FORMAT_IDS.slice(0, -1).join(', ')} or ${EXPORT_FORMAT_IDS.at(-1)}`

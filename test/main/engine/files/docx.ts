import JSZip from 'jszip'

// A Word document built in the test: the few XML parts mammoth reads (content types, relationships, styles,
// numbering and the body), so no binary fixture needs committing.

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

/// A run of text: plain, bold or italic.
export type Run = string | { bold: string } | { italic: string }
/// A paragraph: a heading (level 1–3), a bullet or numbered list item (level 0–1), or body text.
export interface Paragraph {
  runs: Run[]
  heading?: 1 | 2 | 3
  list?: { ordered: boolean; level: number }
}

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function run(value: Run): string {
  const [text, props] =
    typeof value === 'string'
      ? [value, '']
      : 'bold' in value
        ? [value.bold, '<w:rPr><w:b/></w:rPr>']
        : [value.italic, '<w:rPr><w:i/></w:rPr>']
  return `<w:r>${props}<w:t xml:space="preserve">${escape(text)}</w:t></w:r>`
}

function paragraph(p: Paragraph): string {
  const props = p.heading
    ? `<w:pPr><w:pStyle w:val="Heading${p.heading}"/></w:pPr>`
    : p.list
      ? `<w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="${p.list.level}"/><w:numId w:val="${p.list.ordered ? 2 : 1}"/></w:numPr></w:pPr>`
      : ''
  return `<w:p>${props}${p.runs.map(run).join('')}</w:p>`
}

const level = (ilvl: number, format: string) =>
  `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${format}"/><w:lvlText w:val="${format === 'bullet' ? '•' : `%${ilvl + 1}.`}"/></w:lvl>`

/// The bytes of a .docx holding `paragraphs`, and any further parts (a picture, say) by their path.
export async function buildDocx(
  paragraphs: Paragraph[],
  parts: Record<string, string | Uint8Array> = {},
): Promise<Buffer> {
  const zip = new JSZip()
  for (const [path, content] of Object.entries(parts)) zip.file(path, content)
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/></Types>`,
  )
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/></Relationships>`,
  )
  zip.file(
    'word/_rels/document.xml.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/styles" Target="styles.xml"/><Relationship Id="rId2" Type="${R}/numbering" Target="numbering.xml"/></Relationships>`,
  )
  const style = (id: string, name: string) =>
    `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/></w:style>`
  zip.file(
    'word/styles.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="${W}">${style('Heading1', 'heading 1')}${style('Heading2', 'heading 2')}${style('Heading3', 'heading 3')}${style('ListParagraph', 'List Paragraph')}</w:styles>`,
  )
  zip.file(
    'word/numbering.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:numbering xmlns:w="${W}"><w:abstractNum w:abstractNumId="0">${level(0, 'bullet')}${level(1, 'bullet')}</w:abstractNum><w:abstractNum w:abstractNumId="1">${level(0, 'decimal')}${level(1, 'decimal')}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>`,
  )
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}" xmlns:r="${R}"><w:body>${paragraphs.map(paragraph).join('')}</w:body></w:document>`,
  )
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' })
}

import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { toDocx } from '../../../../src/main/engine/exports/docx'
import { toHtml } from '../../../../src/main/engine/exports/html'
import { toMarkdown } from '../../../../src/main/engine/exports/markdown'
import type { Report } from '../../../../src/shared/schemas'
import { fixtureReport } from './fixture'

/// The fixture with its first citation published on 1 May 2024 (the second declares no date).
function dated(): Report {
  const base = fixtureReport()
  const first = base.claims[0]!
  const t2 = first.consensus.t2!
  const [published, undated] = t2.citations
  const citations = [{ ...published!, publishedAt: '2024-05-01T08:00:00.000Z' }, undated!]
  return {
    ...base,
    claims: [
      { ...first, consensus: { ...first.consensus, t2: { ...t2, citations } } },
      ...base.claims.slice(1),
    ],
  }
}

describe('exports give each source its dates', () => {
  const report = dated()
  const both = 'published 2024-05-01, retrieved 2026-01-01'

  it('in Markdown and HTML: published when the page says, and retrieved', () => {
    const markdown = toMarkdown(report)
    expect(markdown).toContain(`(1,083 ft) tall” (${both})`)
    expect(markdown).toContain('“quoted words” (retrieved 2026-01-01)')
    const html = toHtml(report)
    expect(html).toContain(`<small class="dates">(example.org, ${both})</small>`)
    expect(html).toContain('<small class="dates">(retrieved 2026-01-01)</small>')
  })

  it("in the Word document's appendix, the comment linking the source", async () => {
    const files = unzipSync(await toDocx(report))
    expect(strFromU8(files['word/document.xml']!)).toContain(
      `(${both}): “The tower is 330 metres (1,083 ft) tall”`,
    )
    expect(strFromU8(files['word/comments.xml']!)).toContain('<w:hyperlink ')
  })
})

/// The fixture as a t3 check under a source policy, its first citation on a site the policy prefers.
function underPolicy(): Report {
  const base = dated()
  const first = base.claims[0]!
  const t2 = first.consensus.t2!
  const [trusted, other] = t2.citations
  const citations = [{ ...trusted!, preferred: true }, other!]
  return {
    ...base,
    sources: { prefer: ['example.org'], only: [], never: ['farm.example', 'spam.example'] },
    claims: [
      { ...first, consensus: { ...first.consensus, t2: { ...t2, citations } } },
      ...base.claims.slice(1),
    ],
  }
}

describe('exports mark a preferred source and name the source policy', () => {
  const report = underPolicy()
  const method = 'Sources: preferred example.org; never farm.example, spam.example'

  it('in Markdown and HTML', () => {
    const markdown = toMarkdown(report)
    expect(markdown).toContain(
      `(1,083 ft) tall” (preferred source, published 2024-05-01, retrieved 2026-01-01)`,
    )
    expect(markdown).toContain('“quoted words” (retrieved 2026-01-01)')
    expect(markdown).toContain(method)
    const html = toHtml(report)
    expect(html).toContain(
      '<small class="dates">(example.org, preferred source, published 2024-05-01, retrieved 2026-01-01)</small>',
    )
    expect(html).toContain('farm.example, spam.example')
  })

  it('in the Word document', async () => {
    const document = strFromU8(unzipSync(await toDocx(report))['word/document.xml']!)
    expect(document).toContain('(preferred source, published 2024-05-01, retrieved 2026-01-01): “The tower')
    expect(document).toContain(method)
  })

  it('not at all for a check that followed no policy', () => {
    expect(toMarkdown(dated())).not.toContain('Sources:')
    expect(toMarkdown(dated())).not.toContain('preferred source')
  })
})

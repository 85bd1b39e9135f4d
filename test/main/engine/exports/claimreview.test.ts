// The ClaimReview export, against the fields Google's fact-check documentation requires of each review
// (https://developers.google.com/search/docs/appearance/structured-data/factcheck): claimReviewed, reviewRating
// with its alternateName, url and author; unverifiable claims are left out.
import { describe, expect, it } from 'vitest'
import { exportReport, type ExportTools } from '../../../../src/main/engine/exports'
import { runOperation, type OperationParts } from '../../../../src/main/engine/operations'
import { Config } from '../../../../src/shared/config'
import { renderFile } from '../../../../src/main/engine/exports/render'
import { ClaimReview, type Report } from '../../../../src/shared/schemas'
import { decision } from '../../../helpers/resources'
import { fixtureReport } from './fixture'

const noPdf = (): Promise<Uint8Array<ArrayBuffer>> => Promise.reject(new Error('no PDF in this test'))
const tools = (publisher: ExportTools['publisher']): ExportTools => ({
  render: renderFile,
  printPdf: noPdf,
  publisher,
})

/// The fixture (supported, refuted, misleading and one claim never decided) with its last claim unverifiable,
/// its first written with Markdown marks, and the check's source.
function publishedReport(sourceUrl: string | null): Report {
  const report = structuredClone(fixtureReport())
  report.check.sourceUrl = sourceUrl
  const [first, , , last] = report.claims
  if (!first || !last) throw new Error('the fixture has four claims')
  first.text = 'The **Eiffel Tower** is 330 metres tall.'
  last.consensus.t2 = decision({
    verdict: 'unverifiable',
    detail: 'no_evidence',
    confidence: 0.5,
    reasoning: 'Nothing found.',
    decidedAt: report.check.createdAt,
    decidedBy: 'judge',
  })
  return report
}

async function reviews(report: Report, publisher: ExportTools['publisher']): Promise<unknown[]> {
  const file = await exportReport(report, 'claimreview', tools(publisher))
  expect(file.contentType).toBe('application/ld+json')
  expect(file.fileName).toBe('landmarks-factcheck.jsonld')
  return JSON.parse(new TextDecoder().decode(file.data)) as unknown[]
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== ''

describe('the ClaimReview export', () => {
  it('has every field Google requires, of the right type, in each review; unverifiable claims left out', async () => {
    const items = await reviews(publishedReport('https://news.example.org/landmarks?page=2#top'), {
      name: 'Example News',
      url: 'https://news.example.org/',
    })
    expect(items).toHaveLength(3)
    for (const item of items) {
      const review = item as Record<string, unknown>
      expect(review['@context']).toBe('https://schema.org')
      expect(review['@type']).toBe('ClaimReview')
      expect(isText(review.claimReviewed)).toBe(true)
      expect(isText(review.url)).toBe(true)
      expect(new URL(review.url as string).protocol).toBe('https:')
      const rating = review.reviewRating as Record<string, unknown>
      expect(rating['@type']).toBe('Rating')
      expect(isText(rating.alternateName)).toBe(true)
      for (const number of ['ratingValue', 'bestRating', 'worstRating'])
        expect(Number.isInteger(rating[number]), number).toBe(true)
      expect(rating.worstRating as number).toBeLessThanOrEqual(rating.ratingValue as number)
      expect(rating.ratingValue as number).toBeLessThanOrEqual(rating.bestRating as number)
      const author = review.author as Record<string, unknown>
      expect(author['@type']).toBe('Organization')
      expect(isText(author.name)).toBe(true)
      expect(ClaimReview.parse(item)).toEqual(item)
    }
    const parsed = items.map((item) => ClaimReview.parse(item))
    expect(parsed.map((review) => [review.claimReviewed, review.reviewRating.alternateName])).toEqual([
      ['The Eiffel Tower is 330 metres tall.', 'Supported'],
      ['It was finished in 1789.', 'Refuted'],
      ['Paris has 40 million residents.', expect.stringMatching(/^Misleading/)],
    ])
    expect(parsed.map((review) => review.reviewRating.ratingValue)).toEqual([5, 1, 3])
    expect(JSON.stringify(items)).not.toContain('Berlin')
    const [first] = parsed
    expect(first?.url).toBe(
      'https://news.example.org/landmarks?page=2#:~:text=The%20Eiffel%20Tower%20is%20330%20metres%20tall.',
    )
    expect(first?.itemReviewed).toEqual({
      '@type': 'Claim',
      appearance: { '@type': 'CreativeWork', url: 'https://news.example.org/landmarks?page=2#top' },
    })
    expect(first?.author).toEqual({
      '@type': 'Organization',
      name: 'Example News',
      url: 'https://news.example.org/',
    })
    expect(first?.datePublished).toBe('2026-01-01T00:00:00.000Z')
  })

  it('without a source, has no url nor appearance; without a publisher, names Factdesk', async () => {
    const parsed = (await reviews(publishedReport(null), {})).map((item) => ClaimReview.parse(item))
    expect(parsed).toHaveLength(3)
    for (const review of parsed) {
      expect(review.url).toBeUndefined()
      expect(review.itemReviewed).toEqual({ '@type': 'Claim' })
      expect(review.author).toEqual({ '@type': 'Organization', name: 'Factdesk' })
    }
  })

  it('is made by the export operation (the Export menu, over IPC) with the configuration’s publisher', async () => {
    const report = publishedReport('https://news.example.org/landmarks')
    const parts = {
      service: { report: () => Promise.resolve(report) },
      exports: { render: renderFile },
      config: Config.parse({ publisher: { name: 'Example News' } }),
      printPdf: noPdf,
    } as unknown as OperationParts
    const principal = { organizationId: 'org_1', tokenId: 'tok_1', scope: 'read' as const, owner: true }
    const file = await runOperation(parts, 'export', { principal }, [
      report.check.id,
      { format: 'claimreview' },
    ])
    const parsed = (JSON.parse(new TextDecoder().decode(file.data)) as unknown[]).map((item) =>
      ClaimReview.parse(item),
    )
    expect(parsed.map((review) => review.author)).toEqual(
      Array(3).fill({ '@type': 'Organization', name: 'Example News' }),
    )
  })
})

// A source as the claim panel and the research panel show it (React's server renderer, no browser): one on a
// site the source policy prefers is marked in words, for the eye and for a screen reader.
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { parseHTML } from 'linkedom'
import { describe, expect, it } from 'vitest'
import type { Citation } from '../../../../src/shared/schemas'
import { SourceLink, sourceName } from '../../../../src/renderer/src/components/research/sources'

const citation = (preferred: boolean): Citation => ({
  url: 'https://www.trusted.example/ottawa',
  title: 'Ottawa',
  quote: 'Ottawa is the capital city of Canada.',
  retrievedAt: '2026-01-01T00:00:00.000Z',
  publishedAt: null,
  stance: 'supports',
  preferred,
})

const render = (source: Citation) =>
  parseHTML(
    `<!doctype html><html><body>${renderToStaticMarkup(createElement(SourceLink, { citation: source, onOpen: () => undefined }))}</body></html>`,
  ).document

describe('a source in the panels', () => {
  it('on a preferred site is marked as a preferred source', () => {
    const document = render(citation(true))
    expect(document.querySelector('.preferred-source')?.textContent).toBe(' · preferred source')
    expect(sourceName(citation(true))).toBe('Ottawa (www.trusted.example, preferred source)')
  })

  it('on any other site is not', () => {
    expect(render(citation(false)).querySelector('.preferred-source')).toBeNull()
    expect(sourceName(citation(false))).toBe('Ottawa (www.trusted.example)')
  })
})

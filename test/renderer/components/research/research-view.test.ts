// The research panel as it renders (React's server renderer, no browser): the argument map says how each quote
// bears on the claim, and a finding downgraded for want of sources says so rather than show the judge's
// confidence in a verdict no source bears out.
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { parseHTML } from 'linkedom'
import { describe, expect, it } from 'vitest'
import type { Citation, Research } from '../../../../src/shared/schemas'
import { ArgumentMapTree } from '../../../../src/renderer/src/components/research/ArgumentMap'
import { RunView } from '../../../../src/renderer/src/components/research/ResearchPanel'
import { researchRun } from '../../../helpers/resources'

type Result = NonNullable<Research['result']>

const source = (quote: string, stance: Citation['stance']): Citation => ({
  url: 'https://en.wikipedia.org/wiki/Toronto',
  title: 'Toronto',
  quote,
  retrievedAt: '2026-01-01T00:00:00.000Z',
  publishedAt: null,
  stance,
  preferred: false,
})
const PAST = 'Toronto was the capital of the Province of Canada for several periods.'
const NOW = 'Ottawa is the capital city of Canada.'

const MAP: Result['argumentMap'] = {
  nodes: [
    { id: 'claim', kind: 'claim', text: 'Ottawa is the capital of Canada.', sources: [] },
    { id: 'a1', kind: 'proof', text: 'The encyclopedia says so.', sources: [source(NOW, 'supports')] },
    { id: 'e1', kind: 'evidence', text: NOW, sources: [source(NOW, 'supports')] },
    { id: 'a2', kind: 'dissent', text: 'Toronto was a capital.', sources: [source(PAST, 'neutral')] },
    { id: 'e2', kind: 'evidence', text: PAST, sources: [source(PAST, 'neutral')] },
  ],
  edges: [
    { from: 'a1', to: 'claim', relation: 'supports' },
    { from: 'e1', to: 'a1', relation: 'supports' },
    { from: 'a2', to: 'claim', relation: 'attacks' },
    { from: 'e2', to: 'a2', relation: 'supports' },
  ],
}

const render = (element: Parameters<typeof renderToStaticMarkup>[0]) =>
  parseHTML(`<!doctype html><html><body>${renderToStaticMarkup(element)}</body></html>`).document

describe('the research panel', () => {
  it('shows each quote of the argument map with how it bears on the claim: a neutral one does not settle it', () => {
    const document = render(createElement(ArgumentMapTree, { map: MAP }))
    const evidence = [...document.querySelectorAll('li.map-evidence')]
    expect(evidence.map((item) => item.querySelector('.map-stance')?.textContent)).toEqual([
      ' · supports the claim',
      ' · does not settle the claim',
    ])
    expect(evidence[1]?.getAttribute('aria-label')).toMatch(
      /Evidence: Toronto was .*, does not settle the claim$/,
    )
  })

  it('a finding downgraded for want of sources says that no source could be verified', () => {
    // As the engine returns it (test/main/engine/research: "downgraded for want of sources, says so").
    const result: Result = {
      verdict: 'unverifiable',
      detail: 'no_evidence',
      confidence: 0,
      summary:
        'No source could be verified for this claim: of the 2 pages read, none held a quote that contradicts ' +
        "it, so it is unverifiable. (The judge leaned refuted, on the models' own knowledge.)",
      votes: [
        { model: 'panel-a', verdict: 'refuted', detail: null, confidence: 0.9, rationale: 'The dissent.' },
      ],
      argumentMap: MAP,
      sources: [],
    }
    const research = researchRun({ status: 'completed', result, completedAt: '2026-01-01T00:01:00.000Z' })
    const document = render(createElement(RunView, { run: { research, step: null, sourcesRead: 2 } }))
    const finding = document.querySelector('section.research-finding')?.textContent ?? ''
    expect(finding).toContain('Verdict unverifiable: no evidence found')
    expect(finding).toContain('No source could be verified for this claim: of the 2 pages read')
    expect(finding).not.toMatch(/Confidence 90%|The retrieved sources contradict/)
    expect(document.querySelector('.research-status')?.textContent).toContain('2 sources read')
  })

  it('a finding and each vote say their kind, as a tier’s verdict does', () => {
    const result: Result = {
      verdict: 'misleading',
      detail: 'missing_context',
      confidence: 0.8,
      summary: 'Ottawa is the capital; Toronto was one before.',
      votes: [
        {
          model: 'panel-a',
          verdict: 'misleading',
          detail: 'partly_true',
          confidence: 0.7,
          rationale: 'Partly.',
        },
        { model: 'panel-b', verdict: 'supported', detail: null, confidence: 0.9, rationale: 'It is.' },
      ],
      argumentMap: MAP,
      sources: [],
    }
    const research = researchRun({ status: 'completed', result, completedAt: '2026-01-01T00:01:00.000Z' })
    const document = render(createElement(RunView, { run: { research, step: null, sourcesRead: 2 } }))
    expect(document.querySelector('section.research-finding h3')?.textContent).toBe(
      'Verdict misleading: missing context',
    )
    expect(
      [...document.querySelectorAll('table.votes td:nth-child(2)')].map((cell) => cell.textContent),
    ).toEqual(['misleading: partly true', 'supported'])
  })
})

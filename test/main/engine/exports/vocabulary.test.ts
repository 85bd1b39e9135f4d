// The vocabulary's colours reach every view the same: each stage and verdict has its light and dark colour in
// the editor's style sheet, and each verdict an export can say colours its claims in the HTML page (and so the
// PDF) and fills them in the Word document with the same colour and fill, for claims of every verdict.
import { strFromU8, unzipSync } from 'fflate'
import { parseHTML } from 'linkedom'
import { describe, expect, it } from 'vitest'
import { annotate } from '../../../../src/main/engine/exports/annotate'
import { toDocx } from '../../../../src/main/engine/exports/docx'
import { toHtml } from '../../../../src/main/engine/exports/html'
import { toMarkdown } from '../../../../src/main/engine/exports/markdown'
import { stageStyles } from '../../../../src/renderer/src/stageStyles'
import { Report, type ExportComments } from '../../../../src/shared/schemas'
import {
  EXPORT_VERDICTS,
  fillOf,
  TERMS,
  VOCABULARY,
  type ExportVerdict,
} from '../../../../src/shared/vocabulary'
import { fixtureReport, splitRefutationReport } from './fixture'

/// Reports whose claims, together, end with every verdict an export can say.
function reportsOfEveryVerdict(): Report[] {
  const fixture = fixtureReport()
  const variant = (change: (report: Report) => void): Report => {
    const report = structuredClone(fixture)
    change(report)
    return Report.parse(report)
  }
  const [first, , third] = fixture.claims
  return [
    // supported, refuted, misleading, unchecked
    fixture,
    // disputed: t2 refuted it, t3 found no source
    splitRefutationReport(),
    variant((report) => {
      const t2 = report.claims[0]?.consensus.t2
      if (t2) t2.verdict = 'unverifiable'
    }),
    variant((report) => {
      report.check.tiers = ['t1']
      report.claims = [first, third].map((claim, index) => ({
        ...structuredClone(claim!),
        consensus: { t1: { ...claim!.consensus.t2!, verdict: index === 0 ? 'clean' : 'issues' } },
      }))
    }),
    variant((report) => {
      report.check.status = 'failed'
    }),
  ]
}

/// The colour each verdict's words and marks take in the HTML export's style sheet, and its claims' fill.
function htmlLook(html: string): { colours: Map<string, string>; fills: Map<string, string> } {
  const colours = new Map<string, string>()
  const fills = new Map<string, string>()
  for (const [, verdict, colour] of html.matchAll(/\.verdict-([\w-]+) \{ --verdict: (#[0-9a-f]{6}); \}/g))
    colours.set(verdict!, colour!)
  for (const [, verdict, fill] of html.matchAll(/mark\.verdict-([\w-]+) \{ background: (#[0-9a-f]{6}); \}/g))
    fills.set(verdict!, fill!)
  return { colours, fills }
}

/// The Word document's fill behind each run of text.
async function docxFills(
  report: Report,
  comments?: ExportComments,
): Promise<{ fill: string; text: string }[]> {
  const xml = strFromU8(unzipSync(await toDocx(report, comments))['word/document.xml']!)
  return [
    ...xml.matchAll(
      /<w:r>(?:(?!<\/w:r>).)*?w:fill="([0-9A-F]{6})"(?:(?!<\/w:r>).)*?<w:t[^>]*>([^<]+)<\/w:t>/gs,
    ),
  ].map(([, fill, text]) => ({ fill: `#${fill!.toLowerCase()}`, text: text! }))
}

describe('the vocabulary', () => {
  it('gives every stage and verdict its light and dark colour in the editor’s style sheet, and a rule', () => {
    const css = stageStyles()
    const [light, dark] = [/^:root \{([^}]*)\}/m, /prefers-color-scheme: dark\) \{ :root \{([^}]*)\}/].map(
      (block) =>
        new Map(
          [...(block.exec(css)?.[1] ?? '').matchAll(/--fd-([\w-]+): (#[0-9a-f]{6});/g)].map((m) => [
            m[1],
            m[2],
          ]),
        ),
    )
    for (const name of TERMS) {
      expect(light?.get(name), name).toBe(VOCABULARY[name].colour.light)
      expect(dark?.get(name), name).toBe(VOCABULARY[name].colour.dark)
      expect(css).toContain(`.fd-stage-${name} { --fd-stage: var(--fd-${name}); }`)
      expect(css).toContain(`.verdict-${name} { --fd-stage: var(--fd-${name}); color: var(--fd-stage); }`)
    }
  })

  it('colours and fills claims of every verdict the same in the editor, the HTML page and the Word document', async () => {
    const seen = new Set<ExportVerdict>()
    const editor = new Map(
      [...stageStyles().matchAll(/--fd-([\w-]+): (#[0-9a-f]{6});/g)]
        .slice(0, TERMS.length)
        .map((m) => [m[1], m[2]]),
    )
    // Every claim noted: a claim nothing confirmed is otherwise underlined in its colour, not filled.
    for (const report of reportsOfEveryVerdict()) {
      const html = toHtml(report, 'all')
      const { colours, fills } = htmlLook(html)
      const { document } = parseHTML(html)
      const runs = await docxFills(report, 'all')
      for (const { claim, verdict } of annotate(report).claims) {
        seen.add(verdict)
        const mark = document.querySelector(`mark.claim[data-claim-id="${claim.claimId}"]`)
        expect(mark?.classList.contains(`verdict-${verdict}`), claim.claimId).toBe(true)
        expect(colours.get(verdict), verdict).toBe(VOCABULARY[verdict].colour.light)
        expect(fills.get(verdict), verdict).toBe(fillOf(verdict))
        expect(editor.get(verdict), verdict).toBe(colours.get(verdict))
        const run = runs.find(({ text }) => claim.text.startsWith(text))
        expect(run?.fill, `${verdict}: ${claim.text}`).toBe(fills.get(verdict))
      }
    }
    expect([...seen].sort()).toEqual([...EXPORT_VERDICTS].sort())
  })

  it('says each verdict by its label in the HTML, Word and Markdown summaries', async () => {
    for (const report of reportsOfEveryVerdict()) {
      const { counts } = annotate(report)
      const markdown = toMarkdown(report)
      const { document } = parseHTML(toHtml(report))
      const word = strFromU8(unzipSync(await toDocx(report))['word/document.xml']!)
      for (const { verdict, count } of counts) {
        const { label } = VOCABULARY[verdict]
        expect(markdown).toContain(`${label} ${count}`)
        expect(document.querySelector(`.counts [data-verdict="${verdict}"]`)?.textContent).toBe(
          `${label} ${count}`,
        )
        expect(word).toContain(`>${label}<`)
      }
    }
  })
})

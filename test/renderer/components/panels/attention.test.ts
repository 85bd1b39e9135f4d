// The editor marks a claim that needs attention (issue 31): a claim t2's judge and two of three models refuted,
// on which t3 found no source, shows "unverifiable" but its badge is ringed and says why, and its claim panel
// says why, the models' reason and the correction, with each verdict's fallbacks beside it.
import { EditorState } from '@codemirror/state'
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { parseHTML } from 'linkedom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { FactdeskApi, ReportUpdate } from '../../../../src/shared/api'
import { ClaimView } from '../../../../src/renderer/src/components/panels/ClaimDetail'
import { DeskContext } from '../../../../src/renderer/src/components/useDesk'
import { ClaimBadge, claimField, setClaims } from '../../../../src/renderer/src/editor/claims'
import { Desk } from '../../../../src/renderer/src/state/desk'
import { applyUpdate, deltaOf, marksOf, progressOf } from '../../../../src/renderer/src/state/progress'
import { fixtureReport, SPLIT_WHY, splitRefutationReport } from '../../../main/engine/exports/fixture'

const report = splitRefutationReport()
const split = report.claims[1]!

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('a claim that needs attention, in the editor', () => {
  it('is marked on its badge whatever its verdict: ringed, and the title and name say why', () => {
    const marks = marksOf(report.claims, report.check, report.panel)
    expect(marks.map((mark) => [mark.stage, mark.attention])).toEqual([
      ['supported', null],
      ['unverifiable', SPLIT_WHY],
    ])
    const state = EditorState.create({ doc: report.text, extensions: [claimField] }).update({
      effects: setClaims.of(marks),
    }).state
    const badges: ClaimBadge[] = []
    state.field(claimField).decorations.between(0, report.text.length, (_from, _to, value) => {
      if (value.spec.widget instanceof ClaimBadge) badges.push(value.spec.widget)
    })
    vi.stubGlobal('document', parseHTML('<!doctype html><html><body></body></html>').document)
    const [fine, flagged] = badges.map((badge) => badge.toDOM())
    expect(fine?.classList.contains('fd-attention')).toBe(false)
    expect(flagged?.classList.contains('fd-attention')).toBe(true)
    expect(flagged?.title).toContain(`Needs attention: ${SPLIT_WHY}`)
    // The basis says t3's fallback, and no agreement is claimed for a verdict a third of the panel gave.
    expect(flagged?.title).toContain('evidence chosen by its words (the model named no passage)')
    expect(flagged?.getAttribute('aria-label')).toMatch(/: unverifiable, needs attention\. Open details$/)
    expect(badges[0]?.eq(new ClaimBadge({ ...badges[0]!.info, attention: SPLIT_WHY }))).toBe(false)
  })

  it('is marked as the votes and verdicts land, before t3 decides', () => {
    const running = { ...report.check, status: 'running' as const }
    const empty = progressOf({ ...split, evaluations: [], consensus: {} })
    const landed = (
      progress: typeof empty,
      tier: 't2' | 't3',
      evaluation: (typeof split.evaluations)[number] | null,
    ): typeof empty => {
      const update: Extract<ReportUpdate, { type: 'claim' }> = {
        type: 'claim',
        checkId: report.check.id,
        claimId: split.claimId,
        tier,
        evaluation,
        consensus: evaluation ? null : (split.consensus[tier] ?? null),
        issues: [],
      }
      return applyUpdate(progress, update)
    }
    const [first, ...others] = split.evaluations.filter((each) => each.tier === 't2')
    // One refuting vote is no majority yet.
    let progress = landed(empty, 't2', first!)
    expect(deltaOf(progress, running, report.panel).attention).toBeNull()
    for (const vote of others) progress = landed(progress, 't2', vote)
    // Two of three t2 models refuted it: marked already.
    expect(deltaOf(progress, running, report.panel).attention).toBe(
      '2 of 3 t2 models refuted it; t3 has not decided it: check by hand.',
    )
    progress = landed(progress, 't2', null)
    progress = landed(progress, 't3', null)
    expect(deltaOf(progress, running, report.panel)).toMatchObject({
      stage: 'unverifiable',
      attention: SPLIT_WHY,
    })
  })

  it('its claim panel says why, the models’ reason and the correction, once, and t3’s fallback', () => {
    const desk = new Desk({} as FactdeskApi)
    const panel = (claim: typeof split) =>
      renderToStaticMarkup(
        createElement(DeskContext.Provider, { value: desk }, createElement(ClaimView, { claim, report })),
      )
    const html = panel(split)
    const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`)
    const section = document.querySelector('section[aria-label="Needs attention"]')
    expect(section?.querySelector('.why')?.textContent).toBe(SPLIT_WHY)
    expect(section?.querySelector('.reasoning')?.textContent).toBe(
      'The models’ reason: The tower was completed in 1889, a century after 1789. Two models agree.',
    )
    expect(section?.querySelector('.correction p')?.getAttribute('aria-label')).toBe(
      'Suggested (unverified): It was completed in 1889.',
    )
    expect(document.querySelectorAll('.correction')).toHaveLength(1)
    const t3 = document.querySelector('section[aria-label="Tier t3"] .numbers')?.textContent
    expect(t3).toBe(
      'no evidence found · Unsourced: the models’ judgement · decided by the judge · agreement 33% · ' +
        'evidence chosen by its words (the model named no passage)',
    )
    // A claim no tier found a problem with has no such section.
    expect(panel(report.claims[0]!)).not.toContain('Needs attention')
  })

  it('a claim its verdict refutes: marked with why, its correction left in its tier, once', () => {
    const refutedReport = fixtureReport()
    const refuted = refutedReport.claims.find((claim) => claim.claimId === 'clm_2')!
    const desk = new Desk({} as FactdeskApi)
    const html = renderToStaticMarkup(
      createElement(
        DeskContext.Provider,
        { value: desk },
        createElement(ClaimView, { claim: refuted, report: refutedReport }),
      ),
    )
    const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`)
    expect(document.querySelector('section[aria-label="Needs attention"] .why')?.textContent).toBe(
      'The t2 judge refuted it, with 2 of 2 models.',
    )
    expect(document.querySelectorAll('.correction')).toHaveLength(1)
    expect(document.querySelectorAll('section[aria-label="Tier t2"] .correction')).toHaveLength(1)
  })
})

import { history, undo } from '@codemirror/commands'
import { EditorState, type TransactionSpec } from '@codemirror/state'
import { parseHTML } from 'linkedom'
import { describe, expect, it, vi } from 'vitest'
import {
  ClaimBadge,
  claimField,
  claimRange,
  claimRanges,
  claims as claimsExtension,
  clearClaims,
  setClaims,
  stageLabel,
  updateClaims,
  type ClaimInfo,
  type ClaimMark,
} from '../../../src/renderer/src/editor/claims'

const TEXT = 'The Eiffel Tower is 330 metres tall. Paris is in France. Cats sleep a lot.'

const mark = (claimId: string, text: string, stage: ClaimMark['stage'] = 'waiting'): ClaimMark => {
  const from = TEXT.indexOf(text)
  return { claimId, from, to: from + text.length, stage, votes: 0, panel: null, issues: [] }
}

function start(marks: ClaimMark[]): EditorState {
  const state = EditorState.create({ doc: TEXT, extensions: [claimField] })
  return state.update({ effects: setClaims.of(marks) }).state
}

const apply = (state: EditorState, spec: TransactionSpec): EditorState => state.update(spec).state
/// One claim's range, read as the panel reads it (`claimRange`), which must agree with the map of them all.
const rangeOf = (state: EditorState, id: string) => {
  const range = claimRange(state.field(claimField), id)
  expect(range).toEqual(claimRanges(state.field(claimField)).get(id))
  if (!range) throw new Error(`no claim ${id}`)
  return range
}
const textOf = (state: EditorState, id: string): string => {
  const range = rangeOf(state, id)
  return state.sliceDoc(range.from, range.to)
}
const infoOf = (state: EditorState, id: string): ClaimInfo => rangeOf(state, id).info

describe('the claims field', () => {
  const claims = [
    mark('a', 'The Eiffel Tower is 330 metres tall.'),
    mark('b', 'Paris is in France.'),
    mark('c', 'Cats sleep a lot.'),
  ]

  it('maps every range through edits before, between and after the claims', () => {
    let state = start(claims)
    state = apply(state, { changes: { from: 0, insert: 'Intro. ' } })
    state = apply(state, { changes: { from: state.doc.toString().indexOf('Paris') - 1, insert: ' Also,' } })
    state = apply(state, { changes: { from: state.doc.length, insert: ' The end.' } })
    expect(textOf(state, 'a')).toBe('The Eiffel Tower is 330 metres tall.')
    expect(textOf(state, 'b')).toBe('Paris is in France.')
    expect(textOf(state, 'c')).toBe('Cats sleep a lot.')
    expect(['a', 'b', 'c'].map((id) => infoOf(state, id).stale)).toEqual([false, false, false])
  })

  it('marks a submitted claim stale when its own text is edited, and only that claim', () => {
    let state = start(claims)
    const at = state.doc.toString().indexOf('330')
    state = apply(state, { changes: { from: at, to: at + 3, insert: '324' } })
    expect(infoOf(state, 'a').stale).toBe(true)
    expect(textOf(state, 'a')).toBe('The Eiffel Tower is 324 metres tall.')
    expect(infoOf(state, 'b').stale).toBe(false)
    expect(stageLabel(infoOf(state, 'a'))).toBe('waiting (stale)')
    // Writing the old text back (or undoing) makes the verdict hold again.
    state = apply(state, { changes: { from: at, to: at + 3, insert: '330' } })
    expect(infoOf(state, 'a').stale).toBe(false)
  })

  it('drops a claim whose whole text was deleted, badge and all; undo brings it back with its verdict', () => {
    const withHistory = (marks: ClaimMark[]): EditorState =>
      EditorState.create({ doc: TEXT, extensions: [claimsExtension(() => undefined), history()] }).update({
        effects: setClaims.of(marks),
      }).state
    let state = withHistory([
      mark('a', 'The Eiffel Tower is 330 metres tall.', 'supported'),
      mark('b', 'Paris is in France.', 'refuted'),
    ])
    const from = state.doc.toString().indexOf('Paris')
    state = apply(state, { changes: { from, to: from + 'Paris is in France.'.length } })
    expect([...claimRanges(state.field(claimField)).keys()]).toEqual(['a'])
    // Everything selected and deleted leaves no badge behind either.
    const emptied = apply(state, { changes: { from: 0, to: state.doc.length } })
    expect(claimRanges(emptied.field(claimField)).size).toBe(0)

    const undone = (current: EditorState): EditorState => {
      let next = current
      undo({ state: current, dispatch: (transaction) => (next = transaction.state) })
      return next
    }
    let back = undone(emptied)
    expect(textOf(back, 'a')).toBe('The Eiffel Tower is 330 metres tall.')
    back = undone(back)
    expect(back.doc.toString()).toBe(TEXT)
    expect(textOf(back, 'b')).toBe('Paris is in France.')
    expect(infoOf(back, 'b')).toMatchObject({ stage: 'refuted', stale: false })
  })

  it('does not mark estimated claims stale, and typing right after a claim leaves it fresh', () => {
    let state = start([mark('a', 'The Eiffel Tower is 330 metres tall.', 'estimated'), claims[1]!])
    state = apply(state, { changes: { from: 5, insert: 'x' } })
    expect(infoOf(state, 'a').stale).toBe(false)
    const end = claimRanges(state.field(claimField)).get('b')!.to
    state = apply(state, { changes: { from: end, insert: ' Yes.' } })
    expect(infoOf(state, 'b').stale).toBe(false)
    expect(textOf(state, 'b')).toBe('Paris is in France.')
  })

  it('applies a batch of deltas in one transaction, keeping ranges and other claims', () => {
    let state = start(claims)
    state = apply(state, { changes: { from: 0, insert: '## ' } })
    const before = state.field(claimField)
    state = apply(state, {
      effects: updateClaims.of([
        { claimId: 'a', stage: 'voting', votes: 1, panel: 3 },
        { claimId: 'a', stage: 'supported' },
        { claimId: 'c', stage: 'refuted' },
        { claimId: 'missing', stage: 'refuted' },
      ]),
    })
    expect(infoOf(state, 'a').stage).toBe('supported')
    expect(infoOf(state, 'b').stage).toBe('waiting')
    expect(infoOf(state, 'c').stage).toBe('refuted')
    expect(textOf(state, 'a')).toBe('The Eiffel Tower is 330 metres tall.')
    expect(before).not.toBe(state.field(claimField))
  })

  it('applies a thousand updates in one transaction', () => {
    const words = Array.from({ length: 1000 }, (_, i) => `Claim number ${i} is true.`)
    const doc = words.join(' ')
    let offset = 0
    const marks: ClaimMark[] = words.map((w, i) => {
      const from = offset
      offset += w.length + 1
      return { claimId: `c${i}`, from, to: from + w.length, stage: 'waiting', votes: 0, panel: 3, issues: [] }
    })
    let state = EditorState.create({ doc, extensions: [claimField] })
    state = apply(state, { effects: setClaims.of(marks) })
    state = apply(state, {
      effects: updateClaims.of(marks.map((m) => ({ claimId: m.claimId, stage: 'supported' as const }))),
    })
    const ranges = claimRanges(state.field(claimField))
    expect(ranges.size).toBe(1000)
    expect([...ranges.values()].every((r) => r.info.stage === 'supported')).toBe(true)
  })

  it('places spelling issues inside a claim and keeps them with it', () => {
    let state = start(claims)
    state = apply(state, {
      effects: updateClaims.of([
        { claimId: 'b', stage: 'issues', issues: [{ from: 0, to: 5, message: 'Typo', spelling: true }] },
      ]),
    })
    state = apply(state, { changes: { from: 0, insert: 'Hi. ' } })
    const issues = state
      .field(claimField)
      .findings()
      .map(({ from, to }) => state.sliceDoc(from, to))
    expect(issues).toEqual(['Paris'])
  })

  it('clears everything', () => {
    const state = apply(start(claims), { effects: clearClaims.of(null) })
    expect(state.field(claimField).size).toBe(0)
  })
})

describe('the claim badge', () => {
  const info: ClaimInfo = {
    claimId: 'a',
    stage: 'voting',
    votes: 1,
    panel: 3,
    basis: null,
    attention: null,
    stale: false,
    text: 'A claim.',
    issues: [],
  }
  it('is equal to a badge showing the same thing, so unchanged claims are not redrawn', () => {
    expect(new ClaimBadge(info).eq(new ClaimBadge({ ...info, issues: [] }))).toBe(true)
    expect(new ClaimBadge(info).eq(new ClaimBadge({ ...info, votes: 2 }))).toBe(false)
    expect(new ClaimBadge(info).eq(new ClaimBadge({ ...info, stale: true }))).toBe(false)
    expect(stageLabel(info)).toBe('voting 1/3')
  })

  it('says in its title what stands behind the verdict', () => {
    // The badge draws itself into a page's document.
    vi.stubGlobal('document', parseHTML('<!doctype html><html><body></body></html>').document)
    const basis = 'missing context · Unsourced: the models’ judgement · decided by the judge · agreement 67%'
    const decided = { ...info, stage: 'misleading' as const, basis }
    expect(
      new ClaimBadge(decided).eq(new ClaimBadge({ ...decided, basis: 'agreement 100% · 2 sources' })),
    ).toBe(false)
    expect(new ClaimBadge(decided).toDOM().title).toBe(`misleading — ${basis}`)
    expect(new ClaimBadge({ ...decided, stale: true }).toDOM().title).toBe(
      `misleading (stale): the text changed after it was checked — ${basis}`,
    )
    vi.unstubAllGlobals()
  })
})

describe('a t1-only check', () => {
  it('badges only the claims with findings: a clean claim keeps its range but gets no badge', () => {
    const state = start([
      mark('a', 'The Eiffel Tower is 330 metres tall.', 'clean'),
      mark('b', 'Paris is in France.', 'issues'),
    ])
    const badges: string[] = []
    state.field(claimField).decorations.between(0, TEXT.length, (_from, _to, value) => {
      if (value.spec.widget instanceof ClaimBadge) badges.push(value.spec.widget.info.claimId)
    })
    expect(badges).toEqual(['b'])
    expect(textOf(state, 'a')).toBe('The Eiffel Tower is 330 metres tall.')
  })
})

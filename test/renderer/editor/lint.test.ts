import { EditorState } from '@codemirror/state'
import { describe, expect, it } from 'vitest'
import { messageParts } from '../../../src/shared/findings'
import { claimField, setClaims, updateClaims } from '../../../src/renderer/src/editor/claims'
import {
  claimFindings,
  ignoredRules,
  ignoreRule,
  writingSettings,
} from '../../../src/renderer/src/editor/lint'

const TEXT = 'Intro. The Eiffel Tower is 330 metres tal. The end.'

function withClaim(): EditorState {
  const from = TEXT.indexOf('The Eiffel')
  const to = TEXT.indexOf('tal.') + 4
  const tal = TEXT.indexOf('tal')
  const state = EditorState.create({ doc: TEXT, extensions: [claimField] })
  return state.update({
    effects: setClaims.of([
      {
        claimId: 'clm_1',
        from,
        to,
        stage: 'issues',
        votes: 0,
        panel: null,
        issues: [{ from: tal, to: tal + 3, message: 'Did you mean `tall`?', spelling: true }],
      },
    ]),
  }).state
}

describe('claimFindings', () => {
  it('shows the t1 findings of a claim as info marks where edits moved them', () => {
    const state = withClaim().update({ changes: { from: 0, insert: 'A new start. ' } }).state
    const [finding, ...rest] = claimFindings(state, new Set())
    expect(rest).toEqual([])
    expect(finding).toMatchObject({ severity: 'info', source: 't1 check', message: 'Did you mean `tall`?' })
    expect(state.sliceDoc(finding?.from, finding?.to)).toBe('tal')
  })

  it('keeps a finding on its words when the claim is edited before them', () => {
    const at = TEXT.indexOf('330')
    const state = withClaim().update({ changes: { from: at, insert: 'about ' } }).state
    const [finding] = claimFindings(state, new Set())
    expect(state.sliceDoc(finding?.from, finding?.to)).toBe('tal')
  })

  it('follows a report update that brings new findings', () => {
    const state = withClaim().update({
      effects: updateClaims.of([
        { claimId: 'clm_1', issues: [{ from: 4, to: 10, message: 'Capitalize it.', spelling: false }] },
      ]),
    }).state
    const [finding] = claimFindings(state, new Set())
    expect(state.sliceDoc(finding?.from, finding?.to)).toBe('Eiffel')
    expect(finding?.message).toBe('Capitalize it.')
  })

  it('leaves out a finding the live check shows at the same place with the same message', () => {
    const state = withClaim()
    const tal = TEXT.indexOf('tal')
    expect(claimFindings(state, new Set([`${tal}:${tal + 3}:Did you mean \`tall\`?`]))).toEqual([])
  })

  it('finds nothing without the claims field', () => {
    expect(claimFindings(EditorState.create({ doc: TEXT }), new Set())).toEqual([])
  })
})

describe('ignoredRules', () => {
  it('collects the rules ignored in the document, each once, and keeps them through edits', () => {
    let state = EditorState.create({ doc: TEXT, extensions: [ignoredRules] })
    state = state.update({
      effects: [ignoreRule.of('AnA'), ignoreRule.of('Spaces'), ignoreRule.of('AnA')],
    }).state
    state = state.update({ changes: { from: 0, insert: 'More. ' } }).state
    expect([...state.field(ignoredRules)]).toEqual(['AnA', 'Spaces'])
  })
})

describe('writingSettings', () => {
  it('reads the dialect and dictionary given, American English and no words by default', () => {
    const given = EditorState.create({
      extensions: writingSettings.of({ dialect: 'british', dictionary: ['Factdesk', 'Harper'] }),
    }).facet(writingSettings)
    expect(given.dialect).toBe('british')
    expect([...given.words]).toEqual(['Factdesk', 'Harper'])
    const none = EditorState.create({}).facet(writingSettings)
    expect(none).toMatchObject({ dialect: 'american' })
    expect(none.words.size).toBe(0)
  })
})

describe("Harper's messages", () => {
  it('cut where they quote words in backticks, the quoted parts as code', () => {
    expect(messageParts('Did you mean to spell `yaer` this way?')).toEqual([
      { text: 'Did you mean to spell ', code: false },
      { text: 'yaer', code: true },
      { text: ' this way?', code: false },
    ])
    expect(messageParts('`an` before a consonant')).toEqual([
      { text: 'an', code: true },
      { text: ' before a consonant', code: false },
    ])
    expect(messageParts('No quotes.')).toEqual([{ text: 'No quotes.', code: false }])
  })
})

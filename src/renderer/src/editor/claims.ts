import { invertedEffects } from '@codemirror/commands'
import {
  Prec,
  RangeSet,
  RangeValue,
  StateEffect,
  StateField,
  type ChangeSet,
  type Extension,
  type Range,
} from '@codemirror/state'
import { Decoration, EditorView, WidgetType, type DecorationSet } from '@codemirror/view'
import { plainMessage } from '../../../shared/findings'
import { VOCABULARY, type ClaimStage } from '../../../shared/vocabulary'

export type { ClaimStage }

/// A spelling or grammar finding inside a claim, underlined like the live check's (`spelling`: a word the
/// checker does not know, in red; else grammar, in blue).
export interface IssueMark {
  from: number
  to: number
  message: string
  spelling: boolean
}

/// What the editor shows of one claim. `votes` of `panel` (panel null when not known).
export interface ClaimMark {
  claimId: string
  from: number
  to: number
  stage: ClaimStage
  votes: number
  panel: number | null
  /// Spelling and grammar findings inside the claim, as document offsets.
  issues: IssueMark[]
  /// What stands behind the verdict (sourced or the models' judgement, agreement, sources), for the badge's
  /// title; none before a verdict.
  basis?: string | null
  /// Why the claim needs the editor's attention (a tier found it refuted or misleading, whatever the verdict
  /// shown), or null.
  attention?: string | null
  /// The text the claim was checked in, when it may differ from the range's (a claim placed again in a text
  /// edited since): the claim then shows stale. By default the range's text.
  checkedText?: string
}

/// A change to a claim already shown: its new stage and counts; the range stays where edits moved it.
export type ClaimDelta = Partial<Pick<ClaimMark, 'stage' | 'votes' | 'panel' | 'basis' | 'attention'>> & {
  claimId: string
  /// Findings with offsets relative to the claim's start, placed wherever the claim now is.
  issues?: IssueMark[]
}

/// Replaces every claim (an estimate, a submitted check, a loaded report). Claims are shown submitted unless
/// `stage` is `estimated`; an edit inside a submitted claim marks it stale.
export const setClaims = StateEffect.define<ClaimMark[]>()
/// Applies report deltas, any number in one transaction.
export const updateClaims = StateEffect.define<ClaimDelta[]>()
/// Removes every claim.
export const clearClaims = StateEffect.define<null>()

/// A claim at its range, and what it shows.
export interface PlacedClaim {
  from: number
  to: number
  info: ClaimInfo
}

/// Claims put back where they were: what undo brings back of claims an edit deleted whole.
const restoreClaims = StateEffect.define<PlacedClaim[]>({
  map: (claims, mapping) =>
    claims.map((claim) => ({
      ...claim,
      from: mapping.mapPos(claim.from, 1),
      to: mapping.mapPos(claim.to, -1),
    })),
})

/// A claim as held by the field: the mark plus whether its text was edited after submission.
export interface ClaimInfo {
  claimId: string
  stage: ClaimStage
  votes: number
  panel: number | null
  basis: string | null
  /// Why the claim needs attention, or null.
  attention: string | null
  stale: boolean
  /// The claim's text when it was shown: a claim is stale while its range holds other text.
  text: string
  /// Spelling and grammar findings, relative to the claim's start.
  issues: IssueMark[]
}

/// Words for a stage, as the badge and screen readers say it.
export function stageLabel(info: Pick<ClaimInfo, 'stage' | 'votes' | 'panel' | 'stale'>): string {
  const { short } = VOCABULARY[info.stage]
  const base =
    info.stage !== 'voting' ? short : `${short} ${info.votes}${info.panel === null ? '' : `/${info.panel}`}`
  return info.stale ? `${base} (stale)` : base
}

/// The badge at the end of a claim: stage or verdict, icon and an accessible label. Equal badges are kept,
/// so an update that leaves a claim as it was redraws nothing.
export class ClaimBadge extends WidgetType {
  constructor(readonly info: ClaimInfo) {
    super()
  }

  override eq(other: ClaimBadge): boolean {
    const a = this.info
    const b = other.info
    return (
      a.claimId === b.claimId &&
      a.stage === b.stage &&
      a.votes === b.votes &&
      a.panel === b.panel &&
      a.basis === b.basis &&
      a.attention === b.attention &&
      a.stale === b.stale
    )
  }

  toDOM(): HTMLElement {
    const badge = document.createElement('button')
    badge.type = 'button'
    const { attention } = this.info
    badge.className =
      `fd-badge fd-stage-${this.info.stage}${this.info.stale ? ' fd-stale' : ''}` +
      (attention ? ' fd-attention' : '')
    badge.dataset.claimId = this.info.claimId
    const label = stageLabel(this.info)
    badge.setAttribute(
      'aria-label',
      `Claim “${excerpt(this.info.text)}”: ${label}${attention ? ', needs attention' : ''}. Open details`,
    )
    // One tab stop for the document, not one per claim: F8 walks the claims and Ctrl+Shift+K opens one.
    badge.tabIndex = -1
    const title = this.info.stale ? `${label}: the text changed after it was checked` : label
    badge.title = [title, this.info.basis, attention && `Needs attention: ${attention}`]
      .filter(Boolean)
      .join(' — ')
    const { icon } = VOCABULARY[this.info.stage]
    if (icon) {
      const glyph = document.createElement('span')
      glyph.className = 'fd-badge-icon'
      glyph.setAttribute('aria-hidden', 'true')
      glyph.textContent = icon
      badge.append(glyph)
    }
    // A stale badge shows its verdict, dashed and faded: "(stale)" is in its name and title, and would not fit
    // in the badge's fixed width.
    const text = document.createElement('span')
    text.textContent = this.info.stale ? stageLabel({ ...this.info, stale: false }) : label
    badge.append(text)
    return badge
  }

  override ignoreEvent(): boolean {
    return false
  }
}

/// The room a badge takes, held at the end of an estimated claim (marked "to check" by the style sheet): the
/// badge that replaces it once the check is submitted (and every later stage, of one fixed width) moves no
/// text.
class BadgeSpace extends WidgetType {
  override eq(): boolean {
    return true
  }

  toDOM(): HTMLElement {
    const space = document.createElement('span')
    space.className = 'fd-badge-space'
    space.setAttribute('aria-hidden', 'true')
    return space
  }
}

/// One claim in the field: what it shows, and the decorations drawn for it, kept by identity so that a change to
/// the claim replaces exactly them. Its range maps through edits as its mark does (growing at neither end, gone
/// once empty).
class ClaimValue extends RangeValue {
  override startSide = 1
  override endSide = -1

  constructor(
    readonly info: ClaimInfo,
    readonly drawn: ReadonlySet<Decoration>,
    /// The spelling and grammar marks among `drawn`, and the finding each shows.
    readonly findings: ReadonlyMap<Decoration, IssueMark>,
  ) {
    super()
  }
}

/// A claim drawn at `from`–`to`: its value and its decorations.
function draw(
  info: ClaimInfo,
  from: number,
  to: number,
): { claim: Range<ClaimValue>; decorations: Range<Decoration>[] } {
  const decorations: Range<Decoration>[] = []
  const findings = new Map<Decoration, IssueMark>()
  if (to > from) {
    decorations.push(
      Decoration.mark({
        class: `fd-claim fd-stage-${info.stage}${info.stale ? ' fd-stale' : ''}`,
        attributes: { 'data-claim-id': info.claimId },
        inclusiveStart: false,
        inclusiveEnd: false,
      }).range(from, to),
    )
  }
  for (const issue of info.issues) {
    const start = Math.min(Math.max(from + issue.from, from), to)
    const end = Math.min(from + issue.to, to)
    if (end > start) {
      const mark = Decoration.mark({
        class: issue.spelling ? 'fd-issue' : 'fd-issue fd-issue-grammar',
        attributes: { title: plainMessage(issue.message) },
      })
      findings.set(mark, issue)
      decorations.push(mark.range(start, end))
    }
  }
  // A claim the spelling check found clean gets no badge: a writer checking spelling does not want a pill after
  // every sentence (its detail still opens from its text).
  if (info.stage !== 'clean') {
    // Side -1: text typed right after the claim goes after its badge, and the badge stays at the claim's end.
    const widget = info.stage === 'estimated' ? new BadgeSpace() : new ClaimBadge(info)
    decorations.push(Decoration.widget({ widget, side: -1 }).range(to))
  }
  const drawn = new Set(decorations.map((range) => range.value))
  return { claim: new ClaimValue(info, drawn, findings).range(from, to), decorations }
}

/// The claims field's value, as @codemirror/lint's LintState holds diagnostics: every claim's range and state,
/// and the decorations drawn from them (changed only for the claims that change: a check's updates replace a
/// few claims of thousands on every frame).
export class ClaimsState {
  static readonly none = new ClaimsState(RangeSet.empty, Decoration.none)

  private constructor(
    readonly claims: RangeSet<ClaimValue>,
    readonly decorations: DecorationSet,
  ) {}

  /// Every claim placed anew.
  static of(placed: readonly PlacedClaim[]): ClaimsState {
    const drawn = placed.map(({ from, to, info }) => draw(info, from, to))
    return new ClaimsState(
      RangeSet.of(
        drawn.map((each) => each.claim),
        true,
      ),
      Decoration.set(
        drawn.flatMap((each) => each.decorations),
        true,
      ),
    )
  }

  get size(): number {
    return this.claims.size
  }

  /// Both through an edit.
  map(changes: ChangeSet): ClaimsState {
    return new ClaimsState(this.claims.map(changes), this.decorations.map(changes))
  }

  /// The state and range of every claim, in the text's order; an empty claim by its position.
  placed(): PlacedClaim[] {
    const found: PlacedClaim[] = []
    this.claims.between(0, Number.MAX_SAFE_INTEGER, (from, to, { info }) => {
      found.push({ from, to, info })
    })
    return found
  }

  /// The named claim's range and state.
  find(claimId: string): PlacedClaim | undefined {
    let found: PlacedClaim | undefined
    this.claims.between(0, Number.MAX_SAFE_INTEGER, (from, to, value) => {
      if (value.info.claimId !== claimId) return
      found = { from, to, info: value.info }
      return false
    })
    return found
  }

  /// The spelling and grammar findings inside claims, where edits moved them.
  findings(): { from: number; to: number; issue: IssueMark }[] {
    const found: { from: number; to: number; issue: IssueMark }[] = []
    this.claims.between(0, Number.MAX_SAFE_INTEGER, (from, to, claim) => {
      found.push(...this.findingsOf({ from, to, value: claim }))
    })
    return found.sort((a, b) => a.from - b.from)
  }

  /// The named claims changed by `change`, every other one (and its DOM) left as it was. A claim's findings
  /// stay where edits moved them.
  change(ids: ReadonlySet<string>, change: (info: ClaimInfo) => ClaimInfo): ClaimsState {
    const found = this.valuesOf(ids)
    return this.replace(
      found,
      found.map((claim) => {
        const issues = this.findingsOf(claim).map(({ from, to, issue }) => ({
          ...issue,
          from: from - claim.from,
          to: to - claim.from,
        }))
        return { from: claim.from, to: claim.to, info: change({ ...claim.value.info, issues }) }
      }),
    )
  }

  private findingsOf({ from, to, value }: PlacedValue): { from: number; to: number; issue: IssueMark }[] {
    const found: { from: number; to: number; issue: IssueMark }[] = []
    if (value.findings.size === 0) return found
    this.decorations.between(from, to, (start, end, decoration) => {
      const issue = value.findings.get(decoration)
      if (issue) found.push({ from: start, to: end, issue })
    })
    return found
  }

  /// Every claim but the named ones.
  without(ids: ReadonlySet<string>): ClaimsState {
    return this.replace(this.valuesOf(ids), [])
  }

  /// `gone` (claims of this state, at their ranges) taken out and `placed` added. Only the stretch they cover is
  /// looked at.
  replace(gone: readonly PlacedValue[], placed: readonly PlacedClaim[]): ClaimsState {
    if (placed.length === 0 && gone.length === 0) return this
    const drawn = placed.map(({ from, to, info }) => draw(info, from, to))
    const goneValues = new Set(gone.map((each) => each.value))
    const doomed = new Set(gone.flatMap((each) => [...each.value.drawn]))
    const ranges = [...placed, ...gone]
    const from = ranges.reduce((least, claim) => Math.min(least, claim.from), Number.MAX_SAFE_INTEGER)
    const to = ranges.reduce((most, claim) => Math.max(most, claim.to), 0)
    return new ClaimsState(
      this.claims.update({
        add: drawn.map((each) => each.claim),
        sort: true,
        filterFrom: from,
        filterTo: to,
        filter: (_from, _to, value) => !goneValues.has(value),
      }),
      this.decorations.update({
        add: drawn.flatMap((each) => each.decorations),
        sort: true,
        filterFrom: from,
        filterTo: to,
        filter: (_from, _to, value) => !doomed.has(value),
      }),
    )
  }

  /// The named claims with their ranges.
  valuesOf(ids: ReadonlySet<string>): PlacedValue[] {
    const found: PlacedValue[] = []
    if (ids.size === 0) return found
    this.claims.between(0, Number.MAX_SAFE_INTEGER, (from, to, value) => {
      if (ids.has(value.info.claimId)) found.push({ from, to, value })
    })
    return found
  }
}

/// A claim of the field at its range.
interface PlacedValue {
  from: number
  to: number
  value: ClaimValue
}

const toInfo = (mark: ClaimMark, text: string): ClaimInfo => ({
  claimId: mark.claimId,
  text: mark.checkedText ?? text,
  stage: mark.stage,
  votes: mark.votes,
  panel: mark.panel,
  basis: mark.basis ?? null,
  attention: mark.attention ?? null,
  stale: mark.checkedText !== undefined && mark.checkedText !== text,
  issues: mark.issues.map((issue) => ({
    from: issue.from - mark.from,
    to: issue.to - mark.from,
    message: issue.message,
    spelling: issue.spelling,
  })),
})

/// The current range and state of one claim: what a view of one claim reads on every keystroke (the claim
/// panel's correction), without a map of them all.
export const claimRange = (claims: ClaimsState, claimId: string): PlacedClaim | undefined =>
  claims.find(claimId)

/// The current range and state of every claim.
export const claimRanges = (claims: ClaimsState): Map<string, PlacedClaim> =>
  new Map(claims.placed().map((claim) => [claim.info.claimId, claim]))

/// The claims of `claims` (of the document before `changes`) whose whole text `changes` delete or replace, with
/// their ranges before. Only claims at a change are looked at.
function deletedClaims(claims: ClaimsState, changes: ChangeSet): PlacedValue[] {
  const deleted = new Map<string, PlacedValue>()
  changes.iterChangedRanges((fromA, toA) => {
    claims.claims.between(fromA, toA, (from, to, value) => {
      if (from >= to || from < fromA || to > toA) return
      deleted.set(value.info.claimId, { from, to, value })
    })
  })
  return [...deleted.values()]
}

/// Undo brings back the claims an edit deleted whole, with their verdicts.
const undoDeletedClaims = invertedEffects.of((transaction) => {
  if (!transaction.docChanged) return []
  const deleted = deletedClaims(transaction.startState.field(claimField), transaction.changes)
  return deleted.length > 0
    ? [restoreClaims.of(deleted.map(({ from, to, value }) => ({ from, to, info: value.info })))]
    : []
})

/// The claims, mapped through every edit and changed only by the effects above. A claim whose whole text an edit
/// deletes goes with it (badge included); undoing the edit brings it back.
export const claimField = StateField.define<ClaimsState>({
  create: () => ClaimsState.none,
  update(claims, transaction) {
    let next = claims
    if (transaction.docChanged && claims.size > 0) {
      const { changes } = transaction
      next = claims.map(changes)
      const gone = deletedClaims(claims, changes).map(({ from, to, value }) => ({
        from: changes.mapPos(from, -1),
        to: changes.mapPos(to, 1),
        value,
      }))
      next = next.replace(gone, [])
      // An edit inside a submitted claim makes its verdict refer to text no longer there; undoing it makes the
      // verdict hold again. Only claims next to a change are looked at.
      const doc = transaction.state.doc
      const flips = new Set<string>()
      changes.iterChangedRanges((_fromA, _toA, fromB, toB) => {
        next.claims.between(fromB, toB, (from, to, { info }) => {
          if (info.stage !== 'estimated' && (doc.sliceString(from, to) !== info.text) !== info.stale)
            flips.add(info.claimId)
        })
      })
      if (flips.size > 0) next = next.change(flips, (info) => ({ ...info, stale: !info.stale }))
    }
    for (const effect of transaction.effects) {
      if (effect.is(clearClaims)) next = ClaimsState.none
      else if (effect.is(restoreClaims)) {
        const doc = transaction.state.doc
        const back = effect.value.filter((claim) => claim.from < claim.to && claim.to <= doc.length)
        const ids = new Set(back.map((claim) => claim.info.claimId))
        next = next.replace(
          next.valuesOf(ids),
          back.map(({ from, to, info }) => ({
            from,
            to,
            info: { ...info, stale: doc.sliceString(from, to) !== info.text },
          })),
        )
      } else if (effect.is(setClaims)) {
        const limit = transaction.state.doc.length
        next = ClaimsState.of(
          effect.value
            .filter((mark) => mark.from >= 0 && mark.to <= limit && mark.from <= mark.to)
            .map((mark) => ({
              from: mark.from,
              to: mark.to,
              info: toInfo(mark, transaction.state.doc.sliceString(mark.from, mark.to)),
            })),
        )
      } else if (effect.is(updateClaims)) {
        const deltas = new Map(effect.value.map((delta) => [delta.claimId, delta]))
        next = next.change(new Set(deltas.keys()), (info) => {
          const delta = deltas.get(info.claimId)
          if (!delta) return info
          return {
            ...info,
            stage: delta.stage ?? info.stage,
            votes: delta.votes ?? info.votes,
            panel: delta.panel === undefined ? info.panel : delta.panel,
            basis: delta.basis === undefined ? info.basis : delta.basis,
            attention: delta.attention === undefined ? info.attention : delta.attention,
            issues: delta.issues ?? info.issues,
          }
        })
      }
    }
    return next
  },
  provide: (field) => EditorView.decorations.from(field, (claims) => claims.decorations),
})

/// Which claim, if any, covers a document position.
export function claimAt(view: EditorView, pos: number): string | null {
  let found: string | null = null
  view.state.field(claimField).claims.between(pos, pos, (from, to, { info }) => {
    if (from <= pos && pos <= to && from < to) found = info.claimId
  })
  return found
}

/// The claims extension; `onOpen` hears the claim whose badge was clicked, or activated by a screen reader
/// (a click without a mousedown) or by Enter or Space once focused, and the claim whose text was clicked without
/// selecting (the cursor goes there as usual). Ahead of the editor's keys, so that Enter on a badge opens it
/// instead of breaking the line.
export function claims(onOpen: (claimId: string) => void): Extension {
  const open = (event: Event): boolean => {
    const badge = (event.target as HTMLElement | null)?.closest<HTMLElement>('.fd-badge')
    if (!badge?.dataset.claimId) return false
    event.preventDefault()
    onOpen(badge.dataset.claimId)
    return true
  }
  const openText = (event: MouseEvent, view: EditorView): boolean => {
    if (open(event)) return true
    const text = (event.target as HTMLElement | null)?.closest<HTMLElement>(
      '.fd-claim:not(.fd-stage-estimated)',
    )
    if (!text?.dataset.claimId || !view.state.selection.main.empty || event.detail > 1) return false
    onOpen(text.dataset.claimId)
    return false
  }
  return [
    claimField,
    undoDeletedClaims,
    Prec.highest(
      EditorView.domEventHandlers({
        mousedown: open,
        click: openText,
        keydown: (event) => (event.key === 'Enter' || event.key === ' ') && open(event),
      }),
    ),
  ]
}

/// A claim's first words, for its badge's name.
const EXCERPT_WORDS = 8
function excerpt(text: string): string {
  const words = text.trim().split(/\s+/)
  return words.length > EXCERPT_WORDS ? `${words.slice(0, EXCERPT_WORDS).join(' ')}…` : words.join(' ')
}

/// True once the stage cannot change any more.
export const hasSettled = (stage: ClaimStage): boolean => VOCABULARY[stage].ended

import { invertedEffects } from '@codemirror/commands'
import { Prec, StateEffect, StateField, type ChangeSet, type Extension, type Range } from '@codemirror/state'
import { Decoration, EditorView, WidgetType, type DecorationSet } from '@codemirror/view'

/// Where a claim stands: quoted by an estimate, waiting for its check, voted on, being judged, or decided.
export type ClaimStage =
  | 'estimated'
  | 'waiting'
  | 'voting'
  | 'judging'
  | 'supported'
  | 'refuted'
  | 'misleading'
  | 'unverifiable'
  | 'clean'
  | 'issues'
  | 'failed'
  | 'unchecked'

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
  /// The text the claim was checked in, when it may differ from the range's (a claim placed again in a text
  /// edited since): the claim then shows stale. By default the range's text.
  checkedText?: string
}

/// A change to a claim already shown: its new stage and counts; the range stays where edits moved it.
export type ClaimDelta = Partial<Pick<ClaimMark, 'stage' | 'votes' | 'panel' | 'basis'>> & {
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

/// A claim as its decorations hold it: its range and what it shows.
interface PlacedClaim {
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
  stale: boolean
  /// The claim's text when it was shown: a claim is stale while its range holds other text.
  text: string
  /// Spelling and grammar findings, relative to the claim's start.
  issues: IssueMark[]
}

const ENDED: ReadonlySet<ClaimStage> = new Set([
  'supported',
  'refuted',
  'misleading',
  'unverifiable',
  'clean',
  'issues',
  'failed',
  'unchecked',
])

/// Words for a stage, as the badge and screen readers say it.
export function stageLabel(info: Pick<ClaimInfo, 'stage' | 'votes' | 'panel' | 'stale'>): string {
  const base = ((): string => {
    switch (info.stage) {
      case 'estimated':
        return 'claim'
      case 'waiting':
        return 'waiting'
      case 'voting':
        return info.panel === null ? `voting ${info.votes}` : `voting ${info.votes}/${info.panel}`
      case 'judging':
        return 'deciding'
      case 'clean':
        return 'no issues'
      case 'unchecked':
        return 'not checked'
      default:
        return info.stage
    }
  })()
  return info.stale ? `${base} (stale)` : base
}

const ICONS: Partial<Record<ClaimStage, string>> = {
  waiting: '…',
  voting: '◐',
  judging: '⚖',
  supported: '✓',
  refuted: '✗',
  misleading: '!',
  unverifiable: '?',
  clean: '✓',
  issues: '✎',
  failed: '⚠',
  unchecked: '–',
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
      a.stale === b.stale
    )
  }

  toDOM(): HTMLElement {
    const badge = document.createElement('button')
    badge.type = 'button'
    badge.className = `fd-badge fd-stage-${this.info.stage}${this.info.stale ? ' fd-stale' : ''}`
    badge.dataset.claimId = this.info.claimId
    const label = stageLabel(this.info)
    badge.setAttribute('aria-label', `Claim “${excerpt(this.info.text)}”: ${label}. Open details`)
    // One tab stop for the document, not one per claim: F8 walks the claims and Ctrl+Shift+K opens one.
    badge.tabIndex = -1
    const title = this.info.stale ? `${label}: the text changed after it was checked` : label
    badge.title = this.info.basis ? `${title} — ${this.info.basis}` : title
    const icon = ICONS[this.info.stage]
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

function claimDecorations(info: ClaimInfo, from: number, to: number): Range<Decoration>[] {
  const ranges: Range<Decoration>[] = []
  if (to > from) {
    ranges.push(
      Decoration.mark({
        class: `fd-claim fd-stage-${info.stage}${info.stale ? ' fd-stale' : ''}`,
        attributes: { 'data-claim-id': info.claimId },
        claim: info,
        inclusiveStart: false,
        inclusiveEnd: false,
      }).range(from, to),
    )
  }
  for (const issue of info.issues) {
    const start = Math.min(Math.max(from + issue.from, from), to)
    const end = Math.min(from + issue.to, to)
    if (end > start) {
      ranges.push(
        Decoration.mark({
          class: issue.spelling ? 'fd-issue' : 'fd-issue fd-issue-grammar',
          attributes: { title: issue.message },
          claimIssue: info.claimId,
        }).range(start, end),
      )
    }
  }
  // A claim the spelling check found clean gets no badge: a writer checking spelling does not want a pill after
  // every sentence (its detail still opens from its text).
  if (info.stage === 'clean') return ranges
  // Side -1: text typed right after the claim goes after its badge, and the badge stays at the claim's end.
  const widget = info.stage === 'estimated' ? new BadgeSpace() : new ClaimBadge(info)
  ranges.push(Decoration.widget({ widget, side: -1, claim: info }).range(to))
  return ranges
}

const toInfo = (mark: ClaimMark, text: string): ClaimInfo => ({
  claimId: mark.claimId,
  text: mark.checkedText ?? text,
  stage: mark.stage,
  votes: mark.votes,
  panel: mark.panel,
  basis: mark.basis ?? null,
  stale: mark.checkedText !== undefined && mark.checkedText !== text,
  issues: mark.issues.map((issue) => ({
    from: issue.from - mark.from,
    to: issue.to - mark.from,
    message: issue.message,
    spelling: issue.spelling,
  })),
})

/// The current range and state of one claim, read as `claimRanges` does but stopping at its mark: what a view
/// of one claim reads on every keystroke (the claim panel's correction), without a map of them all.
export function claimRange(
  decorations: DecorationSet,
  claimId: string,
): { from: number; to: number; info: ClaimInfo } | undefined {
  let found: { from: number; to: number; info: ClaimInfo } | undefined
  decorations.between(0, Number.MAX_SAFE_INTEGER, (from, to, value) => {
    const info = value.spec.claim as ClaimInfo | undefined
    if (info?.claimId !== claimId) return
    found = { from, to, info }
    if (from < to) return false
  })
  return found
}

/// The current range and state of every claim in a set, read from its mark (or badge, for an empty range).
export function claimRanges(
  decorations: DecorationSet,
): Map<string, { from: number; to: number; info: ClaimInfo }> {
  const found = new Map<string, { from: number; to: number; info: ClaimInfo }>()
  decorations.between(0, Number.MAX_SAFE_INTEGER, (from, to, value) => {
    const info = value.spec.claim as ClaimInfo | undefined
    if (!info) return
    const seen = found.get(info.claimId)
    if (!seen) found.set(info.claimId, { from, to, info })
    else if (from < to) found.set(info.claimId, { from, to, info })
  })
  return found
}

/// The claims of `decorations` (of the document before `changes`) whose whole text `changes` delete or
/// replace, with their ranges before. Only claims at a change are looked at.
function deletedClaims(decorations: DecorationSet, changes: ChangeSet): PlacedClaim[] {
  const deleted = new Map<string, PlacedClaim>()
  changes.iterChangedRanges((fromA, toA) => {
    decorations.between(fromA, toA, (from, to, value) => {
      const info = value.spec.claim as ClaimInfo | undefined
      if (!info || from >= to || from < fromA || to > toA) return
      deleted.set(info.claimId, { from, to, info })
    })
  })
  return [...deleted.values()]
}

/// Undo brings back the claims an edit deleted whole, with their verdicts.
const undoDeletedClaims = invertedEffects.of((transaction) => {
  if (!transaction.docChanged) return []
  const deleted = deletedClaims(transaction.startState.field(claimField), transaction.changes)
  return deleted.length > 0 ? [restoreClaims.of(deleted)] : []
})

/// The claims: decorations mapped through every edit and changed only by the effects above. A claim whose
/// whole text an edit deletes goes with it (badge included); undoing the edit brings it back.
export const claimField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(decorations, transaction) {
    let next = decorations.map(transaction.changes)
    if (transaction.docChanged && decorations.size > 0) {
      const gone = new Set(deletedClaims(decorations, transaction.changes).map((claim) => claim.info.claimId))
      if (gone.size > 0) next = without(next, gone)
    }
    // An edit inside a submitted claim makes its verdict refer to text no longer there; undoing it makes the
    // verdict hold again. Only claims next to a change are looked at.
    if (transaction.docChanged && next.size > 0) {
      const doc = transaction.state.doc
      const near = new Map<string, { from: number; to: number; info: ClaimInfo }>()
      transaction.changes.iterChangedRanges((_fromA, _toA, fromB, toB) => {
        next.between(fromB, toB, (from, to, value) => {
          const info = value.spec.claim as ClaimInfo | undefined
          if (!info || info.stage === 'estimated') return
          // The mark's range when there is one; the badge alone once the whole claim was deleted.
          if (!near.has(info.claimId) || from < to) near.set(info.claimId, { from, to, info })
        })
      })
      const flips = new Set<string>()
      for (const { from, to, info } of near.values()) {
        if ((doc.sliceString(from, to) !== info.text) !== info.stale) flips.add(info.claimId)
      }
      if (flips.size > 0) next = rebuild(next, flips, (info) => ({ ...info, stale: !info.stale }))
    }
    for (const effect of transaction.effects) {
      if (effect.is(clearClaims)) next = Decoration.none
      else if (effect.is(restoreClaims)) {
        const doc = transaction.state.doc
        const back = effect.value.filter((claim) => claim.from < claim.to && claim.to <= doc.length)
        next = without(next, new Set(back.map((claim) => claim.info.claimId))).update({
          add: back.flatMap(({ from, to, info }) =>
            claimDecorations({ ...info, stale: doc.sliceString(from, to) !== info.text }, from, to),
          ),
          sort: true,
        })
      } else if (effect.is(setClaims)) {
        const limit = transaction.state.doc.length
        next = Decoration.set(
          effect.value
            .filter((mark) => mark.from >= 0 && mark.to <= limit && mark.from <= mark.to)
            .flatMap((mark) =>
              claimDecorations(
                toInfo(mark, transaction.state.doc.sliceString(mark.from, mark.to)),
                mark.from,
                mark.to,
              ),
            ),
          true,
        )
      } else if (effect.is(updateClaims)) {
        const deltas = new Map(effect.value.map((delta) => [delta.claimId, delta]))
        next = rebuild(next, new Set(deltas.keys()), (info) => {
          const delta = deltas.get(info.claimId)
          if (!delta) return info
          return {
            ...info,
            stage: delta.stage ?? info.stage,
            votes: delta.votes ?? info.votes,
            panel: delta.panel === undefined ? info.panel : delta.panel,
            basis: delta.basis === undefined ? info.basis : delta.basis,
            issues: delta.issues ?? info.issues,
          }
        })
      }
    }
    return next
  },
  provide: (field) => EditorView.decorations.from(field),
})

// The decorations of every claim but the named ones, which lie between `from` and `to` (only that stretch is
// looked at: a check's updates replace a few claims of thousands on every frame).
function without(
  decorations: DecorationSet,
  ids: ReadonlySet<string>,
  from = 0,
  to = Number.MAX_SAFE_INTEGER,
): DecorationSet {
  return decorations.update({
    filterFrom: from,
    filterTo: to,
    filter: (_from, _to, value) => {
      const info = value.spec.claim as ClaimInfo | undefined
      const issueOf = value.spec.claimIssue as string | undefined
      return !(info && ids.has(info.claimId)) && !(issueOf !== undefined && ids.has(issueOf))
    },
  })
}

// Replaces the decorations of the named claims only, leaving every other one (and its DOM) as it was.
function rebuild(
  decorations: DecorationSet,
  ids: ReadonlySet<string>,
  change: (info: ClaimInfo) => ClaimInfo,
): DecorationSet {
  const current = new Map<string, { from: number; to: number; info: ClaimInfo }>()
  decorations.between(0, Number.MAX_SAFE_INTEGER, (from, to, value) => {
    const info = value.spec.claim as ClaimInfo | undefined
    if (!info || !ids.has(info.claimId)) return
    const seen = current.get(info.claimId)
    if (!seen || from < to) current.set(info.claimId, { from, to, info })
  })
  if (current.size === 0) return decorations
  const found = [...current.values()]
  const add = found.flatMap(({ from, to, info }) => claimDecorations(change(info), from, to))
  const from = Math.min(...found.map((claim) => claim.from))
  const to = Math.max(...found.map((claim) => claim.to))
  return without(decorations, new Set(current.keys()), from, to).update({ add, sort: true })
}

/// Which claim, if any, covers a document position.
export function claimAt(view: EditorView, pos: number): string | null {
  let found: string | null = null
  view.state.field(claimField).between(pos, pos, (from, to, value) => {
    const info = value.spec.claim as ClaimInfo | undefined
    if (info && from <= pos && pos <= to && from < to) found = info.claimId
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
export const hasSettled = (stage: ClaimStage): boolean => ENDED.has(stage)

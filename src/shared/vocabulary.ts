import type { Check, CheckStatus, Evaluation, Verdict, VerdictDetail } from './schemas'

/// A colour of the vocabulary on the light page and on the dark one, as `#rrggbb`. Each is a text colour: it
/// keeps 4.5:1 on the page's paper, bars and raised surfaces in its scheme (test/renderer/contrast.test.ts).
export interface Colour {
  light: string
  dark: string
}

/// One row of the vocabulary: how a claim's stage or verdict is said and shown everywhere.
export interface Term {
  /// Its name in the exported reports, e.g. "Supported", "Check by hand".
  label: string
  /// Its name on a badge, in the side panel and to screen readers, e.g. "supported", "deciding".
  short: string
  /// The badge's glyph, or null for a stage without a badge.
  icon: string | null
  colour: Colour
  /// Whether a claim with it needs the editor's attention (a "Needs attention" item).
  attention: boolean
  /// Whether a claim with it can change no more: a verdict, or an end without one.
  ended: boolean
  /// The kinds a verdict may have (`Consensus.detail`); none for the others.
  details: readonly VerdictDetail[]
  /// Only the exports say it: the editor shows the same claim with its verdict and the attention ring.
  exportOnly?: true
}

// The colours the rows share: a stage and the verdict it looks like are told apart by their words and icon.
const GREY: Colour = { light: '#646a72', dark: '#9aa0a8' }
const AMBER: Colour = { light: '#8f5a0f', dark: '#e0a84a' }
const GREEN: Colour = { light: '#1e7f4f', dark: '#4cc38a' }
const RED: Colour = { light: '#c0392b', dark: '#ff7b6e' }
const ORANGE: Colour = { light: '#a84f05', dark: '#f39a4a' }
const PLUM: Colour = { light: '#a3326e', dark: '#f08cc0' }
const VIOLET: Colour = { light: '#6b5bb5', dark: '#a99cf0' }

/// A stage a claim passes through: nothing to attend to yet, and no kinds.
const stage = (label: string, icon: string | null, colour: Colour) =>
  ({ label, short: label.toLowerCase(), icon, colour, attention: false, ended: false, details: [] }) as const

/// Every stage a claim goes through and every verdict it ends with, in the order the reports count them: the
/// one place their words, glyphs and colours are written. The page's style sheet of them
/// (`renderer/src/stageStyles.ts`), the editor's badges and the HTML, PDF, Word and Markdown exports are
/// derived from it.
export const VOCABULARY = {
  estimated: stage('Claim', null, GREY),
  waiting: stage('Waiting', '…', GREY),
  voting: stage('Voting', '◐', AMBER),
  judging: stage('Deciding', '⚖', AMBER),
  supported: {
    label: 'Supported',
    short: 'supported',
    icon: '✓',
    colour: GREEN,
    attention: false,
    ended: true,
    details: [],
  },
  refuted: {
    label: 'Refuted',
    short: 'refuted',
    icon: '✗',
    colour: RED,
    attention: true,
    ended: true,
    details: [],
  },
  misleading: {
    label: 'Misleading',
    short: 'misleading',
    icon: '!',
    colour: ORANGE,
    attention: true,
    ended: true,
    details: ['partly_true', 'missing_context'],
  },
  disputed: {
    label: 'Check by hand',
    short: 'check by hand',
    icon: '⚑',
    colour: PLUM,
    attention: true,
    ended: true,
    details: [],
    exportOnly: true,
  },
  unverifiable: {
    label: 'Unverifiable',
    short: 'unverifiable',
    icon: '?',
    colour: VIOLET,
    attention: false,
    ended: true,
    details: ['not_checkable', 'no_evidence'],
  },
  issues: {
    label: 'Spelling or grammar issues',
    short: 'issues',
    icon: '✎',
    colour: ORANGE,
    attention: false,
    ended: true,
    details: [],
  },
  clean: {
    label: 'No issues',
    short: 'no issues',
    icon: '✓',
    colour: GREEN,
    attention: false,
    ended: true,
    details: [],
  },
  failed: {
    label: 'Failed',
    short: 'failed',
    icon: '⚠',
    colour: RED,
    attention: true,
    ended: true,
    details: [],
  },
  unchecked: {
    label: 'Not checked',
    short: 'not checked',
    icon: '–',
    colour: GREY,
    attention: false,
    ended: true,
    details: [],
  },
} as const satisfies Record<string, Term> & Record<Evaluation['verdict'], Term>

type Vocabulary = typeof VOCABULARY

/// A word of the vocabulary: a stage or a verdict.
export type TermName = keyof Vocabulary

/// Where a claim stands in the editor: quoted by an estimate, waiting for its check, voted on, being judged, or
/// decided.
export type ClaimStage = { [K in TermName]: Vocabulary[K] extends { exportOnly: true } ? never : K }[TermName]

/// What an exported report says of a claim: its headline verdict, why there is none, or `disputed` when a tier
/// found it refuted or misleading but the headline verdict is unverifiable (no source confirmed the finding).
export type ExportVerdict = { [K in TermName]: Vocabulary[K]['ended'] extends true ? K : never }[TermName]

/// The model verdicts that say a claim, as written, is wrong.
export type Problem = { [K in Verdict]: Vocabulary[K]['attention'] extends true ? K : never }[Verdict]

/// Every word of the vocabulary, in the table's order.
export const TERMS = Object.keys(VOCABULARY) as TermName[]

/// The verdicts in the order the reports count them.
export const EXPORT_VERDICTS = TERMS.filter((name): name is ExportVerdict => VOCABULARY[name].ended)

/// Whether a model verdict says the claim is wrong (refuted, misleading).
export const isProblem = (verdict: Evaluation['verdict']): verdict is Problem => VOCABULARY[verdict].attention

/// The kinds a verdict may have (none for most).
export const detailsOf = (name: TermName): readonly VerdictDetail[] => VOCABULARY[name].details

/// The light fill the exports shade a claim's words with, `#rrggbb`: an eighth of its light colour over white
/// (dark text stays readable on it).
export function fillOf(name: TermName): string {
  const { light } = VOCABULARY[name].colour
  const channel = (at: number): string =>
    Math.round(255 - (255 - parseInt(light.slice(at, at + 2), 16)) / 8)
      .toString(16)
      .padStart(2, '0')
  return `#${channel(1)}${channel(3)}${channel(5)}`
}

/// Whether a check's status has ended, per status: what follows a check stops there.
const CHECK_ENDED = {
  queued: false,
  running: false,
  completed: true,
  failed: true,
  cancelled: true,
} as const satisfies Record<CheckStatus, boolean>

/// The statuses a check ends in.
export type EndedCheckStatus = {
  [K in CheckStatus]: (typeof CHECK_ENDED)[K] extends true ? K : never
}[CheckStatus]

/// True once a check can change no more (completed, failed or cancelled).
export const hasEnded = (check: Pick<Check, 'status'>): boolean => CHECK_ENDED[check.status]

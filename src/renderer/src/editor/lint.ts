import {
  forEachDiagnostic,
  linter,
  openLintPanel,
  setDiagnostics,
  type Action,
  type Diagnostic,
} from '@codemirror/lint'
import {
  Facet,
  StateEffect,
  StateField,
  type ChangeSet,
  type EditorState,
  type Extension,
} from '@codemirror/state'
import { keymap, ViewPlugin, type EditorView, type PluginValue, type ViewUpdate } from '@codemirror/view'
import { knownToDictionary, messageParts, UNKNOWN_WORD_RULES, type Finding } from '../../../shared/findings'
import type { SpellingSettings } from '../../../shared/schemas'
import { takenForName } from '../../../shared/typos'
import { claimField } from './claims'
import { ParagraphChecker, type LintPort } from './lintChecker'
import { paragraphsOf, placeFindings, toLint, touchedBy, type Paragraph } from './lintParagraphs'

/// The writer's spelling settings: Harper's dialect and the words added to the dictionary.
export type WritingSettings = SpellingSettings

/// The writing settings in force (the first one given; American English and no words when none is).
export const writingSettings = Facet.define<
  WritingSettings,
  { dialect: WritingSettings['dialect']; words: ReadonlySet<string> }
>({
  combine: (values) => ({
    dialect: values[0]?.dialect ?? 'american',
    words: new Set(values[0]?.dictionary ?? []),
  }),
})

/// Stops showing a rule's findings in this document.
export const ignoreRule = StateEffect.define<string>()

/// The rules ignored in this document, by Harper's name; kept with the document's state.
export const ignoredRules = StateField.define<ReadonlySet<string>>({
  create: () => new Set(),
  update(rules, transaction) {
    for (const effect of transaction.effects) {
      if (effect.is(ignoreRule) && !rules.has(effect.value)) rules = new Set([...rules, effect.value])
    }
    return rules
  },
})

/// What the writing lint needs from the page.
export interface WritingLintOptions {
  /// Starts the worker that runs Harper (`startLintWorker` in the app).
  startWorker(): LintPort
  /// Hears a word the writer added to the dictionary; it is shown as known once `writingSettings` has it.
  onAddWord(word: string): void
}

// Quiet time after an edit before the document is split into paragraphs again and changed ones are linted.
const PAUSE_MS = 400
// Answers arriving together are shown together, at most this often.
const SHOW_EVERY_MS = 100
// Quick fixes offered per finding.
const FIXES = 3

/// Live spelling and grammar: Harper's findings in the document's prose as lint marks (hover for the message
/// and the fixes, Mod-Shift-m for all of them in a panel), with the t1 findings of checked claims among them.
export function writingLint(options: WritingLintOptions): Extension {
  return [
    ignoredRules,
    // Diagnostics come from the plugin below, not from lint's own sources; this turns on the marks and the
    // hover, and closes a hover when its finding goes.
    linter(null),
    ViewPlugin.define((view) => new WritingLintPlugin(view, options)),
    // The findings as a list, with their fixes, for the keyboard (F8 walks the claims).
    keymap.of([{ key: 'Mod-Shift-m', run: openLintPanel }]),
  ]
}

class WritingLintPlugin implements PluginValue {
  private readonly checker: ParagraphChecker
  /// The document's paragraphs, when they were last read from `readDoc`.
  private paragraphs: Paragraph[] = []
  private readDoc: EditorState['doc'] | null = null
  /// The text of `readDoc`, in which names and the document's own terms are told from typos.
  private readText = ''
  private pause: ReturnType<typeof setTimeout> | undefined
  private showing: ReturnType<typeof setTimeout> | undefined
  private readonly templates = new WeakMap<Finding, Omit<Diagnostic, 'from' | 'to'>>()
  /// The edits since the document was last read.
  private edits: ChangeSet | null = null
  /// Whether the marks set are out of date beyond what moving them with edits keeps right: answers came in,
  /// or the settings, ignored rules or claims changed, since they were set.
  private outdated = true
  /// The t1 findings of the claims when the marks were last set (`findingsKey`): a check's votes change the
  /// claims on every frame, and the marks need setting again only when these change.
  private claimFindingsKey = ''
  /// The marks dispatched last, and the document they were placed in.
  private shown: { doc: EditorState['doc'] | null; diagnostics: readonly Diagnostic[] } = {
    doc: null,
    diagnostics: [],
  }

  constructor(
    private readonly view: EditorView,
    private readonly options: WritingLintOptions,
  ) {
    this.checker = new ParagraphChecker(options.startWorker, () => {
      this.outdated = true
      this.showSoon(SHOW_EVERY_MS)
    })
    this.readSoon(0)
  }

  update(update: ViewUpdate): void {
    if (update.docChanged) {
      this.edits = this.edits ? this.edits.compose(update.changes) : update.changes
      return this.readSoon(PAUSE_MS)
    }
    const settings = update.state.facet(writingSettings)
    if (settings.dialect !== update.startState.facet(writingSettings).dialect) return this.readSoon(0)
    const claimsChanged = update.state.field(claimField, false) !== update.startState.field(claimField, false)
    if (
      settings !== update.startState.facet(writingSettings) ||
      update.state.field(ignoredRules) !== update.startState.field(ignoredRules) ||
      (claimsChanged && findingsKey(claimFindings(update.state, new Set())) !== this.claimFindingsKey)
    ) {
      this.outdated = true
      this.showSoon(0)
    }
  }

  destroy(): void {
    clearTimeout(this.pause)
    clearTimeout(this.showing)
    this.checker.close()
  }

  private readSoon(delay: number): void {
    clearTimeout(this.pause)
    this.pause = setTimeout(() => this.read(), delay)
  }

  private showSoon(delay: number): void {
    if (this.showing !== undefined) return
    this.showing = setTimeout(() => {
      this.showing = undefined
      this.show()
    }, delay)
  }

  /// Splits the document into paragraphs and asks for those not linted yet. The marks are set again only when
  /// they are outdated or an edited paragraph's text is known already (an undo, say); otherwise they moved
  /// with the edits and still hold, and the edited paragraphs' answers set them when they come.
  private read(): void {
    const { state } = this.view
    const changed: { from: number; to: number }[] = []
    this.edits?.iterChangedRanges((_fromA, _toA, from, to) => changed.push({ from, to }))
    this.edits = null
    this.readDoc = state.doc
    this.readText = state.doc.toString()
    this.paragraphs = paragraphsOf(this.readText)
    this.checker.useDialect(state.facet(writingSettings).dialect)
    const known = (text: string): boolean => this.checker.findings(text) !== undefined
    const texts = this.paragraphs.map((paragraph) => paragraph.prose)
    this.checker.want(toLint(this.paragraphs, known, this.view.viewport), texts)
    if (this.outdated || touchedBy(this.paragraphs, changed).some((paragraph) => known(paragraph.prose))) {
      this.show()
    }
  }

  private show(): void {
    const { state } = this.view
    // Positions are those of the document read last; after an edit, the marks follow the text until the
    // next reading.
    if (state.doc !== this.readDoc) return
    const diagnostics = this.diagnostics(state)
    this.outdated = false
    this.claimFindingsKey = findingsKey(claimFindings(state, new Set()))
    // The same marks again would only close the hover the writer may be reading.
    if (state.doc === this.shown.doc && sameMarks(diagnostics, this.shown.diagnostics)) return
    this.shown = { doc: state.doc, diagnostics }
    this.view.dispatch(setDiagnostics(state, diagnostics))
  }

  private diagnostics(state: EditorState): Diagnostic[] {
    const { words } = state.facet(writingSettings)
    const ignored = state.field(ignoredRules)
    const sliceDoc = (from: number, to: number): string => state.sliceDoc(from, to)
    const wanted = (rule: string, word: string): boolean =>
      !ignored.has(rule) && !knownToDictionary(rule, word, words)
    const diagnostics: Diagnostic[] = []
    let shown: Diagnostic[] | null = null
    let next = 0
    for (const paragraph of this.paragraphs) {
      const findings = this.checker.findings(paragraph.prose)
      if (findings) {
        for (const { finding, from, to } of placeFindings(paragraph, findings, sliceDoc)) {
          const word = paragraph.prose.slice(finding.charStart, finding.charEnd)
          // A name or a term of the document's own is not marked, as t1 does not report it.
          const name = finding.spelling && takenForName(finding, word, this.readText, paragraph.from)
          if (!name && wanted(finding.rule, word))
            diagnostics.push({ ...this.template(finding, word), from, to })
        }
        continue
      }
      // A paragraph edited and not answered yet keeps the marks the edit moved, so typing makes none blink.
      shown ??= shownFindings(state)
      const end = paragraph.from + paragraph.prose.length
      while (next < shown.length && (shown[next] as Diagnostic).from < paragraph.from) next++
      for (; next < shown.length && (shown[next] as Diagnostic).from <= end; next++) {
        const mark = shown[next] as Diagnostic
        if (mark.to <= end && wanted(mark.source ?? '', sliceDoc(mark.from, mark.to))) diagnostics.push(mark)
      }
    }
    const seen = new Set(diagnostics.map((diagnostic) => markKey(diagnostic)))
    return [...diagnostics, ...claimFindings(state, seen)]
  }

  /// A finding's mark but for its place; made once per finding, as a paragraph's answer is kept by its text
  /// (`word` is the text the finding covers).
  private template(finding: Finding, word: string): Omit<Diagnostic, 'from' | 'to'> {
    const known = this.templates.get(finding)
    if (known) return known
    // A misspelt or mistyped word is spelling (red); one Harper does not know, or would split, the dictionary
    // can answer.
    const spelling = finding.spelling
    const unknown = UNKNOWN_WORD_RULES.includes(finding.rule)
    const actions: Action[] = finding.suggestions.slice(0, FIXES).map((suggestion) => ({
      name: suggestion === '' ? 'Remove' : suggestion,
      apply: (view, from, to) =>
        view.dispatch({ changes: { from, to, insert: suggestion }, userEvent: 'input.complete' }),
    }))
    if (unknown) actions.push({ name: 'Add to dictionary', apply: () => this.options.onAddWord(word) })
    actions.push({
      name: 'Ignore rule in this document',
      apply: (view) => view.dispatch({ effects: ignoreRule.of(finding.rule) }),
    })
    const template = {
      severity: 'warning' as const,
      markClass: spelling ? 'fd-lint-spelling' : 'fd-lint-grammar',
      source: finding.rule,
      message: finding.message,
      renderMessage: () => withCode(finding.message),
      actions,
    }
    this.templates.set(finding, template)
    return template
  }
}

/// Harper's message with the words it quotes in backticks shown as code.
function withCode(message: string): Node {
  const text = document.createElement('span')
  for (const part of messageParts(message)) {
    if (!part.code) {
      text.append(part.text)
      continue
    }
    const code = document.createElement('code')
    code.textContent = part.text
    text.append(code)
  }
  return text
}

const T1_SOURCE = 't1 check'

const markKey = (mark: Pick<Diagnostic, 'from' | 'to' | 'message'>): string =>
  `${mark.from}:${mark.to}:${mark.message}`

const sameMarks = (a: readonly Diagnostic[], b: readonly Diagnostic[]): boolean =>
  a.length === b.length &&
  a.every((mark, i) => {
    const other = b[i] as Diagnostic
    return (
      mark.from === other.from &&
      mark.to === other.to &&
      mark.message === other.message &&
      mark.source === other.source
    )
  })

/// Harper's marks shown now, where edits have moved them, in document order.
function shownFindings(state: EditorState): Diagnostic[] {
  const shown: Diagnostic[] = []
  forEachDiagnostic(state, (diagnostic, from, to) => {
    if (diagnostic.source !== T1_SOURCE) shown.push({ ...diagnostic, from, to })
  })
  return shown.sort((a, b) => a.from - b.from)
}

/// What identifies a list of findings: where each is and what it says.
const findingsKey = (findings: readonly Diagnostic[]): string =>
  findings.map(({ from, to, message }) => `${from}:${to}:${message}`).join('\n')

/// The t1 findings inside checked claims, where the claims field has moved them through edits; those Harper
/// finds live at the same place with the same message (`from:to:message` in `seen`) are shown once.
export function claimFindings(state: EditorState, seen: ReadonlySet<string>): Diagnostic[] {
  const claims = state.field(claimField, false)
  if (!claims) return []
  return claims
    .findings()
    .filter(({ from, to, issue }) => !seen.has(markKey({ from, to, message: issue.message })))
    .map(({ from, to, issue }) => ({
      from,
      to,
      severity: 'info',
      markClass: 'fd-lint-t1',
      source: T1_SOURCE,
      message: issue.message,
    }))
}

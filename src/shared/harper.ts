// What Factdesk needs of Harper's lints, for the engine's t1 worker thread and the editor's Web Worker alike.
import { Dialect, SuggestionKind, type Lint, type LintConfig, type Linter, type Suggestion } from 'harper.js'
import { SPELLING_KINDS, SPELLING_RULE, UNKNOWN_WORD_RULES, type Finding } from './findings'
import type { Dialect as WritingDialect } from './schemas'
import type { SlipCosts } from './spellingErrors'
import { contractionOf, MAX_SUGGESTIONS, rankSpellings, spellingCandidates } from './spellings'

/// Markdown syntax, code and URLs never reach Harper (claims are plain sentences; the editor blanks them).
const PLAIN = { language: 'plaintext' } as const

/// The rules turned off: sentence length is a matter of style, and a long sentence is not a wrong one.
export const LINT_CONFIG: LintConfig = { LongSentences: false }

const DIALECTS: Record<WritingDialect, Dialect> = {
  american: Dialect.American,
  british: Dialect.British,
  canadian: Dialect.Canadian,
  australian: Dialect.Australian,
}

/// Harper's dialect for the one in the writing settings.
export const harperDialect = (dialect: WritingDialect): Dialect => DIALECTS[dialect]

/// Turns Harper's lints, grouped by rule, into findings ordered by position, freeing the WebAssembly objects
/// (a long-lived worker would otherwise hold them until the garbage collector notices).
function toFindings(groups: Record<string, Lint[]>): Finding[] {
  const findings = Object.entries(groups).flatMap(([rule, lints]) =>
    lints.map((lint) => toFinding(lint, rule)),
  )
  return findings.sort((a, b) => a.charStart - b.charStart || a.charEnd - b.charEnd)
}

/// Harper's own findings of `text`, ordered by position, with its suggestions as it gives them.
export async function harperFindings(
  linter: Pick<Linter, 'organizedLints'>,
  text: string,
): Promise<Finding[]> {
  return toFindings(await linter.organizedLints(text, PLAIN))
}

/// The findings of `text`, unknown words with better suggestions (spellings.ts): the candidates of every unknown
/// word go to `linter` in one call, in the writer's English, and only the ones it accepts are offered. A word
/// another rule flags that is a contraction without its apostrophe is offered that contraction first ("ive" is
/// "I've", not "Ive"). The suggestions are ranked by the slips' shipped costs, or by `costs` (the spelling eval's
/// cross-validation counts its own).
export async function lintText(
  linter: Pick<Linter, 'organizedLints'>,
  text: string,
  costs?: SlipCosts,
): Promise<Finding[]> {
  const findings = (await harperFindings(linter, text)).map((finding) =>
    UNKNOWN_WORD_RULES.includes(finding.rule)
      ? finding
      : withContraction(finding, text.slice(finding.charStart, finding.charEnd)),
  )
  const unknown = findings.map((finding) => UNKNOWN_WORD_RULES.includes(finding.rule))
  const candidates = findings.map((finding, i) =>
    unknown[i] ? spellingCandidates(text.slice(finding.charStart, finding.charEnd)) : [],
  )
  const words = [...new Set(candidates.flat())]
  if (words.length === 0) return findings
  const list = words.join('\n')
  const rejected = new Set(
    (await harperFindings(linter, list))
      .filter((finding) => finding.rule === SPELLING_RULE)
      .map((finding) => list.slice(finding.charStart, finding.charEnd)),
  )
  return findings.map((finding, i) => {
    if (!unknown[i]) return finding
    const accepted = (candidates[i] ?? []).filter((word) => !rejected.has(word))
    const word = text.slice(finding.charStart, finding.charEnd)
    return { ...finding, suggestions: rankSpellings(word, finding.suggestions, accepted, costs) }
  })
}

function withContraction(finding: Finding, word: string): Finding {
  const contraction = contractionOf(word)
  if (!contraction || finding.suggestions.includes(contraction)) return finding
  return { ...finding, suggestions: [contraction, ...finding.suggestions].slice(0, MAX_SUGGESTIONS) }
}

function toFinding(lint: Lint, rule: string): Finding {
  // harper.js 2.x reports spans in UTF-16 code units, the unit of JS strings, so they index the text as they
  // are (test/main/engine/tiers/t1 pins this with emoji, CJK and combining marks before a finding).
  const span = lint.span()
  const problem = lint.get_problem_text()
  const finding: Finding = {
    charStart: span.start,
    charEnd: span.end,
    message: lint.message(),
    suggestions: lint.suggestions().map((suggestion) => replacement(suggestion, problem)),
    rule,
    spelling: SPELLING_KINDS.includes(lint.lint_kind()),
  }
  span.free()
  lint.free()
  return finding
}

// Every suggestion as the text that replaces the span, so callers need not know Harper's kinds.
function replacement(suggestion: Suggestion, problem: string): string {
  const kind = suggestion.kind()
  const text = kind === SuggestionKind.Remove ? '' : suggestion.get_replacement_text()
  suggestion.free()
  return kind === SuggestionKind.InsertAfter ? problem + text : text
}

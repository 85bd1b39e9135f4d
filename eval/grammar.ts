// `npm run eval -- grammar [--file PATH]`: t1's flagged spans against the gold edits of an M2 file (JFLEG dev by
// default). PATH is the .m2 file, or a folder holding exactly one.
import { readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { SpellingChecker } from '../src/main/engine/tiers/t1'
import { dataSet, readDataFile, WrongFormat } from './lines'
import type { EvalSet } from './set'

const DATA = dataSet('grammar', 'jfleg-dev')

/// A span of tokens, end exclusive; empty for an insertion before token `start`.
interface Span {
  start: number
  end: number
}

/// One source sentence of an M2 file with each annotator's edits (their types are ignored).
interface Sentence {
  tokens: string[]
  edits: Map<number, Span[]>
}

const grammar: EvalSet = {
  describe:
    'precision / recall of flagged spans against gold M2 edits (recall per distinct span of any annotator)',
  async run({ file }) {
    const path = await m2Path(file ? resolve(file) : DATA)
    const sentences = parseM2(readDataFile(path), path)
    const tally = new Tally()
    // Speed over the first half of the set including the start-up, then over the second half, Harper warm.
    const half = Math.ceil(sentences.length / 2)
    const words: [number, number] = [0, 0]
    const seconds: [number, number] = [0, 0]
    let coldStartSeconds = 0
    const checker = new SpellingChecker()
    try {
      let started = performance.now()
      for (const [index, sentence] of sentences.entries()) {
        if (index === half) started = performance.now()
        const { text, offsets } = detokenise(sentence.tokens)
        const { findings } = await checker.check(text)
        const elapsed = (performance.now() - started) / 1000
        if (index === 0) coldStartSeconds = elapsed
        const part = index < half ? 0 : 1
        words[part] += text.split(/\s+/).length
        seconds[part] = elapsed
        tally.add(
          sentence,
          findings.map((finding) => toTokens(offsets, finding.charStart, finding.charEnd)),
        )
      }
    } finally {
      await checker.close()
    }
    return {
      sentences: sentences.length,
      ...tally.figures(),
      coldStartSeconds: round(coldStartSeconds),
      wordsPerSecondCold: Math.round(words[0] / seconds[0]),
      wordsPerSecondWarm: Math.round(words[1] / seconds[1]),
    }
  },
}

/// Flags against gold edits over a whole set.
class Tally {
  private flags = 0
  private correct = 0
  private goldSpans = 0
  private covered = 0
  private readonly annotators = new Map<number, { edits: number; covered: number }>()

  add(sentence: Sentence, flags: Span[]): void {
    // A flag over the whole sentence (Harper's LongSentences) locates nothing: it counts as a flag but never
    // as correct, else it would overlap every edit of the sentence.
    const located = flags.filter((flag) => flag.end - flag.start < sentence.tokens.length)
    const hit = (edit: Span): boolean => located.some((flag) => touches(flag, edit))
    const gold = [...sentence.edits.values()].flat()
    this.flags += flags.length
    this.correct += located.filter((flag) => gold.some((edit) => touches(flag, edit))).length
    const distinct = new Map(gold.map((edit) => [`${edit.start}:${edit.end}`, edit]))
    this.goldSpans += distinct.size
    this.covered += [...distinct.values()].filter(hit).length
    for (const [annotator, edits] of sentence.edits) {
      const counts = this.annotators.get(annotator) ?? { edits: 0, covered: 0 }
      counts.edits += edits.length
      counts.covered += edits.filter(hit).length
      this.annotators.set(annotator, counts)
    }
  }

  figures(): Record<string, number> {
    const precision = this.correct / this.flags
    const recall = this.covered / this.goldSpans
    const recalls = [...this.annotators.values()].map((counts) => counts.covered / counts.edits)
    return {
      flags: this.flags,
      precision: round(precision),
      recall: round(recall),
      recallMeanPerAnnotator: round(recalls.reduce((sum, value) => sum + value, 0) / recalls.length),
      f05: round((1.25 * precision * recall) / (0.25 * precision + recall)),
    }
  }
}

async function m2Path(path: string): Promise<string> {
  if (!(await stat(path).catch(() => null))?.isDirectory()) return path
  const found = (await readdir(path)).filter((name) => name.endsWith('.m2'))
  if (found.length !== 1) throw new Error(`expected one .m2 file in ${path}, found ${found.length}`)
  return join(path, found[0] ?? '')
}

/// Reads M2: an `S` line of space-separated tokens, then `A start end|||type|||correction|||…|||annotator`
/// lines, a blank line between sentences. `noop` edits (start -1) mark an annotator who changed nothing. Any
/// other line, or no sentence at all, refuses the file at `path` (WrongFormat).
export function parseM2(text: string, path: string): Sentence[] {
  const expected =
    'expected M2: an "S tokens…" line per sentence, then "A start end|||…" lines, a blank line between'
  const lines = text.split('\n')
  const wrong = lines.findIndex((line) => line.trim() !== '' && !/^[SA] /.test(line))
  if (wrong >= 0)
    throw new WrongFormat(`${path}:${wrong + 1}: ${expected}; this line is neither. Nothing was measured.`)
  if (!lines.some((line) => line.startsWith('S ')))
    throw new WrongFormat(`${path}: ${expected}; the file has no sentence.`)
  return text
    .split(/\n\s*\n/)
    .filter((block) => block.startsWith('S '))
    .map((block) => {
      const [source = '', ...annotations] = block.split('\n')
      const edits = new Map<number, Span[]>()
      for (const line of annotations.filter((annotation) => annotation.startsWith('A '))) {
        const fields = line.slice(2).split('|||')
        const [start = -1, end = -1] = (fields[0] ?? '').split(' ').map(Number)
        const annotator = Number(fields.at(-1))
        if (start < 0) continue
        edits.set(annotator, [...(edits.get(annotator) ?? []), { start, end }])
      }
      return { tokens: source.slice(2).trim().split(' '), edits }
    })
}

// Punctuation and clitics the tokeniser split off. Harper checks running text, and would otherwise flag every
// space the tokeniser put before a comma or a full stop.
const NO_SPACE_BEFORE = /^(?:[.,!?;:%)\]}]|\.\.\.|n't|'(?:s|m|d|re|ve|ll))$/i
const NO_SPACE_AFTER = /^[([{$]$/

/// Joins tokens into running text, with the UTF-16 range of each token in it.
export function detokenise(tokens: string[]): { text: string; offsets: Span[] } {
  let text = ''
  const offsets: Span[] = []
  tokens.forEach((token, index) => {
    const glued = index === 0 || NO_SPACE_BEFORE.test(token) || NO_SPACE_AFTER.test(tokens[index - 1] ?? '')
    if (!glued) text += ' '
    offsets.push({ start: text.length, end: text.length + token.length })
    text += token
  })
  return { text, offsets }
}

/// The tokens a character range touches; a range touching none (a missing word or comma) becomes an empty span
/// before the next token.
export function toTokens(offsets: Span[], charStart: number, charEnd: number): Span {
  const hit = offsets.flatMap((token, index) =>
    token.start < Math.max(charEnd, charStart + 1) && charStart < token.end ? [index] : [],
  )
  if (hit.length) return { start: hit[0] ?? 0, end: (hit.at(-1) ?? 0) + 1 }
  const before = offsets.filter((token) => token.end <= charStart).length
  return { start: before, end: before }
}

/// Whether two token spans overlap; an empty span (an insertion) touches the spans it borders.
export function touches(a: Span, b: Span): boolean {
  if (a.start < b.end && b.start < a.end) return true
  return (a.start === a.end || b.start === b.end) && a.start <= b.end && b.start <= a.end
}

const round = (value: number): number => Math.round(value * 1000) / 1000

export default grammar

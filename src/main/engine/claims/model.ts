// The check-worthiness model: two logistic regressions over tf-idf weighted, length-normalised features of
// a sentence, learned from debate sentences, whose logits are averaged: one over its words, word pairs and
// the hand-built features of features.ts, one over its character 2- to 5-grams (which catch word forms,
// numbers and spellings the words miss). Then two rules of form that no data taught (see statements.ts):
// in prose, a question, an instruction or the writer speaking of themselves is no claim and a plain
// statement is one. Debates are talk, where the words decide which statements matter; writers' prose is
// mostly plain statements, about things the debates never spoke of.

import { characterText, MAX_GRAM, MIN_GRAM, sentenceFeatures } from './features'
import type { FindClaims } from '../../../shared/schemas'
import { sentenceForm, type Register, type SentenceForm } from './statements'

/// One logistic regression over tf-idf features: each feature present in a sentence counts its idf, the
/// vector is scaled to unit length, and the logit is the bias plus the weighted sum.
export interface LinearModel {
  bias: number
  /// Every feature of the vocabulary: [its idf, its weight].
  features: Record<string, [number, number]>
}

/// A trained model: its two regressions and the threshold it is used at.
export interface TrainedModel {
  words: LinearModel
  characters: LinearModel
  /// The share of the characters model in the averaged logit (the words model has the rest).
  mix: number
  /// Sentences scoring at least this are check-worthy (chosen by cross-validation on the training data): the
  /// balanced setting's threshold.
  threshold: number
}

/// The model as shipped in resources/checkworthiness.json.
export interface WorthinessModel extends TrainedModel {
  /// Each "Find claims" setting's threshold, with the precision and recall it had in the cross-validation that
  /// chose it.
  findClaims: Record<FindClaims, FoundClaims>
}

/// A "Find claims" setting's threshold and what it found in cross-validation on the training data.
export interface FoundClaims {
  threshold: number
  precision: number
  recall: number
}

/// How check-worthy a sentence of a document in that register is, from 0 to 1, the rules of form holding at
/// `threshold` (a rule's claim scores at least it, its non-claim below it).
export function modelScore(
  model: TrainedModel,
  sentence: string,
  register: Register = 'prose',
  threshold = model.threshold,
): number {
  return decide(threshold, learnedScore(model, sentence), sentenceForm(sentence), register)
}

/// The learned probability alone, before the rules of form.
export function learnedScore(model: TrainedModel, sentence: string): number {
  const compiled = compile(model)
  const logit =
    (1 - model.mix) * linearLogit(compiled.words, sentenceFeatures(sentence)) +
    model.mix * characterLogit(compiled.characters, characterText(sentence))
  return 1 / (1 + Math.exp(-logit))
}

interface CompiledWords {
  bias: number
  features: Map<string, [number, number]>
}

/// The edges of a trie over UTF-16 code units, as one open-addressed hash table (parent node and code unit to
/// child), which reads faster than a Map per node. Node 0 is the root.
interface Edges {
  /// Per slot: the parent node + 1 (0 is an empty slot), the code unit, the child node.
  parents: Int32Array
  codes: Uint16Array
  childNodes: Int32Array
  mask: number
}

/// The character n-grams of a model as a trie, so that a sentence is read without building a string per
/// n-gram: an n-gram's last node holds its feature.
interface CompiledCharacters extends Edges {
  bias: number
  idf: Float64Array
  weight: Float64Array
  /// Per node: the last sentence that counted it, so that each n-gram counts once.
  seen: Int32Array
  sentences: number
}

interface Compiled {
  words: CompiledWords
  characters: CompiledCharacters
}

// Built once per model, on first use.
const compiledModels = new WeakMap<TrainedModel, Compiled>()

function compile(model: TrainedModel): Compiled {
  let compiled = compiledModels.get(model)
  if (!compiled) {
    compiled = {
      words: { bias: model.words.bias, features: new Map(Object.entries(model.words.features)) },
      characters: compileCharacters(model.characters),
    }
    compiledModels.set(model, compiled)
  }
  return compiled
}

// The trie is built straight into its hash table, doubled as it fills: a Map per node (tens of thousands) made
// about 16 MB of garbage on a thread's first text, which grew its heap for good (and took twice as long).
function compileCharacters(model: LinearModel): CompiledCharacters {
  let edges = emptyEdges(2)
  let nodes = 1
  // Per n-gram: its last node, its idf and its weight.
  const grams: number[] = []
  for (const [name, [idf, weight]] of Object.entries(model.features)) {
    let node = 0
    for (let i = 2; i < name.length; i++) {
      const code = name.charCodeAt(i)
      let next = childOf(edges, node, code)
      if (next < 0) {
        next = nodes++
        // At most half full, so that a probe ends soon.
        if (edges.parents.length < nodes * 2) edges = doubled(edges)
        addEdge(edges, node, code, next)
      }
      node = next
    }
    grams.push(node, idf, weight)
  }
  const idf = new Float64Array(nodes)
  const weight = new Float64Array(nodes)
  for (let i = 0; i < grams.length; i += 3) {
    idf[grams[i] as number] = grams[i + 1] as number
    weight[grams[i] as number] = grams[i + 2] as number
  }
  return { bias: model.bias, ...edges, idf, weight, seen: new Int32Array(nodes), sentences: 0 }
}

function emptyEdges(slots: number): Edges {
  return {
    parents: new Int32Array(slots),
    codes: new Uint16Array(slots),
    childNodes: new Int32Array(slots),
    mask: slots - 1,
  }
}

function doubled(edges: Edges): Edges {
  const wider = emptyEdges(edges.parents.length * 2)
  edges.parents.forEach((parent, slot) => {
    if (parent !== 0)
      addEdge(wider, parent - 1, edges.codes[slot] as number, edges.childNodes[slot] as number)
  })
  return wider
}

function addEdge(edges: Edges, parent: number, code: number, child: number): void {
  let slot = slotOf(edges.mask, parent, code)
  while (edges.parents[slot] !== 0) slot = (slot + 1) & edges.mask
  edges.parents[slot] = parent + 1
  edges.codes[slot] = code
  edges.childNodes[slot] = child
}

function slotOf(mask: number, parent: number, code: number): number {
  return (Math.imul(parent, 0x9e3779b1) ^ Math.imul(code, 0x85ebca6b)) & mask
}

/// The child of `node` by `code`, or -1.
function childOf(edges: Edges, node: number, code: number): number {
  for (let slot = slotOf(edges.mask, node, code); ; slot = (slot + 1) & edges.mask) {
    const parent = edges.parents[slot] as number
    if (parent === 0) return -1
    if (parent === node + 1 && edges.codes[slot] === code) return edges.childNodes[slot] as number
  }
}

function linearLogit(model: CompiledWords, names: Iterable<string>): number {
  let sum = 0
  let squares = 0
  for (const name of names) {
    const entry = model.features.get(name)
    if (!entry) continue
    sum += entry[0] * entry[1]
    squares += entry[0] * entry[0]
  }
  return model.bias + (squares > 0 ? sum / Math.sqrt(squares) : 0)
}

/// `linearLogit` over the character n-grams of a text prepared by `characterText`.
function characterLogit(model: CompiledCharacters, text: string): number {
  if (model.sentences === 0x7fffffff) {
    model.seen.fill(0)
    model.sentences = 0
  }
  const stamp = ++model.sentences
  let sum = 0
  let squares = 0
  for (let start = 0; start + MIN_GRAM <= text.length; start++) {
    let node = 0
    for (let size = 1; size <= MAX_GRAM && start + size <= text.length; size++) {
      const next = childOf(model, node, text.charCodeAt(start + size - 1))
      if (next < 0) break
      node = next
      const idf = model.idf[node] as number
      if (size < MIN_GRAM || idf === 0 || model.seen[node] === stamp) continue
      model.seen[node] = stamp
      sum += idf * (model.weight[node] as number)
      squares += idf * idf
    }
  }
  return model.bias + (squares > 0 ? sum / Math.sqrt(squares) : 0)
}

/// What the rules of form say of a sentence: a claim, not a claim, or nothing (the words decide). They hold in
/// prose only: in talk, questions are often rhetorical and openers like "Let me tell you" or "Remember," often
/// wrap a claim ("Do you know that it has tripled in five years?"), so there the words alone decide (the
/// learned model weighs a question mark and a question word as the debates taught it).
export function ruling(form: SentenceForm, register: Register): boolean | undefined {
  if (register === 'talk') return undefined
  if (form === 'question-or-instruction' || form === 'about-the-writer') return false
  if (form === 'plain-statement' && register === 'prose') return true
  return undefined
}

/// The score of a sentence from its learned score and the rules, so that the rules hold at `threshold`.
function decide(threshold: number, learned: number, form: SentenceForm, register: Register): number {
  const ruled = ruling(form, register)
  if (ruled === true) return Math.max(learned, threshold)
  if (ruled === false) return Math.min(learned, threshold / 2)
  return learned
}

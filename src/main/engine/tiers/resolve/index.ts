// Resolving claims into what is checked: each claim rewritten by a model as a self-contained statement (its
// references resolved from the document), split into parts when it states several facts. Done once per claim,
// before its first vote, several claims of a document per request, and stored with the claim.
import { createHash } from 'node:crypto'
import type { Config } from '../../../../shared/config'
import { apiKeys, type ApiKeys } from '../../base/keys'
import { ModelClient, modelHandle, modelSettings, UnusableAnswerError, type ModelHandle } from '../../models'
import type { ClaimRecord, Documents, Resolution } from '../../store/documents'
import { normaliseSpace } from '../../web'
import { folded } from '../../web/typography'
import { share } from '../t2/batcher'
import { PermanentError } from '../../base/errors'
import type { UnitInput } from '../tier'
import { dropped, unresolvedSubject } from './faithful'
import {
  MAX_PARTS,
  Resolutions,
  resolveKey,
  resolvedAt,
  resolvePrompt,
  resolveSystem,
  type Passage,
  type Resolved,
} from './prompts'

export * from './prompts'

/// Claims resolved in one request: enough to share the instructions, few enough for a small model to keep up.
export const RESOLVE_BATCH = 8
const MAX_STATEMENT = 2000
/// Sentences of context before and after a claim's own, and the most of one sentence that is sent.
const BEFORE = 3
const AFTER = 1
const MAX_SENTENCE = 600

const segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' })

/// The document's title: its first Markdown heading, if it has one.
function documentTitle(text: string): string | null {
  return /^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(text)?.[1]?.trim() ?? null
}

/// A sentence of a document and where it ends.
export interface Sentence {
  end: number
  text: string
}

/// The last document segmented: its claims' units ask for its sentences one after another.
let segmented: { text: string; sentences: Sentence[] } | null = null

/// The document's sentences: segmented once for all the requests that resolve its claims together, and for
/// the units that key votes by what the resolver would have read.
function sentencesOf(text: string): Sentence[] {
  if (segmented?.text !== text)
    segmented = {
      text,
      sentences: [...segmenter.segment(text)]
        .map((part) => ({ end: part.index + part.segment.length, text: part.segment.trim() }))
        .filter((sentence) => sentence.text !== ''),
    }
  return segmented.sentences
}

/// What the resolver reads of `text` for `claims`: each claim's sentence with three before it and one after it,
/// every sentence once however many claims it is context for (claims of a batch are mostly neighbours), and a
/// claim's words only where they are not its whole sentence.
export function passageFor(
  text: string,
  claims: readonly ClaimRecord[],
  all: readonly Sentence[] = sentencesOf(text),
): Passage {
  const at = (claim: ClaimRecord) =>
    Math.max(
      0,
      all.findIndex((sentence) => sentence.end > claim.charStart),
    )
  const wanted = new Set<number>()
  for (const claim of claims)
    for (let index = at(claim) - BEFORE; index <= at(claim) + AFTER; index++)
      if (index >= 0 && index < all.length) wanted.add(index)
  const sentences: string[] = []
  const numbers = new Map<number, number>()
  let previous = -1
  for (const index of [...wanted].sort((a, b) => a - b)) {
    if (previous >= 0 && index > previous + 1) sentences.push('…')
    sentences.push((all[index] as { text: string }).text.slice(0, MAX_SENTENCE))
    numbers.set(index, sentences.length)
    previous = index
  }
  return {
    title: documentTitle(text),
    sentences,
    claims: claims.map((claim) => {
      const sentence = numbers.get(at(claim)) ?? 0
      const whole = sentences[sentence - 1] === claim.text.trim()
      return whole ? { sentence } : { sentence, claim: claim.text }
    }),
  }
}

/// A digest of what the resolver reads of `text` for `claim`: a claim checked as its words is checked with its
/// context, so its votes are cached under both (the same words after other sentences are another claim).
export function contextDigest(text: string, claim: ClaimRecord): string {
  return createHash('sha256')
    .update(JSON.stringify(passageFor(text, [claim], sentencesOf(text))))
    .digest('hex')
}

/// What a model's "unresolved" says when it says nothing.
const NOTHING = new Set(['none', 'null', 'nothing', 'n/a'])

/// Text as its words are compared: folded, each word between single spaces.
const wordsIn = (text: string): string =>
  ` ${folded(text)
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .trim()} `

/// The words the model says it could not resolve, when they are still in `statement`; null when it names none.
function namedUnresolved(statement: string, unresolved: string | null): string | null {
  const named = wordsIn(unresolved ?? '')
  if (named.trim() === '' || NOTHING.has(named.trim())) return null
  return wordsIn(statement).includes(named) ? named.trim() : null
}

/// Whether the `index`th claim of `passage` opens its document (no title, no words before it): nothing the
/// resolver read could say what a pronoun in it refers to.
function opensDocument(passage: Passage, index: number): boolean {
  const at = passage.claims[index]
  if (passage.title !== null || at?.sentence !== 1) return false
  return at.claim === undefined || (passage.sentences[0] ?? '').startsWith(at.claim.trim())
}

/// A model's resolution of `claim` as it is stored, and what is wrong with it in words the model is told when it
/// is asked again (null when nothing is):
/// - no statement: the claim is `unresolved`;
/// - one that drops what the claim says: `rejected`;
/// - one that the model says leans on words it could not resolve, or whose subject is still a pronoun while
///   nothing before the claim (`opening` the document) could say what it is: `unclear`;
/// - one whose subject is still a pronoun the document may resolve: asked again, then `unresolved` (its words
///   checked with the sentences around them, where the panel can read what it is);
/// - else `resolved`, with its parts when there are at least two distinct ones, each free of such a pronoun
///   (else the statement is checked whole).
/// A claim not checked as its statement keeps its own words as its statement: that is what the report shows.
function reviewed(
  claim: ClaimRecord,
  answer: Resolved | undefined,
  opening: boolean,
): { resolution: Omit<Resolution, 'usage'>; problem: string | null } {
  const asWritten = { statement: claim.text, parts: null }
  const statement = normaliseSpace(answer?.statement ?? '').slice(0, MAX_STATEMENT)
  if (!answer || statement === '')
    return {
      resolution: { ...asWritten, state: 'unresolved' },
      problem: answer ? 'the statement is empty' : 'it has no entry',
    }
  const drops = dropped(claim.text, statement)
  if (drops) return { resolution: { ...asWritten, state: 'rejected' }, problem: drops }
  const subject = unresolvedSubject(statement)
  if (namedUnresolved(statement, answer.unresolved) || (subject && opening))
    return { resolution: { ...asWritten, state: 'unclear' }, problem: null }
  if (subject)
    return {
      resolution: { ...asWritten, state: 'unresolved' },
      problem: `the statement still says “${subject}”: say what it is from the document, or give “${subject}” as "unresolved"`,
    }
  const parts = [...new Set((answer.parts ?? []).map((part) => normaliseSpace(part).slice(0, MAX_STATEMENT)))]
    .filter(Boolean)
    .slice(0, MAX_PARTS)
  const whole = parts.length < 2 || parts.some((part) => unresolvedSubject(part) !== null)
  return { resolution: { statement, parts: whole ? null : parts, state: 'resolved' }, problem: null }
}

/// What is wrong with the resolver's answer for `claims`, claim by claim, or null when nothing is.
function answerProblem(claims: readonly ClaimRecord[], passage: Passage, answer: Resolutions): string | null {
  const problems = claims.flatMap((claim, index) => {
    const { problem } = reviewed(
      claim,
      resolvedAt(answer, index, claims.length),
      opensDocument(passage, index),
    )
    return problem ? [`${resolveKey(index)}: ${problem}`] : []
  })
  if (problems.length === 0) return null
  return (
    `some statements cannot be used (${problems.join('; ')}); each statement must say all ` +
    'its claim says, in its words, with only its references resolved'
  )
}

/// Resolves `claims` in one request to `handle`, from what `passage` gives of their document, each statement
/// checked against its claim (one that drops what the claim says, or still says "It" unasked, is asked for again
/// once, then not taken). A failure that will not mend (the provider refuses the request, or its answer still does
/// not follow the schema when asked again) leaves each claim unresolved, to be checked as its words with the
/// sentences around them; a passing one (a lost connection, a 5xx, a timeout) is thrown, so that the unit
/// waiting for it is tried again later and nothing is checked on the bare words meanwhile.
export async function resolveClaims(
  client: ModelClient,
  handle: ModelHandle,
  claims: readonly ClaimRecord[],
  passage: Passage,
  today: string,
  signal: AbortSignal,
): Promise<Resolution[]> {
  try {
    const { object, usage } = await client.generate(handle, {
      system: resolveSystem(today),
      prompt: resolvePrompt(passage),
      schema: Resolutions,
      name: 'statements',
      signal,
      check: (answer) => answerProblem(claims, passage, answer),
    })
    return claims.map((claim, index) => ({
      ...reviewed(claim, resolvedAt(object, index, claims.length), opensDocument(passage, index)).resolution,
      usage: share(usage, index, claims.length),
    }))
  } catch (error) {
    if (signal.aborted) throw error
    if (!(error instanceof PermanentError || error instanceof UnusableAnswerError)) throw error
    return claims.map((claim) => ({ statement: claim.text, parts: null, state: 'unresolved', usage: null }))
  }
}

/// Requests started together for one document's claims: the units waiting for any of them, and what aborts
/// them all when the last of those units is aborted (its check cancelled, the engine stopping).
interface Group {
  controller: AbortController
  waiting: number
}

/// One request in flight: the claims it resolves, and the group it was started with.
interface Batch {
  done: Promise<Map<string, ClaimRecord>>
  group: Group
}

/// Resolves claims for the model tiers. The first unit of a document's claim that needs it starts resolving
/// every unresolved claim of the document at once, in requests of up to the batch size (its own claim and the
/// next ones first), so that no claim waits behind another's request; the other units wait for theirs. The
/// resolver's client bounds how many requests are in flight. The result is stored with the claim, so that every
/// tier, every unit and a restarted engine check the same statement.
export class StatementResolver {
  private readonly batches = new Map<string, Batch>()
  /// The units looking for their claim's batch, one after another.
  private planning: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly client: ModelClient,
    private readonly handle: ModelHandle,
    private readonly documents: Documents,
    readonly batchSize = RESOLVE_BATCH,
  ) {}

  /// The longest a resolution may take, for the units' timeouts.
  worstCaseMs(): number {
    return this.client.worstCaseMs()
  }

  /// The unit's claim as stored once resolved: its statement and how it came to be (its `statementState`).
  async resolve(input: UnitInput): Promise<ClaimRecord> {
    if (input.claim.statement !== null) return input.claim
    const found = this.batches.get(input.claim.id) ?? (await this.planned(input))
    if (!('group' in found)) return found
    const batch = found
    const { group } = batch
    group.waiting++
    try {
      return (await untilAborted(batch.done, input.signal)).get(input.claim.id) ?? input.claim
    } finally {
      // Units of the group not yet running will want the other requests: only an abort stops them.
      if (--group.waiting === 0 && input.signal.aborted) group.controller.abort(input.signal.reason)
    }
  }

  /// The claim as stored when it was resolved meanwhile, else its batch, started with the document's other
  /// unresolved claims unless a unit of the same document has started it: one unit at a time looks, so that the
  /// units that run together find one set of batches.
  private planned(input: UnitInput): Promise<Batch | ClaimRecord> {
    const planned = this.planning.then(async () => {
      const batch = this.batches.get(input.claim.id)
      if (batch) return batch
      const stored = await this.documents.claim(input.claim.id)
      if (stored && stored.statement !== null) return stored
      return this.start(input)
    })
    this.planning = planned.catch(() => undefined)
    return planned
  }

  /// Starts resolving the document's unresolved claims: the unit's claim with the next ones, then the rest in
  /// order (earlier ones last), a request per batch, all at once.
  private async start(input: UnitInput): Promise<Batch> {
    const all = await this.documents.claims(input.claim.documentId)
    const at = Math.max(
      0,
      all.findIndex((claim) => claim.id === input.claim.id),
    )
    const open = (claim: ClaimRecord) =>
      claim.id !== input.claim.id && claim.statement === null && !this.batches.has(claim.id)
    const claims = [input.claim, ...all.slice(at + 1).filter(open), ...all.slice(0, at).filter(open)]
    const group = { controller: new AbortController(), waiting: 0 }
    const sentences = sentencesOf(input.documentText)
    for (let first = 0; first < claims.length; first += this.batchSize)
      this.request(input, claims.slice(first, first + this.batchSize), sentences, group)
    return this.batches.get(input.claim.id) as Batch
  }

  /// One request resolving `claims`, their results stored together as they land.
  private request(
    input: UnitInput,
    claims: readonly ClaimRecord[],
    sentences: readonly Sentence[],
    group: Group,
  ): void {
    const done = resolveClaims(
      this.client,
      this.handle,
      claims,
      passageFor(input.documentText, claims, sentences),
      input.now().slice(0, 10),
      group.controller.signal,
    )
      .then(async (resolutions) => {
        const stored = await this.documents.resolveAll(
          claims.map((claim, index) => ({ claim, resolution: resolutions[index] as Resolution })),
        )
        return new Map(stored.map((claim) => [claim.id, claim]))
      })
      .finally(() => claims.forEach((claim) => this.batches.delete(claim.id)))
    // Nobody may be waiting when it ends (its units were cancelled, or have not run yet).
    done.catch(() => undefined)
    const batch = { done, group }
    for (const claim of claims) this.batches.set(claim.id, batch)
  }
}

/// The configured resolver (`models.resolver`, else the judge), or null without a judge.
export function statementResolver(
  models: Config['models'],
  documents: Documents,
  keys: ApiKeys = apiKeys(),
): StatementResolver | null {
  const model = models.resolver ?? models.judge
  if (!model) return null
  const handle = modelHandle(model, models.resolver ? 'models.resolver' : 'models.judge', keys)
  return new StatementResolver(new ModelClient(modelSettings(models)), handle, documents)
}

/// `promise`, or the signal's reason as soon as it is aborted.
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted()
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error)
    signal.addEventListener('abort', abort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort))
  })
}

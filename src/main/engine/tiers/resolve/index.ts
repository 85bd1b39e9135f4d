// Resolving claims into what is checked: each claim rewritten by a model as a self-contained statement (its
// references resolved from the document), split into parts when it states several facts. Done once per claim,
// before its first vote, several claims of a document per request, and stored with the claim.
import type { Config } from '../../../../shared/config'
import { apiKeys, type ApiKeys } from '../../keys'
import { ModelClient, modelHandle, modelSettings, UnusableAnswerError, type ModelHandle } from '../../models'
import type { ClaimRecord, Documents, Resolution } from '../../store/documents'
import { normaliseSpace } from '../../web'
import { share } from '../t2/batcher'
import { PermanentError } from '../../errors'
import type { UnitInput } from '../tier'
import {
  MAX_PARTS,
  Resolutions,
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
/// Claims the resolver failed on remembered at once.
const MAX_FAILED = 10_000
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

/// The document's sentences: segmented once for all the requests that resolve its claims together.
function sentencesOf(text: string): Sentence[] {
  return [...segmenter.segment(text)]
    .map((part) => ({ end: part.index + part.segment.length, text: part.segment.trim() }))
    .filter((sentence) => sentence.text !== '')
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

/// A model's resolution made safe to check: its statement (the claim's words when it gave none), and its parts
/// only when there are at least two distinct ones.
function resolution(claim: ClaimRecord, answer: Resolved | undefined): Omit<Resolution, 'usage'> {
  const statement = normaliseSpace(answer?.statement ?? '').slice(0, MAX_STATEMENT) || claim.text
  const parts = [
    ...new Set((answer?.parts ?? []).map((part) => normaliseSpace(part).slice(0, MAX_STATEMENT))),
  ]
    .filter(Boolean)
    .slice(0, MAX_PARTS)
  return { statement, parts: parts.length >= 2 ? parts : null }
}

/// A claim's resolution, and whether the resolver failed on it (its statement is then the claim's words).
export type ClaimResolution = Resolution & { failed: boolean }

/// Resolves `claims` in one request to `handle`, from what `passage` gives of their document. A failure that will
/// not mend (the provider refuses the request, or its answer still does not follow the schema when asked again)
/// resolves each claim as its own words, marked failed, so that the check goes on with what it can check; a
/// passing one (a lost connection, a 5xx, a timeout) is thrown, so that the unit waiting for it is tried again
/// later and nothing is checked on the bare words meanwhile.
export async function resolveClaims(
  client: ModelClient,
  handle: ModelHandle,
  claims: readonly ClaimRecord[],
  passage: Passage,
  today: string,
  signal: AbortSignal,
): Promise<ClaimResolution[]> {
  try {
    const { object, usage } = await client.generate(handle, {
      system: resolveSystem(today),
      prompt: resolvePrompt(passage),
      schema: Resolutions,
      name: 'statements',
      signal,
    })
    return claims.map((claim, index) => ({
      ...resolution(claim, resolvedAt(object, index, claims.length)),
      usage: share(usage, index, claims.length),
      failed: false,
    }))
  } catch (error) {
    if (signal.aborted) throw error
    if (!(error instanceof PermanentError || error instanceof UnusableAnswerError)) throw error
    return claims.map((claim) => ({ statement: claim.text, parts: null, usage: null, failed: true }))
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
  /// Claims the resolver failed on in this process: checked unresolved, their words with the sentences around
  /// them (after a restart, as stored: their words alone).
  private readonly failed = new Set<string>()

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

  /// The unit's claim as it is checked: resolved, or unresolved (statement null) when the resolver failed on it.
  async resolve(input: UnitInput): Promise<ClaimRecord> {
    const claim = await this.resolved(input)
    return this.failed.has(claim.id) ? { ...claim, statement: null } : claim
  }

  private async resolved(input: UnitInput): Promise<ClaimRecord> {
    if (input.claim.statement !== null) return input.claim
    let batch = this.batches.get(input.claim.id)
    if (!batch) {
      const stored = this.documents.claim(input.claim.id)
      if (stored && stored.statement !== null) return stored
      batch = this.start(input)
    }
    const { group } = batch
    group.waiting++
    try {
      return (await untilAborted(batch.done, input.signal)).get(input.claim.id) ?? input.claim
    } finally {
      // Units of the group not yet running will want the other requests: only an abort stops them.
      if (--group.waiting === 0 && input.signal.aborted) group.controller.abort(input.signal.reason)
    }
  }

  /// Starts resolving the document's unresolved claims: the unit's claim with the next ones, then the rest in
  /// order (earlier ones last), a request per batch, all at once.
  private start(input: UnitInput): Batch {
    const all = this.documents.claims(input.claim.documentId)
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

  /// Marks a claim the resolver failed on (the set is bounded: failures are few, and forgetting one only costs
  /// its context).
  private remember(claimId: string): void {
    if (this.failed.size >= MAX_FAILED) this.failed.clear()
    this.failed.add(claimId)
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
      .then((resolutions) => {
        const stored = this.documents.resolveAll(
          claims.map((claim, index) => ({ claim, resolution: resolutions[index] as ClaimResolution })),
        )
        resolutions.forEach((resolution, index) => {
          if (resolution.failed) this.remember((claims[index] as ClaimRecord).id)
        })
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

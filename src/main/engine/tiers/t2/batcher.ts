import type { TokenUsage } from '../../../../shared/schemas'
import type { ModelClient, ModelHandle } from '../../models'
import {
  Vote,
  batchKey,
  batchPrompt,
  batchSchema,
  isDebate,
  panelSystem,
  votePrompt,
  type Question,
} from './prompts'

/// A panel model's vote on one claim, with the tokens it cost (a batch's share).
export interface VoteAnswer {
  vote: Vote
  usage: TokenUsage | null
}

interface Member {
  item: Question
  signal: AbortSignal
  resolve(answer: VoteAnswer): void
  reject(error: unknown): void
}

interface Queue {
  handle: ModelHandle
  today: string | null
  members: Member[]
  timer: NodeJS.Timeout | null
}

/// How long a batch waits for more claims by default: claims of one check arrive within a few milliseconds.
const DEFAULT_BATCH_WINDOW_MS = 15

/// Asks panel models for votes. With a batch size above 1, the claims of one check that ask the same model
/// within a short window go in one request (up to the batch size), which shares the instructions and the
/// schema between them; so do the debate rounds of claims split at once (their first votes came in one
/// request). A member whose unit is aborted leaves at once; the request is aborted (its connection
/// closed) only when every member has left.
export class VoteBatcher {
  private readonly queues = new Map<string, Queue>()

  constructor(
    private readonly client: ModelClient,
    readonly batchSize: number,
    private readonly windowMs = DEFAULT_BATCH_WINDOW_MS,
    /// The vote's schema: its members in the order the verdict steps ask for.
    private readonly voteSchema = Vote,
  ) {}

  /// A vote on `item` (a second one when it carries the votes of a debate round), asked on the day `today`
  /// (null: no date in the prompt).
  vote(
    handle: ModelHandle,
    scope: string,
    item: Question,
    signal: AbortSignal,
    today: string | null,
  ): Promise<VoteAnswer> {
    if (this.batchSize <= 1) return this.single(handle, item, signal, today)
    return new Promise<VoteAnswer>((resolve, reject) => {
      signal.throwIfAborted()
      // Claims asked on either side of midnight go in different batches: each request gives one date; a first
      // vote and a debate round's are asked differently.
      const key = `${scope}\n${handle.config.id}\n${today}\n${isDebate(item)}`
      let queue = this.queues.get(key)
      if (!queue) this.queues.set(key, (queue = { handle, today, members: [], timer: null }))
      queue.members.push({ item, signal, resolve, reject })
      signal.addEventListener('abort', () => reject(signal.reason), { once: true })
      if (queue.members.length >= this.batchSize) this.flush(key)
      else queue.timer ??= setTimeout(() => this.flush(key), this.windowMs)
    })
  }

  /// Votes on several claims of one unit (a claim's parts), one per item in order: with a batch size above 1
  /// each joins the batches as a claim does; else all of them in one request, which shares the instructions
  /// between them.
  votes(
    handle: ModelHandle,
    scope: string,
    items: readonly Question[],
    signal: AbortSignal,
    today: string | null,
  ): Promise<VoteAnswer[]> {
    if (this.batchSize > 1)
      return Promise.all(items.map((item) => this.vote(handle, scope, item, signal, today)))
    return this.ask(handle, items, signal, today)
  }

  private async single(
    handle: ModelHandle,
    item: Question,
    signal: AbortSignal,
    today: string | null,
  ): Promise<VoteAnswer> {
    const { object, usage } = await this.client.generate(handle, {
      system: panelSystem(today, [item]),
      prompt: votePrompt(item),
      schema: this.voteSchema,
      name: 'vote',
      signal,
    })
    return { vote: object, usage }
  }

  /// One request for the votes on `items`, one per item in order, each with its share of the tokens.
  private async ask(
    handle: ModelHandle,
    items: readonly Question[],
    signal: AbortSignal,
    today: string | null,
  ): Promise<VoteAnswer[]> {
    const [only] = items
    if (!only) return []
    if (items.length === 1) return [await this.single(handle, only, signal, today)]
    const { object, usage } = await this.client.generate(handle, {
      system: panelSystem(today, items),
      prompt: batchPrompt(items),
      schema: batchSchema(items.length, this.voteSchema),
      name: 'votes',
      signal,
    })
    return items.map((_, index) => {
      const vote = object[batchKey(index)]
      if (!vote) throw new Error(`${handle.config.id} left out ${batchKey(index)} of a batch`)
      return { vote, usage: share(usage, index, items.length) }
    })
  }

  private flush(key: string): void {
    const queue = this.queues.get(key)
    if (!queue) return
    this.queues.delete(key)
    if (queue.timer) clearTimeout(queue.timer)
    const members = queue.members.filter((member) => !member.signal.aborted)
    if (members.length === 0) return
    const controller = new AbortController()
    let present = members.length
    for (const member of members) {
      member.signal.addEventListener(
        'abort',
        () => {
          if (--present === 0) controller.abort(member.signal.reason)
        },
        { once: true },
      )
    }
    this.ask(
      queue.handle,
      members.map((member) => member.item),
      controller.signal,
      queue.today,
    ).then(
      (answers) => members.forEach((member, index) => member.resolve(answers[index] as VoteAnswer)),
      (error: unknown) => members.forEach((member) => member.reject(error)),
    )
  }
}

/// The `index`th of `count` even shares of a request's tokens; the shares add up to the whole.
export function share(usage: TokenUsage | null, index: number, count: number): TokenUsage | null {
  if (!usage) return null
  const part = (total: number) => Math.floor(total / count) + (index < total % count ? 1 : 0)
  return { inputTokens: part(usage.inputTokens), outputTokens: part(usage.outputTokens) }
}

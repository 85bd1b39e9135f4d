// Deep research on one claim: plan (sub-questions, searches for support and for contradiction), search (the
// sub-questions too) and read sources, build a proof-and-dissent argument map with verified citations, let
// every panel model vote on the map, and let the judge write verdict, confidence and summary. Charged a flat price on acceptance,
// refunded if it fails; each step is saved as it ends, so a run resumes after a restart. The runs are a queue of
// the job runner's, which leases and retries them as it does the checks' units.
import type { Config } from '../../../shared/config'
import { ApiError } from '../../../shared/errors'
import type { Citation, Research, ResearchList, ResearchStep } from '../../../shared/schemas'
import type { Clock } from '../base/clock'
import type { ReportEvents } from '../base/events'
import { newId } from '../base/ids'
import type { Job, JobQueue, JobRunner } from '../jobs/runner'
import { newLeaseId } from '../store/leases'
import { apiKeys, type ApiKeys } from '../base/keys'
import { ModelClient, modelHandle, modelSettings, type ModelHandle } from '../models'
import type { Principal } from '../checks/access'
import type { Store } from '../store'
import { chargeOrRefuse } from '../checks/credits'
import { PermanentError } from '../base/errors'
import type { Reachability } from '../checks/reachability'
import type { ResearchRecord } from '../store/research'
import { checkedText, claimContext } from '../tiers/t2/context'
import { passageFor, resolveClaims } from '../tiers/resolve'
import { ALL_STEPS, todayOf } from '../tiers/steps'
import type { ClaimRecord } from '../store/documents'
import {
  judgeStances,
  passageData,
  relevantPassages,
  verifiedCitations,
  verifierFor,
  type Verifier,
} from '../tiers/t3'
import { distinctCitations, storedCitation, withStances } from '../../../shared/citations'
import { consistentDetail } from '../../../shared/verdicts'
import { requireCheckableText, requireStorableText } from '../checks/validation'
import {
  addWithheld,
  nothingWithheld,
  normaliseSpace,
  withheldWords,
  type RankedPassage,
  type Web,
  type Withheld,
} from '../web'
import {
  findingSystem,
  Finding,
  mapSystem,
  mapVoteSystem,
  MapDraft,
  MapVote,
  planSystem,
  Plan,
  findingPrompt,
  mapPrompt,
  mapVotePrompt,
  planPrompt,
} from './prompts'

export * from './prompts'

type ResearchResult = NonNullable<Research['result']>
type ArgumentMap = ResearchResult['argumentMap']
type Vote = ResearchResult['votes'][number]

/// What a run has done so far (saved after every step).
export interface ResearchState {
  plan?: Plan
  /// Passages found for the plan's sub-questions (searched with the support, in its step).
  answers?: RankedPassage[]
  support?: RankedPassage[]
  contradiction?: RankedPassage[]
  sourcesRead?: number
  /// The pages read so far (each counted once in `sourcesRead`, however many searches found it).
  pagesRead?: string[]
  /// What the organization's source policy kept out of the searches so far.
  withheld?: Withheld
  map?: ArgumentMap
  votes?: Vote[]
}

/// The public shape of a run.
function researchView(record: ResearchRecord): Research {
  return {
    id: record.id,
    status: record.status,
    claimId: record.claimId,
    text: record.text,
    credits: { charged: record.charged, refunded: record.refunded },
    result: record.status === 'completed' && record.result ? storedResult(record.result) : null,
    error:
      record.status === 'failed'
        ? { code: record.errorCode ?? 'failed', message: record.errorMessage ?? '' }
        : null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    completedAt: record.completedAt,
  }
}

/// A finding as the API shows it: one saved before findings had kinds says none, and its quotes saved before
/// source policies lack `preferred`.
function storedResult(json: string): ResearchResult {
  const result = JSON.parse(json) as ResearchResult
  return {
    ...result,
    detail: result.detail ?? null,
    votes: result.votes.map((vote) => ({ ...vote, detail: vote.detail ?? null })),
    sources: result.sources.map(storedCitation),
    argumentMap: {
      ...result.argumentMap,
      nodes: result.argumentMap.nodes.map((node) => ({ ...node, sources: node.sources.map(storedCitation) })),
    },
  }
}

/// Every edge joins two nodes of the map, and the map has a claim root and at least one proof or dissent.
export function validMap(map: ArgumentMap): boolean {
  const ids = new Set(map.nodes.map((node) => node.id))
  return (
    ids.size === map.nodes.length &&
    map.nodes.some((node) => node.kind === 'claim') &&
    map.nodes.some((node) => node.kind === 'proof' || node.kind === 'dissent') &&
    map.edges.every((edge) => ids.has(edge.from) && ids.has(edge.to) && edge.from !== edge.to)
  )
}

/// Deep research: the API's operations (start, get) and the queue of runs the job runner works.
export class DeepResearch implements JobQueue {
  /// Runs in progress at once.
  readonly concurrency = 2
  private client: ModelClient | null = null
  private panel = new Map<string, ModelHandle>()
  private judge: ModelHandle | null = null
  private resolver: ModelHandle | null = null
  private verifier: Verifier | null = null

  constructor(
    private readonly store: Store,
    private readonly config: Config,
    private readonly clock: Clock,
    private web: Web,
    private readonly events: ReportEvents,
    /// Told when a run is queued.
    private readonly runner: Pick<JobRunner, 'wake'>,
    keys: ApiKeys = apiKeys(),
    /// Refuses a run whose models or search provider cannot be reached, before anything is charged.
    private readonly reachability: Pick<Reachability, 'require'> | null = null,
  ) {
    this.reconfigure(config.models, web, keys)
  }

  /// Takes the models and the web to use from now on (the app's settings changed them): new runs and the next
  /// steps of running ones use them.
  reconfigure(models: Config['models'], web: Web, keys: ApiKeys): void {
    const configured = models.panel.length > 0 && models.judge !== null
    this.web = web
    this.client = configured ? new ModelClient(modelSettings(models)) : null
    this.panel = new Map(
      configured
        ? models.panel.map((model, index) => [model.id, modelHandle(model, `models.panel[${index}]`, keys)])
        : [],
    )
    this.judge = configured && models.judge ? modelHandle(models.judge, 'models.judge', keys) : null
    this.verifier = this.judge && verifierFor(models, this.judge, keys)
    this.resolver =
      configured && models.resolver ? modelHandle(models.resolver, 'models.resolver', keys) : this.judge
  }

  /// `POST /research`: exactly one of `claimId` (a claim of one of the organization's estimates or checks) or `text`.
  /// Charged the flat research price with the run's creation, in one transaction; 402 when the balance is short.
  async create(
    principal: Principal,
    request: { claimId?: string | null; text?: string | null },
  ): Promise<Research> {
    const hasClaim = typeof request.claimId === 'string'
    const hasText = typeof request.text === 'string'
    if (hasClaim === hasText) {
      throw new ApiError('bad_request', 'Send exactly one of claimId and text.', [
        { field: hasClaim ? 'text' : 'claimId', message: 'exactly one of claimId and text' },
      ])
    }
    requireStorableText({ text: request.text })
    if (!this.client) {
      throw new ApiError(
        'unprocessable',
        'Deep research needs a panel and a judge: add models.panel and models.judge to the configuration.',
      )
    }
    let text: string
    let context = ''
    let claimId: string | null = null
    const found = hasClaim
      ? await this.store.research.claimOfOrganization(principal.organizationId, request.claimId as string)
      : null
    if (hasClaim && !found)
      throw new ApiError(
        'not_found',
        `No claim ${request.claimId} in this organization's estimates or checks.`,
      )
    if (!found) {
      text = (request.text as string).trim()
      requireCheckableText(text, this.config.limits.maxTextChars)
    }
    // Deep research reads the web with the panel, as t3 does: offline, nothing is charged (503).
    await this.reachability?.require(['t3'], 'research')
    if (found) {
      // A claim is researched as the statement its checks judge, resolved now if no check has yet.
      const claim = await this.resolved(found.claim, found.documentText)
      text = checkedText(claim)
      const around = claimContext(found.documentText, claim)
      context = [around.sentenceBefore, around.sentenceAfter].filter(Boolean).join(' … ')
      claimId = claim.id
    }
    const now = this.clock.now().toISOString()
    const id = newId('rsc', this.clock.now())
    const price = this.config.pricing.research
    await this.store.transaction(
      async (tx) => {
        await tx.research.insert({
          id,
          organizationId: principal.organizationId,
          claimId,
          text,
          context,
          charged: price,
          createdAt: now,
        })
        await chargeOrRefuse(tx.ledger, principal.organizationId, price, id, now, 'Deep research')
      },
      { lockOrg: principal.organizationId },
    )
    // The answer shows the run as accepted; the runner may pick it up at once.
    const accepted = await this.get(principal, id)
    await this.emit(id, null, {})
    await this.runner.wake()
    return accepted
  }

  /// The claim as its checks resolve it: stored, or resolved now (and stored). A resolver that cannot be
  /// reached now refuses the run (503, nothing charged) rather than research the claim's bare words.
  private async resolved(claim: ClaimRecord, documentText: string): Promise<ClaimRecord> {
    const client = this.client
    const resolver = this.resolver
    if (claim.statement !== null || !client || !resolver) return claim
    const now = this.clock.now().toISOString()
    const signal = AbortSignal.timeout(client.worstCaseMs())
    const [resolution] = await resolveClaims(
      client,
      resolver,
      [claim],
      passageFor(documentText, [claim]),
      now.slice(0, 10),
      signal,
    ).catch((error: unknown) => {
      throw new ApiError(
        'providers_unreachable',
        `The model that resolves the claim into a statement did not answer (${(error as Error).message}); ` +
          'nothing was charged. Try again in a moment.',
      )
    })
    if (resolution) await this.store.documents.resolve(claim.id, resolution)
    return (await this.store.documents.claim(claim.id)) ?? claim
  }

  /// `GET /research`: the organization's recent runs, newest first (the History lists them with the checks).
  async list(principal: Principal): Promise<ResearchList> {
    return { data: (await this.store.research.recent(principal.organizationId, 50)).map(researchView) }
  }

  /// `GET /research/{id}`; another organization's run is not found.
  async get(principal: Principal, id: string): Promise<Research> {
    const record = await this.store.research.get(principal.organizationId, id)
    if (!record) throw new ApiError('not_found', `No research ${id}.`)
    return researchView(record)
  }

  async lease(now: string, leaseUntil: string, limit: number): Promise<Job[]> {
    const leased = await this.store.research.lease(now, leaseUntil, newLeaseId(), limit)
    return leased.map((record) => this.job(record))
  }

  async nextDue(): Promise<string | null> {
    return await this.store.research.nextDue()
  }

  async renew(leaseIds: readonly string[], leaseUntil: string): Promise<string[]> {
    return await this.store.research.renew(leaseIds, leaseUntil)
  }

  async expireLeases(now: string): Promise<void> {
    await this.store.research.expireLeases(now)
  }

  private now(): string {
    return this.clock.now().toISOString()
  }

  /// Tells the organization's editors where run `id` stands, on the engine's event stream.
  private async emit(id: string, step: ResearchStep | null, state: ResearchState): Promise<void> {
    const record = (await this.store.research.byId(id)) as ResearchRecord
    this.events.emit({
      type: 'research',
      organizationId: record.organizationId,
      research: researchView(record),
      step,
      sourcesRead: state.sourcesRead ?? 0,
    })
  }

  /// A leased run as the runner's job: an attempt runs its remaining steps, each saved as it ends; after the
  /// last attempt (or a permanent failure) the run fails and is refunded in one transaction. Every write holds the
  /// lease: an attempt whose lease another replica took over saves, ends and refunds nothing.
  private job(record: ResearchRecord): Job {
    const state = JSON.parse(record.state) as ResearchState
    const leaseId = record.leaseId as string
    return {
      id: record.id,
      leaseId,
      attempts: record.attempts,
      run: async (signal) => {
        const result = await this.steps(record, state, signal)
        const ended = await this.store.research.complete(
          record.id,
          leaseId,
          JSON.stringify(result),
          this.now(),
        )
        if (ended) await this.emit(record.id, null, state)
      },
      retryLater: async (at) => await this.store.research.retryLater(record.id, leaseId, at),
      fail: async (reason) => {
        const at = this.now()
        const ended = await this.store.transaction(
          async (tx) => {
            const done = await tx.research.fail(
              record.id,
              leaseId,
              {
                code: 'research_failed',
                message: (reason || 'research failed').slice(0, 500),
                refunded: record.charged,
              },
              at,
            )
            if (done) await tx.ledger.record(record.organizationId, 'refund', record.charged, record.id, at)
            return done
          },
          { lockOrg: record.organizationId },
        )
        if (ended) await this.emit(record.id, null, state)
      },
    }
  }

  /// Saves a step's end; an attempt that lost its lease stops here (another replica runs the run now).
  private async save(record: ResearchRecord, state: ResearchState, step: ResearchStep): Promise<void> {
    if (
      !(await this.store.research.saveState(
        record.id,
        record.leaseId as string,
        JSON.stringify(state),
        this.now(),
      ))
    )
      throw new Error(`Research ${record.id}: this attempt's lease was lost; another one runs it.`)
    await this.emit(record.id, step, state)
  }

  private async steps(
    record: ResearchRecord,
    state: ResearchState,
    signal: AbortSignal,
  ): Promise<ResearchResult> {
    const client = this.client
    const judge = this.judge
    if (!client || !judge) throw new Error('Deep research needs a panel and a judge in the configuration.')
    const claim = record.text
    const today = todayOf(this.now(), ALL_STEPS)
    const web = await this.web.forOrganization(record.organizationId)

    if (!state.plan) {
      const { object } = await client.generate(judge, {
        system: planSystem(today),
        prompt: planPrompt(claim, record.context),
        schema: Plan,
        name: 'research_plan',
        signal,
      })
      const clean = (list: string[]) =>
        list
          .map((q) => normaliseSpace(q).slice(0, 300))
          .filter(Boolean)
          .slice(0, 4)
      state.plan = {
        subQuestions: clean(object.subQuestions),
        supportQueries: clean(object.supportQueries).slice(0, 3),
        contradictionQueries: clean(object.contradictionQueries).slice(0, 3),
      }
      if (state.plan.supportQueries.length === 0) state.plan.supportQueries.push(claim.slice(0, 300))
      await this.save(record, state, 'plan')
    }
    const plan = state.plan
    // Each search's passages: the best 12 by their words, of which the judge keeps at most the 6 that bear
    // most on the claim (none that do not).
    const search = async (queries: string[]): Promise<RankedPassage[]> => {
      if (queries.length === 0) return []
      const searching = web.within(web.policy)
      const found = await searching.research(claim, queries, { pagesPerQuery: 3, limit: 12, signal })
      state.withheld = addWithheld(state.withheld ?? nothingWithheld(), searching.withheld)
      const item = { claim, context: record.context }
      const { order } = await relevantPassages(
        client,
        judge,
        item,
        passageData(found.passages),
        signal,
        today,
      )
      state.pagesRead = [
        ...new Set([...(state.pagesRead ?? []), ...found.sources.map((source) => source.url)]),
      ]
      state.sourcesRead = state.pagesRead.length
      return order.slice(0, 6).map((index) => found.passages[index] as RankedPassage)
    }
    if (!state.support) {
      // The sub-questions are what settles the claim: their answers are searched as well as its support.
      state.answers ??= await search(plan.subQuestions)
      state.support = await search(plan.supportQueries)
      await this.save(record, state, 'search-support')
    }
    if (!state.contradiction) {
      const queries = plan.contradictionQueries.length > 0 ? plan.contradictionQueries : [`${claim} false`]
      state.contradiction = await search(queries)
      await this.save(record, state, 'search-contradiction')
    }
    const passages = [...(state.answers ?? []), ...state.support, ...state.contradiction].filter(
      (passage, index, all) =>
        all.findIndex((p) => p.url === passage.url && p.start === passage.start) === index,
    )
    // Nothing read bears on the claim: a map drawn from no passage holds only the models' words (or the
    // request's own instructions). The run fails, and is refunded as a failed run is.
    if (passages.length === 0)
      throw noSourceRead(state.sourcesRead ?? 0, withheldWords(state.withheld ?? nothingWithheld()))
    if (!state.map) {
      const { object } = await client.generate(judge, {
        system: mapSystem(today),
        prompt: mapPrompt(claim, plan.subQuestions, passageData(passages)),
        schema: MapDraft,
        name: 'argument_map',
        signal,
      })
      const map = await this.buildMap(web, claim, object, passages, signal)
      if (!validMap(map)) throw new Error('The argument map had no proof or dissent.')
      state.map = await this.judgedMap(web, claim, map, today, signal)
      await this.save(record, state, 'map')
    }
    const map = state.map
    state.votes ??= []
    for (const [model, handle] of this.panel) {
      if (state.votes.some((vote) => vote.model === model)) continue
      const { object } = await client.generate(handle, {
        system: mapVoteSystem(today),
        prompt: mapVotePrompt(claim, map),
        schema: MapVote,
        name: 'map_vote',
        signal,
      })
      state.votes.push({
        model,
        ...object,
        detail: consistentDetail(object.verdict, object.detail),
        rationale: object.rationale.trim().slice(0, 2000),
      })
      await this.save(record, state, 'votes')
    }
    // Votes saved by a run started before votes had kinds have none.
    const votes = state.votes
      .filter((vote) => this.panel.has(vote.model))
      .map((vote) => ({ ...vote, detail: vote.detail ?? null }))
    const { object: finding } = await client.generate(judge, {
      system: findingSystem(today),
      prompt: findingPrompt(
        claim,
        map,
        votes.map(({ verdict, detail, confidence, rationale }) => ({
          verdict,
          detail,
          confidence,
          rationale,
        })),
      ),
      schema: Finding,
      name: 'research_finding',
      signal,
    })
    await this.emit(record.id, 'verdict', state)
    const sources = distinctCitations(map.nodes.flatMap((node) => node.sources))
    // Supported needs a quote that confirms the claim, refuted one that contradicts it (a map saved before
    // stances were judged has none judged: any verified quote counts).
    const bears = (stance: Citation['stance']) =>
      sources.some((source) => source.stance === stance || source.stance === null)
    const grounded =
      finding.verdict === 'supported'
        ? bears('supports')
        : finding.verdict === 'refuted'
          ? bears('refutes')
          : true
    if (grounded) {
      const summary = finding.summary.trim().slice(0, 4000)
      return {
        verdict: finding.verdict,
        detail: consistentDetail(finding.verdict, finding.detail),
        confidence: finding.confidence,
        summary,
        votes,
        argumentMap: map,
        sources,
      }
    }
    // The judge's confidence and summary were about a verdict the sources do not bear out: the finding says
    // what happened instead, as sure as the panel was that it is unverifiable.
    const read = state.sourcesRead ?? 0
    const withheld = withheldWords(state.withheld ?? nothingWithheld())
    const why =
      read === 0
        ? 'no page could be read'
        : `of the ${read} page${read === 1 ? '' : 's'} read, none held a quote that ` +
          `${finding.verdict === 'supported' ? 'confirms' : 'contradicts'} it`
    return {
      verdict: 'unverifiable',
      detail: 'no_evidence',
      confidence: votes.filter((vote) => vote.verdict === 'unverifiable').length / Math.max(1, votes.length),
      summary:
        `No source could be verified for this claim: ${why}, so it is unverifiable. ` +
        (withheld ? `${withheld} ` : '') +
        `(The judge leaned ${finding.verdict}, on the models' own knowledge.)`,
      votes,
      argumentMap: map,
      sources,
    }
  }

  /// The map with each quote's stance toward the claim, every quote of it judged in one request (read in its
  /// page through `web`, the web under the source policy).
  private async judgedMap(
    web: Web,
    claim: string,
    map: ArgumentMap,
    today: string | null,
    signal: AbortSignal,
  ): Promise<ArgumentMap> {
    const client = this.client
    const verifier = this.verifier
    if (!client || !verifier) throw new Error('Deep research needs a judge in the configuration.')
    const quotes = distinctCitations(map.nodes.flatMap((node) => node.sources))
    const { citations } = await judgeStances(client, verifier, web, claim, quotes, today, signal)
    return {
      ...map,
      nodes: map.nodes.map((node) => ({ ...node, sources: withStances(node.sources, citations) })),
    }
  }

  /// The map from the model's draft: the claim as root, each argument a proof (supports the claim) or a
  /// dissent (attacks it), and each verified quote an evidence node that supports its argument. Quotes that
  /// are not in their source, or on a site the source policy of `web` excludes, are dropped.
  private async buildMap(
    web: Web,
    claim: string,
    draft: MapDraft,
    passages: readonly RankedPassage[],
    signal: AbortSignal,
  ): Promise<ArgumentMap> {
    const nodes: ArgumentMap['nodes'] = [{ id: 'claim', kind: 'claim', text: claim, sources: [] }]
    const edges: ArgumentMap['edges'] = []
    let argumentCount = 0
    let evidenceCount = 0
    for (const argument of draft.arguments.slice(0, 12)) {
      const text = normaliseSpace(argument.text).slice(0, 1000)
      if (!text || isInstruction(text)) continue
      const id = `a${++argumentCount}`
      const citations = await verifiedCitations(web, passages, argument.citations, signal)
      nodes.push({ id, kind: argument.kind, text, sources: citations })
      edges.push({ from: id, to: 'claim', relation: argument.kind === 'proof' ? 'supports' : 'attacks' })
      for (const citation of citations) {
        const evidence = `e${++evidenceCount}`
        nodes.push({ id: evidence, kind: 'evidence', text: citation.quote, sources: [citation] })
        edges.push({ from: evidence, to: id, relation: 'supports' })
      }
    }
    return { nodes, edges }
  }
}

/// A run whose searches left no passage to draw a map from: no page could be read, or none that was read bears
/// on the claim; `withheld` says what the source policy kept out of the searches, if anything. Retrying the same
/// searches would find the same.
function noSourceRead(pagesRead: number, withheld: string | null): PermanentError {
  const why =
    pagesRead === 0
      ? 'no page its searches found could be read'
      : `none of the ${pagesRead} page${pagesRead === 1 ? '' : 's'} read bears on it`
  return new PermanentError(
    `Deep research read no source for this claim: ${why}, so there is no argument map to show.` +
      (withheld ? ` ${withheld}` : ''),
  )
}

/// The words of a request's instruction line, as a model may echo one back as an argument ("Build the argument
/// map of "claim" from "passages".").
const INSTRUCTIONS = new Set(
  [mapPrompt('', [], []), mapVotePrompt('', null), findingPrompt('', null, []), planPrompt('', '')].map(
    (prompt) => wordsOf(prompt.split('\n')[0] ?? ''),
  ),
)

function wordsOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

/// Whether an argument is only one of the requests' instructions, not an argument about the claim.
const isInstruction = (text: string): boolean => INSTRUCTIONS.has(wordsOf(text))

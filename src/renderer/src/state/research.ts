import { createStore, type StoreApi } from 'zustand/vanilla'
import type { FactdeskApi, ReportUpdate } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'
import { ResearchStep, type Research, type ResearchRequest } from '../../../shared/schemas'
import type { EditorView } from '@codemirror/view'
import { withoutLineMarkers } from '../../../shared/markdown'
import { claimAt, claimField, claimRange } from '../editor/claims'
import { useAccount } from './account'
import { describeError, showInfo } from './notices'
import type { ChecksStoreApi } from './checks'

/// What deep research is asked about: a claim of a check (its id and text), or a text the writer selected.
export type ResearchTarget = { claimId: string; text: string } | { claimId: null; text: string }

/// A run as the panel shows it: the run, the last step that ended and the pages read so far.
export interface ResearchRun {
  research: Research
  step: ResearchStep | null
  sourcesRead: number
}

/// Where the research panel stands: confirming the price, starting, or following a run.
export type ResearchView =
  | { phase: 'pricing'; target: ResearchTarget }
  | { phase: 'confirm'; target: ResearchTarget; price: number; balance: number }
  | { phase: 'starting'; target: ResearchTarget; price: number; balance: number }
  | { phase: 'run'; run: ResearchRun }
  | { phase: 'error'; target: ResearchTarget | null; message: string }

export interface ResearchStore {
  view: ResearchView | null
  /// Opens the research panel on `target` and quotes the flat price against the balance; nothing is sent yet.
  ask(target: ResearchTarget): Promise<void>
  /// `ask` about the selected text of the editor, or else the claim at the cursor.
  askFromEditor(): Promise<void>
  /// Starts the run the panel quoted; refused in place when the balance is short.
  confirm(): Promise<void>
  /// Closes the panel; a run goes on in the engine.
  dismiss(): void
  /// Listens to pushed research progress; returns the stop.
  connect(): () => void
}

/// One window's research store.
export type ResearchStoreApi = StoreApi<ResearchStore>

/// What a research store works for: the window's bridge, its editor while it is open, and its checks store
/// (whose side panel shows the research).
export interface ResearchDesk {
  readonly api: FactdeskApi
  view(): EditorView | null
  readonly checks: ChecksStoreApi
}

const STEPS = ResearchStep.options
/// Words for each step of a run, in order.
export const STEP_NAMES: Record<ResearchStep, string> = {
  plan: 'Plan the questions',
  'search-support': 'Search for support',
  'search-contradiction': 'Search for contradiction',
  map: 'Build the argument map',
  votes: 'Panel votes on the map',
  verdict: 'Judge decides',
}

const ended = (research: Research): boolean => research.status === 'completed' || research.status === 'failed'

/// The step a run is at: the one after the last that ended, null before it starts or once it ended.
export function currentStep(run: ResearchRun): ResearchStep | null {
  if (ended(run.research) || run.research.status === 'queued') return null
  if (run.step === null) return STEPS[0] ?? null
  // Votes end one model at a time: the step is current until the judge's follows.
  if (run.step === 'votes') return 'votes'
  return STEPS[STEPS.indexOf(run.step) + 1] ?? null
}

/// Whether `step` has ended in `run`.
export function stepDone(run: ResearchRun, step: ResearchStep): boolean {
  if (run.research.status === 'completed') return true
  if (run.step === null) return false
  const last = STEPS.indexOf(run.step)
  const index = STEPS.indexOf(step)
  return index < last || (index === last && step !== 'votes')
}

/// Folds what was heard about a run into what the panel knows: a later state wins, an ended one for good, and
/// the step and pages read never go back.
export function foldRun(run: ResearchRun, heard: Partial<ResearchRun> & { research: Research }): ResearchRun {
  const keep = ended(run.research) && !ended(heard.research)
  const newer = !keep && heard.research.updatedAt >= run.research.updatedAt
  const stepOf = (step: ResearchStep | null | undefined): number => (step ? STEPS.indexOf(step) : -1)
  const step = heard.step !== undefined && stepOf(heard.step) > stepOf(run.step) ? heard.step : run.step
  return {
    research: newer || (ended(heard.research) && !ended(run.research)) ? heard.research : run.research,
    step,
    sourcesRead: Math.max(run.sourcesRead, heard.sourcesRead ?? 0),
  }
}

const EARLY_LIMIT = 50
/// Without a pushed update for this long, the run is read with `getResearch` (the stream may have dropped).
const QUIET_MS = 4000

type ResearchUpdate = Extract<ReportUpdate, { type: 'research' }>

// Follows the open run from what is heard of it, and reads it when the stream falls quiet; keeps the pushed
// updates of a run that may arrive before the answer that starts it (the latest few, by run id).
class RunFollower {
  private readonly early = new Map<string, ResearchUpdate>()
  private watchdog: ReturnType<typeof setTimeout> | null = null

  constructor(
    private readonly api: FactdeskApi,
    private readonly store: ResearchStoreApi,
  ) {}

  /// The run `research` was started: the run to follow, with what was heard of it already.
  started(research: Research): ResearchRun {
    const heard = this.early.get(research.id)
    this.early.clear()
    const run: ResearchRun = { research, step: null, sourcesRead: 0 }
    return heard ? foldRun(run, heard) : run
  }

  /// A pushed update: the open run's is folded in, another run's kept; after a `resync` the open run is read now
  /// rather than when quiet.
  heardOf(update: ReportUpdate): void {
    const id = this.runId()
    if (update.type === 'resync' && id !== null) this.read(id)
    if (update.type !== 'research') return
    if (id !== update.research.id) {
      this.early.set(update.research.id, update)
      if (this.early.size > EARLY_LIMIT) this.early.delete(this.early.keys().next().value as string)
      return
    }
    this.hear(update)
  }

  /// While a run is open, a quiet stream is checked on by reading the run.
  watch(): void {
    this.stopWatching()
    const view = this.store.getState().view
    if (view?.phase !== 'run' || ended(view.run.research)) return
    const id = view.run.research.id
    this.watchdog = setTimeout(() => {
      this.watchdog = null
      if (this.runId() === id) this.read(id)
    }, QUIET_MS)
  }

  /// The quiet stream is checked on no more (until `watch`).
  stopWatching(): void {
    if (this.watchdog) clearTimeout(this.watchdog)
    this.watchdog = null
  }

  private runId(): string | null {
    const view = this.store.getState().view
    return view?.phase === 'run' ? view.run.research.id : null
  }

  private hear(heard: Partial<ResearchRun> & { research: Research }): void {
    const view = this.store.getState().view
    if (view?.phase !== 'run' || view.run.research.id !== heard.research.id) return
    const run = foldRun(view.run, heard)
    this.store.setState({ view: { phase: 'run', run } })
    if (ended(run.research) && !ended(view.run.research)) void useAccount.getState().load(this.api)
    this.watch()
  }

  private read(id: string): void {
    this.api.getResearch(id).then(
      (research) => this.hear({ research }),
      () => this.watch(),
    )
  }
}

/// The research store of the window of `desk`: the research panel and the run it follows.
export const createResearchStore = (desk: ResearchDesk): ResearchStoreApi =>
  createStore<ResearchStore>()((set, get, store) => {
    const { api } = desk
    const follower = new RunFollower(api, store)
    return {
      view: null,

      ask: async (target) => {
        set({ view: { phase: 'pricing', target } })
        desk.checks.getState().showPanel('research')
        try {
          const credits = await api.credits()
          if (get().view?.phase !== 'pricing') return
          set({
            view: { phase: 'confirm', target, price: credits.prices.research, balance: credits.balance },
          })
        } catch (error) {
          set({ view: { phase: 'error', target, message: describeError(error) } })
        }
      },

      askFromEditor: async () => {
        const view = desk.view()
        const target = view && editorTarget(view)
        if (target) await get().ask(target)
        else {
          showInfo('Select the text to research, or put the cursor in a claim.')
        }
      },

      confirm: async () => {
        const view = get().view
        if (view?.phase !== 'confirm' || view.balance < view.price) return
        set({ view: { ...view, phase: 'starting' } })
        const request: ResearchRequest =
          view.target.claimId === null ? { text: view.target.text } : { claimId: view.target.claimId }
        try {
          const research = await api.research(request)
          set({ view: { phase: 'run', run: follower.started(research) } })
          void useAccount.getState().load(api)
          follower.watch()
        } catch (error) {
          set({ view: { phase: 'error', target: view.target, message: describeError(error) } })
          if (error instanceof ApiError && error.code === 'insufficient_credits') {
            void useAccount.getState().load(api)
          }
        }
      },

      dismiss: () => {
        follower.stopWatching()
        set({ view: null })
      },

      connect: () => api.subscribe((update) => follower.heardOf(update)),
    }
  })

// The selection's text; else the claim at the cursor, by id once it was checked (research then reads it with
// its context), by its text while it is only estimated.
function editorTarget(view: EditorView): ResearchTarget | null {
  const { from, to } = view.state.selection.main
  const selected = view.state.sliceDoc(from, to).trim()
  if (selected) return { claimId: null, text: selected }
  const id = claimAt(view, from)
  const claim = id === null ? undefined : claimRange(view.state.field(claimField), id)
  if (id === null || !claim) return sentenceAt(view, from)
  const text = view.state.sliceDoc(claim.from, claim.to)
  // An estimated claim is one of the service's too (its context comes along); a stale one is the text now.
  return claim.info.stale ? { claimId: null, text } : { claimId: id, text }
}

const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' })

/// The sentence at `pos` as free text, without Markdown's heading, quote and list markers; null on a line
/// without words.
function sentenceAt(view: EditorView, pos: number): ResearchTarget | null {
  const line = view.state.doc.lineAt(pos)
  const at = pos - line.from
  for (const { segment, index } of sentences.segment(line.text)) {
    if (at < index || at > index + segment.length) continue
    const text = withoutLineMarkers(segment).trim()
    if (/[\p{L}\p{N}]/u.test(text)) return { claimId: null, text }
  }
  return null
}

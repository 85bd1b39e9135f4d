import { createStore, type StoreApi } from 'zustand/vanilla'
import type { FactdeskApi, ReportUpdate } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'
import type {
  Check,
  CreateCheckRequest,
  Estimate,
  PatchCheckRequest,
  Report,
  Research,
  Tier,
} from '../../../shared/schemas'
import { hasEnded } from '../../../shared/vocabulary'
import type { EditorView } from '@codemirror/view'
import { claimField, claimRanges, setClaims, updateClaims } from '../editor/claims'
import { samePart, sectionAt, selectedPart, type Part } from './part'
import { ReportFeed } from './reportFeed'
import { useAccount } from './account'
import { counted } from '../../../shared/counted'
import { keptMarks, keptReport, unavailableWords } from './recheck'
import { announceEnded, askToNotify } from './systemNotice'
import { dismissNotice, showError, showInfo, useNotices } from './notices'

export interface ChecksStore {
  tiers: Tier[]
  estimate: Estimate | null
  /// The text and tiers the estimate was made for: Check submits its document only while both are unchanged,
  /// with the check whose verdicts it keeps.
  estimated: { text: string; tiers: Tier[]; previousCheckId: string | null } | null
  /// The draft's last completed check: the next Estimate and Check keep the verdicts of its unchanged claims.
  since: Check | null
  /// The part of the text the estimate and its check cover (the selection, a section); null for all of it.
  part: Part | null
  check: Check | null
  busy: 'estimating' | 'submitting' | 'cancelling' | null
  history: Check[]
  /// The deep research runs, listed in the history with the checks.
  researchHistory: Research[]
  /// The claim whose detail the side panel shows, and the report it was read from.
  openClaim: string | null
  report: Report | null
  panel: 'claim' | 'history' | 'estimate' | 'research' | null

  toggleTier(tier: Tier): void
  runEstimate(): Promise<void>
  runCheck(): Promise<void>
  /// Estimates again without keeping any verdict: the next Check checks every claim.
  checkEverythingAgain(): Promise<void>
  /// Estimates the heading's section around `pos` (by default the cursor): the next Check checks only it.
  checkSection(pos?: number): Promise<void>
  /// The settings were saved: a notice whose cause was in them goes, and an estimate that named tiers which
  /// could not run is made again, so that it says what runs now.
  settingsSaved(): Promise<void>
  cancel(id: string): Promise<void>
  patch(id: string, edits: PatchCheckRequest): Promise<boolean>
  loadHistory(): Promise<void>
  showClaim(claimId: string): Promise<void>
  showPanel(panel: ChecksStore['panel']): void
  /// Follows the check of `report`, whose claims the editor already shows (a reopened draft): its later
  /// updates land on them, votes counted out of the panel's size.
  showReport(report: Report): void
  /// Shows a check that started from the queue on the claims of the estimate it was queued from, if the editor
  /// still shows that estimate and no other check runs.
  followStarted(check: Check): void
  /// The submission of `estimate` as the store holds it: its tiers, the check it keeps verdicts from, and a
  /// name (the draft's) that says which part of the draft it covers.
  submission(estimate: Estimate): CreateCheckRequest
  /// Listens to pushed report updates; returns the stop.
  connect(): () => void
}

/// One window's checks store.
export type ChecksStoreApi = StoreApi<ChecksStore>

/// What a checks store works for: the window's bridge, its editor while it is open, and the name a check of
/// the open draft goes by.
export interface ChecksDesk {
  readonly api: FactdeskApi
  view(): EditorView | null
  checkName(): string | undefined
}

// What the store's actions share: the window, the store itself, and the running check's report as it comes.
interface Checks {
  readonly desk: ChecksDesk
  readonly set: ChecksStoreApi['setState']
  readonly get: ChecksStoreApi['getState']
  readonly feed: ReportFeed
}

const sameTiers = (a: readonly Tier[], b: readonly Tier[]): boolean =>
  a.length === b.length && a.every((tier) => b.includes(tier))

/// The later of two states of a check: an ended one wins, then the later update.
const later = (a: Check, b: Check): Check =>
  hasEnded(a) !== hasEnded(b) ? (hasEnded(a) ? a : b) : a.updatedAt >= b.updatedAt ? a : b
const refreshBalance = (api: FactdeskApi): void => void useAccount.getState().load(api)

/// The checks store of the window of `desk`: its estimate, the check it follows, the history and the side
/// panel.
export function createChecksStore(desk: ChecksDesk): ChecksStoreApi {
  const store = createStore<ChecksStore>()((set, get) => {
    const feed = new ReportFeed((deltas) => desk.view()?.dispatch({ effects: updateClaims.of(deltas) }))
    const checks: Checks = { desk, set, get, feed }
    return {
      tiers: ['t1'],
      estimate: null,
      estimated: null,
      since: null,
      part: null,
      check: null,
      busy: null,
      history: [],
      researchHistory: [],
      openClaim: null,
      report: null,
      panel: null,
      ...estimateActions(checks),
      ...checkActions(checks),
      ...panelActions(checks),
    }
  })
  // A completed check becomes the one the draft's next Estimate and Check keep verdicts from.
  // A part's check does not: the next check of the whole text would keep only that part's claims.
  store.subscribe(({ check, since, part }) => {
    if (check?.status === 'completed' && check.id !== since?.id && part === null)
      store.setState({ since: check })
  })
  return store
}

// Reads the whole report once and shows every claim's state: after submitting (events may have come first),
// when the check ends, and when the stream may have missed some of its updates. An end found this way is told
// as if it had been heard.
async function reconcile({ desk, set, get, feed }: Checks, check: Check): Promise<void> {
  const heard = feed.startReading()
  try {
    const report = await desk.api.report(check.id)
    const current = get().check
    if (current?.id !== check.id) return
    const latest = later(report.check, current)
    feed.caughtUp(report, heard, latest)
    set({ report: { ...report, check: latest }, check: latest })
    if (hasEnded(latest) && !hasEnded(current)) {
      refreshBalance(desk.api)
      announceEnded(latest)
    }
  } catch (error) {
    showError(error)
  } finally {
    feed.doneReading(heard)
  }
}

function onUpdate(checks: Checks, update: ReportUpdate): void {
  const { desk, set, get, feed } = checks
  // Deep research progress is the research panel's, and queued checks are the pending store's.
  if (update.type === 'research' || update.type === 'pending') return
  const check = get().check
  if (update.type === 'resync') {
    if (check && !hasEnded(check)) void reconcile(checks, check)
    if (get().panel === 'history') void get().loadHistory()
    return
  }
  const updateCheckId = update.type === 'check' ? update.check.id : update.checkId
  feed.heardOf(update, check?.id === updateCheckId)
  if (update.type === 'claim') {
    if (check?.id === update.checkId) feed.claimChanged(update, check)
    return
  }
  const history = get().history
  if (history.some((each) => each.id === update.check.id)) {
    set({ history: history.map((each) => (each.id === update.check.id ? update.check : each)) })
  }
  if (check?.id !== update.check.id) return
  const next = later(update.check, check)
  set({ check: next })
  if (hasEnded(next) && !hasEnded(check)) {
    void reconcile(checks, next)
    refreshBalance(desk.api)
    announceEnded(next)
  }
}

// Shows `check` on the claims of `estimate`, which the editor shows, as its updates come.
function follow(checks: Checks, check: Check, estimate: Estimate): void {
  const { desk, set, get, feed } = checks
  feed.restart(
    estimate.claims.map((claim) => ({
      claimId: claim.claimId,
      charStart: claim.charStart,
      votes: {},
      consensus: {},
      issues: [],
    })),
    {},
  )
  // Kept claims show their verdicts already: the report brings them back.
  const toCheck = estimate.claims.filter((claim) => claim.carriedFrom === null)
  feed.showProgress(
    check,
    toCheck.map((claim) => claim.claimId),
  )
  set({ check, busy: null, estimate: null, estimated: null, panel: null, openClaim: null })
  refreshBalance(desk.api)
  // What the stream brought before this answer, then the report for anything missed.
  for (const update of feed.takeEarly(check.id)) onUpdate(checks, update)
  void reconcile(checks, get().check ?? check)
}

// Estimates the text, or only `part` of it (its claims placed on the whole text's words); a re-check of the
// draft's last check unless `everything` (a part is checked anew: its edges are not the whole text's context).
async function estimateNow(
  { desk, set, get }: Checks,
  { everything = false, part = null }: { everything?: boolean; part?: Part | null } = {},
): Promise<Estimate | null> {
  const view = desk.view()
  if (!view) return null
  const text = view.state.doc.toString()
  const submitted = part ? text.slice(part.from, part.to) : text
  const tiers = get().tiers
  if (submitted.trim() === '') {
    showInfo('Write something first: there is nothing to estimate yet.')
    return null
  }
  const previousCheckId = everything || part ? null : (get().since?.id ?? null)
  set({ busy: 'estimating' })
  dismissNotice()
  try {
    const estimate = await desk.api.estimate({ text: submitted, tiers, ...recheckOf(previousCheckId) })
    // The writer may have typed while the estimate ran: its offsets then refer to older text.
    if (view.state.doc.toString() !== text) {
      set({ busy: null })
      showInfo('The text changed while estimating. Estimate again.')
      return null
    }
    showEstimated(view, estimate, part?.from ?? 0, get().since)
    set({
      estimate,
      estimated: { text, tiers, previousCheckId },
      part,
      busy: null,
      panel: 'estimate',
      check: null,
      report: null,
    })
    return estimate
  } catch (error) {
    set({ busy: null })
    showError(error)
    return null
  }
}

// Marks the claims of `estimate` (at `offset` in the text) in the editor: a kept claim goes on showing its
// verdict from the check `since`; the others are to check.
function showEstimated(view: EditorView, estimate: Estimate, offset: number, since: Check | null): void {
  const kept = keptMarks(claimRanges(view.state.field(claimField)), estimate, offset, since)
  view.dispatch({
    effects: setClaims.of(
      estimate.claims.map((claim) => ({
        claimId: claim.claimId,
        from: claim.charStart + offset,
        to: claim.charEnd + offset,
        stage: 'estimated',
        votes: 0,
        panel: null,
        issues: [],
        ...kept.get(claim.claimId),
      })),
    ),
  })
}

// A new estimate would take the running check's claims off the editor (it runs on, out of sight, and can no
// longer be cancelled here): while one runs, Estimate and Check say so instead.
function refuseWhileRunning({ get }: Checks): boolean {
  const check = get().check
  if (!check || hasEnded(check)) return false
  showInfo('A check is running: wait for its verdicts, or cancel it first.')
  return true
}

type EstimateActions = Pick<
  ChecksStore,
  'toggleTier' | 'runEstimate' | 'checkEverythingAgain' | 'settingsSaved' | 'checkSection'
>

function estimateActions(checks: Checks): EstimateActions {
  const { desk, set, get } = checks
  return {
    toggleTier: (tier) => {
      const tiers = get().tiers
      const next = tiers.includes(tier) ? tiers.filter((each) => each !== tier) : [...tiers, tier]
      if (next.length > 0) set({ tiers: next })
      else showInfo('A check needs at least one tier: turn on another first.')
    },

    runEstimate: async () => {
      if (refuseWhileRunning(checks)) return
      const view = desk.view()
      await estimateNow(checks, { part: view && selectedPart(view.state) })
    },

    checkEverythingAgain: async () => {
      if (get().busy || refuseWhileRunning(checks)) return
      const fresh = await estimateNow(checks, { everything: true })
      if (fresh)
        showInfo(
          `Every claim will be checked again: ${counted(fresh.credits.total, 'credit')}. Press Check to submit.`,
        )
    },

    settingsSaved: async () => {
      if (useNotices.getState().notice?.settings) dismissNotice()
      const { estimate, busy, part } = get()
      if (estimate && estimate.unavailable.length > 0 && busy === null) await estimateNow(checks, { part })
    },

    checkSection: async (pos) => {
      const view = desk.view()
      if (!view || get().busy || refuseWhileRunning(checks)) return
      const section = sectionAt(view.state.doc.toString(), pos ?? view.state.selection.main.head)
      if (!section) {
        showInfo('This text has no headings: Check checks all of it.')
        return
      }
      const fresh = await estimateNow(checks, { part: section })
      if (fresh)
        showInfo(`${section.name}: ${counted(fresh.credits.total, 'credit')}. Press Check to submit.`)
    },
  }
}

// Check: submits the estimate while the text, tiers and part are those it was made for; else estimates them
// anew and says the new price.
async function runCheck(checks: Checks): Promise<void> {
  const { desk, get } = checks
  const view = desk.view()
  if (!view || get().busy || refuseWhileRunning(checks)) return
  const { estimate, estimated, tiers, part } = get()
  // The selection, else the part estimated (a section asked for), else the whole text.
  const wanted = selectedPart(view.state) ?? part
  const unchanged =
    estimate !== null &&
    estimated !== null &&
    estimated.text === view.state.doc.toString() &&
    sameTiers(estimated.tiers, tiers) &&
    samePart(part, wanted)
  if (!unchanged) {
    const fresh = await estimateNow(checks, { part: wanted })
    const why = estimate === null ? '' : 'The text or tiers changed since the last estimate. '
    if (fresh)
      showInfo(`${why}New price: ${counted(fresh.credits.total, 'credit')}. Press Check again to submit.`)
    return
  }
  if (!estimate.sufficient) {
    useNotices.getState().show({
      kind: 'error',
      text: `Not enough credits: this check costs ${counted(estimate.credits.total, 'credit')} and the balance is ${estimate.balance}. Nothing was submitted.`,
    })
    return
  }
  if (estimate.unavailable.length > 0) {
    useNotices.getState().show({
      kind: 'error',
      text: `${unavailableWords(estimate)} Nothing was submitted.`,
      settings: true,
    })
    return
  }
  await submit(checks, estimate)
}

async function submit(checks: Checks, estimate: Estimate): Promise<void> {
  const { desk, set, get } = checks
  set({ busy: 'submitting' })
  dismissNotice()
  askToNotify()
  try {
    follow(checks, await desk.api.submit(get().submission(estimate)), estimate)
  } catch (error) {
    const offline = error instanceof ApiError && error.code === 'providers_unreachable'
    set({ busy: null })
    if (offline)
      useNotices.getState().show({
        kind: 'error',
        text:
          'This check cannot start: the models or the search it needs cannot be reached (are you ' +
          'offline?). Nothing was charged.',
        offline,
      })
    else showError(error)
    if (error instanceof ApiError && error.code === 'insufficient_credits') refreshBalance(desk.api)
  }
}

type CheckActions = Pick<ChecksStore, 'runCheck' | 'followStarted' | 'cancel' | 'patch' | 'submission'>

function checkActions(checks: Checks): CheckActions {
  const { desk, set, get } = checks
  return {
    runCheck: () => runCheck(checks),

    followStarted: (check) => {
      const { estimate, check: current } = get()
      if (estimate?.documentId !== check.documentId) return
      if (current && !hasEnded(current)) return
      follow(checks, check, estimate)
    },

    cancel: async (id) => {
      set({ busy: 'cancelling' })
      dismissNotice()
      try {
        const check = await desk.api.cancel(id)
        set({
          busy: null,
          check: get().check?.id === id ? check : get().check,
          history: get().history.map((each) => (each.id === id ? check : each)),
        })
        showInfo(`Check cancelled: ${check.credits.refunded} credits refunded.`)
        refreshBalance(desk.api)
        if (get().check?.id === id) void reconcile(checks, check)
      } catch (error) {
        set({ busy: null })
        showError(error)
      }
    },

    patch: async (id, edits) => {
      try {
        const check = await desk.api.patch(id, edits)
        set({
          history: get().history.map((each) => (each.id === id ? check : each)),
          check: get().check?.id === id ? check : get().check,
        })
        return true
      } catch (error) {
        showError(error)
        return false
      }
    },

    submission: (estimate) => {
      const { tiers, part, estimated } = get()
      const name = desk.checkName()
      return {
        documentId: estimate.documentId,
        tiers,
        name: part ? [name, part.name].filter(Boolean).join(' · ') : name,
        ...recheckOf(estimated?.previousCheckId ?? null),
      }
    },
  }
}

type PanelActions = Pick<ChecksStore, 'loadHistory' | 'showClaim' | 'showPanel' | 'showReport' | 'connect'>

function panelActions(checks: Checks): PanelActions {
  const { desk, set, get, feed } = checks
  const { api } = desk
  return {
    loadHistory: async () => {
      try {
        const [page, research] = await Promise.all([api.listChecks({ limit: 50 }), api.listResearch()])
        set({ history: page.data, researchHistory: research.data })
      } catch (error) {
        showError(error)
      }
    },

    showClaim: async (claimId) => {
      set({ openClaim: claimId, panel: 'claim' })
      const { check, estimate } = get()
      try {
        // A kept claim of an estimate shows the verdicts it keeps.
        if (!check) {
          const kept = estimate && (await keptReport(api, estimate, claimId))
          if (kept && get().openClaim === claimId && get().estimate === estimate) set({ report: kept })
          return
        }
        const report = await api.report(check.id)
        if (get().check?.id === check.id) set({ report })
      } catch (error) {
        showError(error)
      }
    },

    showPanel: (panel) => set({ panel }),

    showReport: (report) => {
      feed.restartFrom(report)
      // The tier toggles follow the check shown, so that the next Check of a reopened draft asks for its tiers.
      set({ check: report.check, report, tiers: report.check.tiers })
    },

    connect: () => api.subscribe((update) => onUpdate(checks, update)),
  }
}

/// The member that makes a request a re-check, only when it is one: a service from before re-checks refuses it.
const recheckOf = (previousCheckId: string | null): { previousCheckId?: string } =>
  previousCheckId === null ? {} : { previousCheckId }

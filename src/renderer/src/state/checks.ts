import { create } from 'zustand'
import type { FactdeskApi, ReportUpdate } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'
import type {
  Check,
  CreateCheckRequest,
  Estimate,
  PatchCheckRequest,
  Report,
  Tier,
} from '../../../shared/schemas'
import {
  claimField,
  claimRanges,
  clearClaims,
  setClaims,
  updateClaims,
  type ClaimDelta,
} from '../editor/claims'
import { checkName } from './drafts'
import { samePart, sectionAt, selectedPart, type Part } from './part'
import { editorView } from './editorView'
import { applyUpdate, deltaOf, progressOf, type ClaimProgress } from './progress'
import { useAccount } from './account'
import { counted } from '../../../shared/counted'
import { keptMarks, keptReport } from './recheck'
import { announceEnded, askToNotify } from './systemNotice'

/// A message shown in place: what went wrong, or what the writer should know, in words.
export interface Notice {
  kind: 'error' | 'info'
  text: string
  /// The check could not start because its providers are unreachable: offer to queue it ("Check when online").
  offline?: boolean
}

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
  notice: Notice | null
  history: Check[]
  /// The claim whose detail the side panel shows, and the report it was read from.
  openClaim: string | null
  report: Report | null
  panel: 'claim' | 'history' | 'estimate' | 'research' | null

  toggleTier(tier: Tier): void
  runEstimate(api: FactdeskApi): Promise<void>
  runCheck(api: FactdeskApi): Promise<void>
  /// Estimates again without keeping any verdict: the next Check checks every claim.
  checkEverythingAgain(api: FactdeskApi): Promise<void>
  /// Estimates the heading's section around `pos` (by default the cursor): the next Check checks only it.
  checkSection(api: FactdeskApi, pos?: number): Promise<void>
  cancel(api: FactdeskApi, id: string): Promise<void>
  patch(api: FactdeskApi, id: string, edits: PatchCheckRequest): Promise<boolean>
  loadHistory(api: FactdeskApi): Promise<void>
  showClaim(api: FactdeskApi, claimId: string): Promise<void>
  showPanel(panel: ChecksStore['panel']): void
  /// Follows the check of `report`, whose claims the editor already shows (a reopened draft): its later
  /// updates land on them, votes counted out of the panel's size.
  showReport(report: Report): void
  /// Shows a check that started from the queue on the claims of the estimate it was queued from, if the editor
  /// still shows that estimate and no other check runs.
  followStarted(api: FactdeskApi, check: Check): void
  /// Listens to pushed report updates; returns the stop.
  connect(api: FactdeskApi): () => void
  dismissNotice(): void
}

const sameTiers = (a: readonly Tier[], b: readonly Tier[]): boolean =>
  a.length === b.length && a.every((tier) => b.includes(tier))

/// Words for a failure: the engine's own message for an `ApiError`, never a stack or JSON.
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message
  return 'Something went wrong. Your text is safe; try again.'
}

// Per-claim progress of the running check, and the deltas waiting for the next frame: hundreds of pushed
// updates become one transaction.
let progress = new Map<string, ClaimProgress>()
// The running check's panel size per tier, from its report (unknown until the first report is read).
let panelSize: Report['panel'] = {}
// Updates of checks the page does not know yet, the latest few: the stream may bring a check's first events
// before the answer to its submission arrives.
let early: ReportUpdate[] = []
const EARLY_LIMIT = 2000
// Updates heard while a report is being read, replayed over it so that the older snapshot loses nothing.
let replay: ReportUpdate[] | null = null
const ENDED = new Set(['completed', 'failed', 'cancelled'])
/// The later of two states of a check: an ended one wins, then the later update.
const later = (a: Check, b: Check): Check =>
  ENDED.has(a.status) !== ENDED.has(b.status)
    ? ENDED.has(a.status)
      ? a
      : b
    : a.updatedAt >= b.updatedAt
      ? a
      : b
let pending = new Map<string, ClaimDelta>()
let scheduled = false

function flush(): void {
  scheduled = false
  const deltas = [...pending.values()]
  pending = new Map()
  const view = editorView()
  if (view && deltas.length > 0) view.dispatch({ effects: updateClaims.of(deltas) })
}

function schedule(delta: ClaimDelta): void {
  pending.set(delta.claimId, { ...pending.get(delta.claimId), ...delta })
  if (scheduled) return
  scheduled = true
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(flush)
  else setTimeout(flush, 0)
}

const refreshBalance = (api: FactdeskApi): void => void useAccount.getState().load(api)

export const useChecks = create<ChecksStore>()((set, get) => {
  // Reads the whole report once and shows every claim's state: after submitting (events may have come first),
  // when the check ends, and when the stream may have missed some of its updates. An end found this way is told
  // as if it had been heard.
  async function reconcile(api: FactdeskApi, check: Check): Promise<void> {
    const heard: ReportUpdate[] = replay ?? []
    replay = heard
    try {
      const report = await api.report(check.id)
      const current = get().check
      if (current?.id !== check.id) return
      progress = new Map(report.claims.map((claim) => [claim.claimId, progressOf(claim)]))
      panelSize = report.panel
      for (const update of heard) {
        if (update.type !== 'claim' || update.checkId !== check.id) continue
        const claim = progress.get(update.claimId)
        if (claim) progress.set(update.claimId, applyUpdate(claim, update))
      }
      const latest = later(report.check, current)
      for (const claim of progress.values()) schedule(deltaOf(claim, latest, panelSize))
      set({ report: { ...report, check: latest }, check: latest })
      if (ENDED.has(latest.status) && !ENDED.has(current.status)) {
        refreshBalance(api)
        announceEnded(latest)
      }
    } catch (error) {
      set({ notice: { kind: 'error', text: describeError(error) } })
    } finally {
      if (replay === heard) replay = null
    }
  }

  function onUpdate(api: FactdeskApi, update: ReportUpdate): void {
    // Deep research progress is the research panel's, and queued checks are the pending store's.
    if (update.type === 'research' || update.type === 'pending') return
    const check = get().check
    if (update.type === 'resync') {
      if (check && !ENDED.has(check.status)) void reconcile(api, check)
      if (get().panel === 'history') void get().loadHistory(api)
      return
    }
    replay?.push(update)
    const updateCheckId = update.type === 'check' ? update.check.id : update.checkId
    if (check?.id !== updateCheckId) {
      early.push(update)
      if (early.length > EARLY_LIMIT) early = early.slice(-EARLY_LIMIT / 2)
    }
    if (update.type === 'check') {
      const history = get().history
      if (history.some((each) => each.id === update.check.id)) {
        set({ history: history.map((each) => (each.id === update.check.id ? update.check : each)) })
      }
      if (check?.id !== update.check.id) return
      const next = later(update.check, check)
      set({ check: next })
      if (ENDED.has(next.status) && !ENDED.has(check.status)) {
        void reconcile(api, next)
        refreshBalance(api)
        announceEnded(next)
      }
      return
    }
    if (check?.id !== update.checkId) return
    const claim = progress.get(update.claimId)
    if (!claim) return
    const next = applyUpdate(claim, update)
    progress.set(update.claimId, next)
    schedule(deltaOf(next, check, panelSize))
  }

  // Shows `check` on the claims of `estimate`, which the editor shows, as its updates come.
  function follow(api: FactdeskApi, check: Check, estimate: Estimate): void {
    progress = new Map(
      estimate.claims.map((claim) => [
        claim.claimId,
        { claimId: claim.claimId, charStart: claim.charStart, votes: {}, consensus: {}, issues: [] },
      ]),
    )
    pending = new Map()
    panelSize = {}
    // Kept claims show their verdicts already: the report brings them back.
    for (const claim of estimate.claims)
      if (claim.carriedFrom === null)
        schedule(deltaOf(progress.get(claim.claimId) as ClaimProgress, check, panelSize))
    set({ check, busy: null, estimate: null, estimated: null, panel: null, openClaim: null })
    refreshBalance(api)
    // What the stream brought before this answer, then the report for anything missed.
    const before = early.filter((update) =>
      update.type === 'check'
        ? update.check.id === check.id
        : update.type === 'claim' && update.checkId === check.id,
    )
    early = []
    for (const update of before) onUpdate(api, update)
    void reconcile(api, get().check ?? check)
  }

  // Estimates the text, or only `part` of it (its claims placed on the whole text's words); a re-check of the
  // draft's last check unless `everything` (a part is checked anew: its edges are not the whole text's context).
  async function estimateNow(
    api: FactdeskApi,
    { everything = false, part = null }: { everything?: boolean; part?: Part | null } = {},
  ): Promise<Estimate | null> {
    const view = editorView()
    if (!view) return null
    const text = view.state.doc.toString()
    const submitted = part ? text.slice(part.from, part.to) : text
    const offset = part?.from ?? 0
    const tiers = get().tiers
    if (submitted.trim() === '') {
      set({ notice: { kind: 'info', text: 'Write something first: there is nothing to estimate yet.' } })
      return null
    }
    const previousCheckId = everything || part ? null : (get().since?.id ?? null)
    set({ busy: 'estimating', notice: null })
    try {
      const estimate = await api.estimate({ text: submitted, tiers, ...recheckOf(previousCheckId) })
      // The writer may have typed while the estimate ran: its offsets then refer to older text.
      if (view.state.doc.toString() !== text) {
        set({
          busy: null,
          notice: { kind: 'info', text: 'The text changed while estimating. Estimate again.' },
        })
        return null
      }
      // A kept claim goes on showing its verdict; the others are to check.
      const kept = keptMarks(claimRanges(view.state.field(claimField)), estimate, offset, get().since)
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
      set({ busy: null, notice: { kind: 'error', text: describeError(error) } })
      return null
    }
  }

  // A new estimate would take the running check's claims off the editor (it runs on, out of sight, and can no
  // longer be cancelled here): while one runs, Estimate and Check say so instead.
  function refuseWhileRunning(): boolean {
    const check = get().check
    if (!check || ENDED.has(check.status)) return false
    set({ notice: { kind: 'info', text: 'A check is running: wait for its verdicts, or cancel it first.' } })
    return true
  }

  return {
    tiers: ['t1'],
    estimate: null,
    estimated: null,
    since: null,
    part: null,
    check: null,
    busy: null,
    notice: null,
    history: [],
    openClaim: null,
    report: null,
    panel: null,

    toggleTier: (tier) => {
      const tiers = get().tiers
      const next = tiers.includes(tier) ? tiers.filter((each) => each !== tier) : [...tiers, tier]
      if (next.length > 0) set({ tiers: next })
      else set({ notice: { kind: 'info', text: 'A check needs at least one tier: turn on another first.' } })
    },

    runEstimate: async (api) => {
      if (refuseWhileRunning()) return
      const view = editorView()
      await estimateNow(api, { part: view && selectedPart(view.state) })
    },

    runCheck: async (api) => {
      const view = editorView()
      if (!view || get().busy || refuseWhileRunning()) return
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
        const fresh = await estimateNow(api, { part: wanted })
        const why = estimate === null ? '' : 'The text or tiers changed since the last estimate. '
        if (fresh)
          set({
            notice: {
              kind: 'info',
              text: `${why}New price: ${counted(fresh.credits.total, 'credit')}. Press Check again to submit.`,
            },
          })
        return
      }
      if (!estimate.sufficient) {
        set({
          notice: {
            kind: 'error',
            text: `Not enough credits: this check costs ${counted(estimate.credits.total, 'credit')} and the balance is ${estimate.balance}. Nothing was submitted.`,
          },
        })
        return
      }
      set({ busy: 'submitting', notice: null })
      askToNotify()
      try {
        follow(api, await api.submit(submission(estimate)), estimate)
      } catch (error) {
        const offline = error instanceof ApiError && error.code === 'providers_unreachable'
        set({
          busy: null,
          notice: offline
            ? {
                kind: 'error',
                text:
                  'This check cannot start: the models or the search it needs cannot be reached (are you ' +
                  'offline?). Nothing was charged.',
                offline,
              }
            : { kind: 'error', text: describeError(error) },
        })
        if (error instanceof ApiError && error.code === 'insufficient_credits') refreshBalance(api)
      }
    },

    checkEverythingAgain: async (api) => {
      if (get().busy || refuseWhileRunning()) return
      const fresh = await estimateNow(api, { everything: true })
      if (fresh)
        set({
          notice: {
            kind: 'info',
            text: `Every claim will be checked again: ${counted(fresh.credits.total, 'credit')}. Press Check to submit.`,
          },
        })
    },

    checkSection: async (api, pos) => {
      const view = editorView()
      if (!view || get().busy || refuseWhileRunning()) return
      const section = sectionAt(view.state.doc.toString(), pos ?? view.state.selection.main.head)
      if (!section) {
        set({ notice: { kind: 'info', text: 'This text has no headings: Check checks all of it.' } })
        return
      }
      const fresh = await estimateNow(api, { part: section })
      if (fresh)
        set({
          notice: {
            kind: 'info',
            text: `${section.name}: ${counted(fresh.credits.total, 'credit')}. Press Check to submit.`,
          },
        })
    },

    followStarted: (api, check) => {
      const { estimate, check: current } = get()
      if (estimate?.documentId !== check.documentId) return
      if (current && !ENDED.has(current.status)) return
      follow(api, check, estimate)
    },

    cancel: async (api, id) => {
      set({ busy: 'cancelling', notice: null })
      try {
        const check = await api.cancel(id)
        set({
          busy: null,
          check: get().check?.id === id ? check : get().check,
          history: get().history.map((each) => (each.id === id ? check : each)),
          notice: { kind: 'info', text: `Check cancelled: ${check.credits.refunded} credits refunded.` },
        })
        refreshBalance(api)
        if (get().check?.id === id) void reconcile(api, check)
      } catch (error) {
        set({ busy: null, notice: { kind: 'error', text: describeError(error) } })
      }
    },

    patch: async (api, id, edits) => {
      try {
        const check = await api.patch(id, edits)
        set({
          history: get().history.map((each) => (each.id === id ? check : each)),
          check: get().check?.id === id ? check : get().check,
        })
        return true
      } catch (error) {
        set({ notice: { kind: 'error', text: describeError(error) } })
        return false
      }
    },

    loadHistory: async (api) => {
      try {
        const page = await api.listChecks({ limit: 50 })
        set({ history: page.data })
      } catch (error) {
        set({ notice: { kind: 'error', text: describeError(error) } })
      }
    },

    showClaim: async (api, claimId) => {
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
        set({ notice: { kind: 'error', text: describeError(error) } })
      }
    },

    showPanel: (panel) => set({ panel }),

    showReport: (report) => {
      progress = new Map(report.claims.map((claim) => [claim.claimId, progressOf(claim)]))
      pending = new Map()
      panelSize = report.panel
      // The tier toggles follow the check shown, so that the next Check of a reopened draft asks for its tiers.
      set({ check: report.check, report, tiers: report.check.tiers })
    },

    connect: (api) => api.subscribe((update) => onUpdate(api, update)),

    dismissNotice: () => set({ notice: null }),
  }
})

// A completed check becomes the one the draft's next Estimate and Check keep verdicts from.
// A part's check does not: the next check of the whole text would keep only that part's claims.
useChecks.subscribe(({ check, since, part }) => {
  if (check?.status === 'completed' && check.id !== since?.id && part === null)
    useChecks.setState({ since: check })
})

/// The member that makes a request a re-check, only when it is one: a service from before re-checks refuses it.
const recheckOf = (previousCheckId: string | null): { previousCheckId?: string } =>
  previousCheckId === null ? {} : { previousCheckId }

/// The submission of `estimate` as the store holds it: its tiers, the check it keeps verdicts from, and a name
/// that says which part of the draft it covers.
export function submission(estimate: Estimate): CreateCheckRequest {
  const { tiers, part, estimated } = useChecks.getState()
  return {
    documentId: estimate.documentId,
    tiers,
    name: part ? [checkName(), part.name].filter(Boolean).join(' · ') : checkName(),
    ...recheckOf(estimated?.previousCheckId ?? null),
  }
}

/// Forgets the claims shown in the editor.
export function clearEditorClaims(): void {
  editorView()?.dispatch({ effects: clearClaims.of(null) })
}

import { create } from 'zustand'
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
import type { Desk } from './desk'
import { ReportFeed } from './reportFeed'
import { applyUpdate, deltaOf, progressOf } from './progress'
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
  runEstimate(api: FactdeskApi): Promise<void>
  runCheck(api: FactdeskApi): Promise<void>
  /// Estimates again without keeping any verdict: the next Check checks every claim.
  checkEverythingAgain(api: FactdeskApi): Promise<void>
  /// Estimates the heading's section around `pos` (by default the cursor): the next Check checks only it.
  checkSection(api: FactdeskApi, pos?: number): Promise<void>
  /// The settings were saved: a notice whose cause was in them goes, and an estimate that named tiers which
  /// could not run is made again, so that it says what runs now.
  settingsSaved(api: FactdeskApi): Promise<void>
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
  /// Works for the window of `desk`: follows its editor, and listens to pushed report updates; returns the stop.
  connect(desk: Desk): () => void
}

const sameTiers = (a: readonly Tier[], b: readonly Tier[]): boolean =>
  a.length === b.length && a.every((tier) => b.includes(tier))

/// The later of two states of a check: an ended one wins, then the later update.
const later = (a: Check, b: Check): Check =>
  hasEnded(a) !== hasEnded(b) ? (hasEnded(a) ? a : b) : a.updatedAt >= b.updatedAt ? a : b
const refreshBalance = (api: FactdeskApi): void => void useAccount.getState().load(api)

export const useChecks = create<ChecksStore>()((set, get) => {
  // The window this store works for, once connected.
  let desk: Desk | null = null
  const editorView = (): EditorView | null => desk?.view() ?? null
  const feed = new ReportFeed((deltas) => editorView()?.dispatch({ effects: updateClaims.of(deltas) }))

  // Reads the whole report once and shows every claim's state: after submitting (events may have come first),
  // when the check ends, and when the stream may have missed some of its updates. An end found this way is told
  // as if it had been heard.
  async function reconcile(api: FactdeskApi, check: Check): Promise<void> {
    const heard: ReportUpdate[] = feed.replay ?? []
    feed.replay = heard
    try {
      const report = await api.report(check.id)
      const current = get().check
      if (current?.id !== check.id) return
      feed.restart(report.claims.map(progressOf), report.panel)
      for (const update of heard) {
        if (update.type !== 'claim' || update.checkId !== check.id) continue
        const claim = feed.progress.get(update.claimId)
        if (claim) feed.progress.set(update.claimId, applyUpdate(claim, update))
      }
      const latest = later(report.check, current)
      for (const claim of feed.progress.values()) feed.schedule(deltaOf(claim, latest, feed.panel))
      set({ report: { ...report, check: latest }, check: latest })
      if (hasEnded(latest) && !hasEnded(current)) {
        refreshBalance(api)
        announceEnded(latest)
      }
    } catch (error) {
      showError(error)
    } finally {
      if (feed.replay === heard) feed.replay = null
    }
  }

  function onUpdate(api: FactdeskApi, update: ReportUpdate): void {
    // Deep research progress is the research panel's, and queued checks are the pending store's.
    if (update.type === 'research' || update.type === 'pending') return
    const check = get().check
    if (update.type === 'resync') {
      if (check && !hasEnded(check)) void reconcile(api, check)
      if (get().panel === 'history') void get().loadHistory(api)
      return
    }
    feed.replay?.push(update)
    const updateCheckId = update.type === 'check' ? update.check.id : update.checkId
    if (check?.id !== updateCheckId) feed.keepEarly(update)
    if (update.type === 'check') {
      const history = get().history
      if (history.some((each) => each.id === update.check.id)) {
        set({ history: history.map((each) => (each.id === update.check.id ? update.check : each)) })
      }
      if (check?.id !== update.check.id) return
      const next = later(update.check, check)
      set({ check: next })
      if (hasEnded(next) && !hasEnded(check)) {
        void reconcile(api, next)
        refreshBalance(api)
        announceEnded(next)
      }
      return
    }
    if (check?.id !== update.checkId) return
    const claim = feed.progress.get(update.claimId)
    if (!claim) return
    const next = applyUpdate(claim, update)
    feed.progress.set(update.claimId, next)
    feed.schedule(deltaOf(next, check, feed.panel))
  }

  // Shows `check` on the claims of `estimate`, which the editor shows, as its updates come.
  function follow(api: FactdeskApi, check: Check, estimate: Estimate): void {
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
    for (const claim of estimate.claims) {
      const progress = feed.progress.get(claim.claimId)
      if (claim.carriedFrom === null && progress) feed.schedule(deltaOf(progress, check, feed.panel))
    }
    set({ check, busy: null, estimate: null, estimated: null, panel: null, openClaim: null })
    refreshBalance(api)
    // What the stream brought before this answer, then the report for anything missed.
    for (const update of feed.takeEarly(check.id)) onUpdate(api, update)
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
      showInfo('Write something first: there is nothing to estimate yet.')
      return null
    }
    const previousCheckId = everything || part ? null : (get().since?.id ?? null)
    set({ busy: 'estimating' })
    dismissNotice()
    try {
      const estimate = await api.estimate({ text: submitted, tiers, ...recheckOf(previousCheckId) })
      // The writer may have typed while the estimate ran: its offsets then refer to older text.
      if (view.state.doc.toString() !== text) {
        set({ busy: null })
        showInfo('The text changed while estimating. Estimate again.')
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
      set({ busy: null })
      showError(error)
      return null
    }
  }

  // A new estimate would take the running check's claims off the editor (it runs on, out of sight, and can no
  // longer be cancelled here): while one runs, Estimate and Check say so instead.
  function refuseWhileRunning(): boolean {
    const check = get().check
    if (!check || hasEnded(check)) return false
    showInfo('A check is running: wait for its verdicts, or cancel it first.')
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
    history: [],
    researchHistory: [],
    openClaim: null,
    report: null,
    panel: null,

    toggleTier: (tier) => {
      const tiers = get().tiers
      const next = tiers.includes(tier) ? tiers.filter((each) => each !== tier) : [...tiers, tier]
      if (next.length > 0) set({ tiers: next })
      else showInfo('A check needs at least one tier: turn on another first.')
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
      set({ busy: 'submitting' })
      dismissNotice()
      askToNotify()
      try {
        follow(api, await api.submit(submission(estimate, desk?.checkName())), estimate)
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
        if (error instanceof ApiError && error.code === 'insufficient_credits') refreshBalance(api)
      }
    },

    checkEverythingAgain: async (api) => {
      if (get().busy || refuseWhileRunning()) return
      const fresh = await estimateNow(api, { everything: true })
      if (fresh)
        showInfo(
          `Every claim will be checked again: ${counted(fresh.credits.total, 'credit')}. Press Check to submit.`,
        )
    },

    settingsSaved: async (api) => {
      if (useNotices.getState().notice?.settings) dismissNotice()
      const { estimate, busy, part } = get()
      if (estimate && estimate.unavailable.length > 0 && busy === null) await estimateNow(api, { part })
    },

    checkSection: async (api, pos) => {
      const view = editorView()
      if (!view || get().busy || refuseWhileRunning()) return
      const section = sectionAt(view.state.doc.toString(), pos ?? view.state.selection.main.head)
      if (!section) {
        showInfo('This text has no headings: Check checks all of it.')
        return
      }
      const fresh = await estimateNow(api, { part: section })
      if (fresh)
        showInfo(`${section.name}: ${counted(fresh.credits.total, 'credit')}. Press Check to submit.`)
    },

    followStarted: (api, check) => {
      const { estimate, check: current } = get()
      if (estimate?.documentId !== check.documentId) return
      if (current && !hasEnded(current)) return
      follow(api, check, estimate)
    },

    cancel: async (api, id) => {
      set({ busy: 'cancelling' })
      dismissNotice()
      try {
        const check = await api.cancel(id)
        set({
          busy: null,
          check: get().check?.id === id ? check : get().check,
          history: get().history.map((each) => (each.id === id ? check : each)),
        })
        showInfo(`Check cancelled: ${check.credits.refunded} credits refunded.`)
        refreshBalance(api)
        if (get().check?.id === id) void reconcile(api, check)
      } catch (error) {
        set({ busy: null })
        showError(error)
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
        showError(error)
        return false
      }
    },

    loadHistory: async (api) => {
      try {
        const [page, research] = await Promise.all([api.listChecks({ limit: 50 }), api.listResearch()])
        set({ history: page.data, researchHistory: research.data })
      } catch (error) {
        showError(error)
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
        showError(error)
      }
    },

    showPanel: (panel) => set({ panel }),

    showReport: (report) => {
      feed.restart(report.claims.map(progressOf), report.panel)
      // The tier toggles follow the check shown, so that the next Check of a reopened draft asks for its tiers.
      set({ check: report.check, report, tiers: report.check.tiers })
    },

    connect: (given) => {
      desk = given
      const stop = given.api.subscribe((update) => onUpdate(given.api, update))
      return () => {
        stop()
        desk = null
      }
    },
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
/// (the draft's, `name`) that says which part of the draft it covers.
export function submission(estimate: Estimate, name: string | undefined): CreateCheckRequest {
  const { tiers, part, estimated } = useChecks.getState()
  return {
    documentId: estimate.documentId,
    tiers,
    name: part ? [name, part.name].filter(Boolean).join(' · ') : name,
    ...recheckOf(estimated?.previousCheckId ?? null),
  }
}

import { Transaction } from '@codemirror/state'
import type { EditorView } from '@codemirror/view'
import { create } from 'zustand'
import type { FactdeskApi } from '../../../shared/api'
import { anchorOf, reanchor } from '../../../shared/anchors'
import {
  draftLengthProblem,
  fileSizeProblem,
  UNTITLED_DRAFT,
  type Draft,
  type DraftSummary,
} from '../../../shared/schemas'
import { loading } from '../editor/autosave'
import { clearClaims, setClaims, type ClaimMark } from '../editor/claims'
import { dropHistory, newHistory } from '../editor/keymaps'
import { useChecks } from './checks'
import { describeError, showError, useNotices } from './notices'
import type { Desk } from './desk'
import { marksOf } from './progress'

/// Where the writer's text stands: in the store (`saved`), on its way (`saving`), typed since the last save
/// (`unsaved`), or refused or unreachable (`failed`: kept in this page until a save gets through).
export type SaveState = 'saved' | 'saving' | 'unsaved' | 'failed'

/// A claim of the last check that could not be found again in the text: listed, never silently dropped.
export interface DetachedClaim {
  claimId: string
  text: string
  stage: ClaimMark['stage']
}

export interface DraftsStore {
  /// The draft in the editor, without its text (which is the editor's).
  draft: DraftSummary | null
  save: SaveState
  /// Why the last save failed.
  failure: string | null
  /// The drafts most recently opened, for the Recent list.
  recent: DraftSummary[]
  detached: DetachedClaim[]

  /// Restores the draft last open in the editor of `desk` (with any text typed after its last save), or starts
  /// one; once per window.
  start(desk: Desk): () => void
  /// The writer changed the text: kept in the page at once, saved after a pause in the typing.
  edited(api: FactdeskApi): void
  /// Saves the editor's text now if it changed (blur, hiding the page, closing it, switching drafts).
  flush(api: FactdeskApi): Promise<void>
  /// Shows another draft in the editor, after saving this one.
  show(api: FactdeskApi, draft: Draft): Promise<void>
  /// Opens a draft of the Recent list.
  open(api: FactdeskApi, id: string): Promise<void>
  /// A new, empty draft.
  create(api: FactdeskApi): Promise<void>
  /// A new draft of a check's text (a manuscript's whole text), its verdicts on it: a check of the history opened
  /// as the writer left it, whatever became of the draft it was made from.
  openCheck(api: FactdeskApi, checkId: string): Promise<void>
  /// Lists the recent drafts again.
  loadRecent(api: FactdeskApi): Promise<void>
  /// A file from disk through the desktop's Open dialog.
  openFile(api: FactdeskApi): Promise<void>
  /// A file picked in the page (browser mode): uploaded, converted if a Word document, opened as a new draft.
  importFile(api: FactdeskApi, file: File): Promise<void>
  /// Saves to the draft's file (the desktop's dialogs), or, in a browser, downloads it.
  saveFile(api: FactdeskApi, as: boolean): Promise<void>
}

/// How long typing must pause before an autosave, and the longest typing may go on without one.
export const AUTOSAVE_PAUSE_MS = 1000
export const AUTOSAVE_MAX_WAIT_MS = 5000
/// How soon a failed save is tried again.
const RETRY_MS = 5000
/// The page's emergency copy of text typed but not yet saved: written on every change, removed once saved.
const COPY_KEY = 'factdesk:unsaved-draft'

/// A long text's copy waits a millisecond for each this many characters (at most COPY_MAX_WAIT_MS).
const COPY_CHARS_PER_MS = 250
const COPY_MAX_WAIT_MS = 1000
interface EmergencyCopy {
  draftId: string
  text: string
}

function readCopy(): EmergencyCopy | null {
  try {
    const value = JSON.parse(localStorage.getItem(COPY_KEY) ?? 'null') as EmergencyCopy | null
    return value && typeof value.draftId === 'string' && typeof value.text === 'string' ? value : null
  } catch {
    return null
  }
}

function writeCopy(copy: EmergencyCopy | null): void {
  try {
    if (copy) localStorage.setItem(COPY_KEY, JSON.stringify(copy))
    else localStorage.removeItem(COPY_KEY)
  } catch {
    // A full or disabled storage leaves the autosave alone to keep the text.
  }
}

/// The text to show for a draft: the page's emergency copy when it holds text the store never got.
export function reconcile(draft: Pick<Draft, 'id' | 'text'>, copy: EmergencyCopy | null): string {
  return copy && copy.draftId === draft.id ? copy.text : draft.text
}

export const useDrafts = create<DraftsStore>()((set, get) => {
  // The text the store holds for the current draft, as far as this page knows.
  let stored: string | null = null
  let timer: ReturnType<typeof setTimeout> | null = null
  // When the first change not yet saved was made: typing never postpones a save beyond AUTOSAVE_MAX_WAIT_MS.
  let changedSince: number | null = null
  let inFlight: Promise<void> | null = null
  // Whether the page's copy waits to be written: one copy per frame, however fast the typing, and in a long
  // text at most one per COPY_CHARS_PER_MS of its length (a 50,000-word text took 5 ms a copy, 60 a second).
  let copyPending = false
  // The window whose editor holds the draft, once started.
  let desk: Desk | null = null
  const editorView = (): EditorView | null => desk?.view() ?? null

  // Keeps the page's copy of text the store does not have yet.
  function keepCopy(): void {
    copyPending = false
    const text = editorView()?.state.doc.toString()
    const { draft } = get()
    if (draft && text !== undefined && text !== stored) writeCopy({ draftId: draft.id, text })
  }

  function schedule(api: FactdeskApi, delay: number): void {
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => void get().flush(api), Math.max(0, delay))
  }

  // The writer typed: keep a copy in the page by the next frame, save after a pause (or the longest wait).
  function edited(api: FactdeskApi): void {
    const { draft } = get()
    if (!draft) return
    if (!copyPending) {
      copyPending = true
      const wait = Math.min(COPY_MAX_WAIT_MS, (editorView()?.state.doc.length ?? 0) / COPY_CHARS_PER_MS)
      if (wait < 16 && typeof requestAnimationFrame === 'function') requestAnimationFrame(keepCopy)
      else setTimeout(keepCopy, wait)
    }
    const now = Date.now()
    changedSince ??= now
    set({ draft: { ...draft, fileModified: true }, save: get().save === 'failed' ? 'failed' : 'unsaved' })
    schedule(api, Math.min(AUTOSAVE_PAUSE_MS, changedSince + AUTOSAVE_MAX_WAIT_MS - now))
  }

  async function saveNow(api: FactdeskApi): Promise<void> {
    const view = editorView()
    const { draft } = get()
    if (!view || !draft) return
    const text = view.state.doc.toString()
    const takenAt = Date.now()
    if (text === stored) {
      set({ save: 'saved', failure: null })
      changedSince = null
      writeCopy(null)
      return
    }
    // Said in words, and not retried until the next change: the text stays in the page's copy meanwhile.
    const tooLong = draftLengthProblem('The text', text.length)
    if (tooLong) {
      set({ save: 'failed', failure: tooLong })
      return
    }
    set({ save: 'saving' })
    // Keys typed from now on are the next save's: its longest wait runs from the first of them, not from the
    // first change this save takes (which would make every key typed while it is on its way save again at once).
    const since = changedSince
    changedSince = null
    try {
      const saved = await api.saveDraft(draft.id, { text })
      if (get().draft?.id !== draft.id) return
      stored = text
      const current = editorView()?.state.doc.toString()
      if (current === text) {
        changedSince = null
        writeCopy(null)
        set({ save: 'saved', failure: null, draft: saved })
      } else {
        changedSince ??= takenAt
        set({ save: 'unsaved', failure: null, draft: { ...saved, fileModified: true } })
        schedule(api, Math.min(AUTOSAVE_PAUSE_MS, changedSince + AUTOSAVE_MAX_WAIT_MS - Date.now()))
      }
    } catch (error) {
      // Nothing was saved: the unsaved changes date from before this save.
      changedSince = since ?? changedSince ?? takenAt
      set({ save: 'failed', failure: describeError(error) })
      schedule(api, RETRY_MS)
    }
  }

  // Puts a draft's text in the editor (`text`; null keeps what the editor holds, typed before the draft came)
  // and its last check's verdicts on the words they were about.
  async function place(api: FactdeskApi, draft: Draft, text: string | null): Promise<void> {
    const view = editorView()
    if (!view) return
    if (timer) clearTimeout(timer)
    stored = draft.text
    changedSince = null
    if (text !== null) {
      useChecks.setState({
        check: null,
        report: null,
        estimate: null,
        estimated: null,
        since: null,
        part: null,
        openClaim: null,
        panel: null,
      })
      const replaced = text !== view.state.doc.toString()
      view.dispatch({
        ...(replaced ? { changes: { from: 0, to: view.state.doc.length, insert: text } } : {}),
        effects: replaced ? [clearClaims.of(null), dropHistory()] : clearClaims.of(null),
        annotations: [loading.of(true), Transaction.addToHistory.of(false)],
      })
      if (replaced) view.dispatch({ effects: newHistory() })
    }
    const unsaved = view.state.doc.toString() !== draft.text
    set({
      draft: unsaved ? { ...draft, fileModified: true } : draft,
      save: unsaved ? 'unsaved' : 'saved',
      failure: null,
      detached: [],
    })
    if (unsaved) void get().flush(api)
    if (draft.lastCheckId) await placeClaims(api, draft)
  }

  async function placeClaims(api: FactdeskApi, draft: Draft): Promise<void> {
    if (!draft.lastCheckId) return
    let report
    try {
      report = await api.report(draft.lastCheckId)
    } catch (error) {
      showError(error, 'The last check could not be read: ')
      return
    }
    const view = editorView()
    if (!view || get().draft?.id !== draft.id) return
    const text = view.state.doc.toString()
    const anchors = new Map(draft.anchors.map((anchor) => [anchor.claimId, anchor]))
    const marks: ClaimMark[] = []
    const detached: DetachedClaim[] = []
    // How far the last claim placed had moved: the next one has most likely moved as far.
    let moved = 0
    marksOf(report.claims, report.check, report.panel).forEach((mark, index) => {
      const claim = report.claims[index]
      // Anchors kept with the draft, or else (a check on a remote service) taken from the report's own text.
      const anchor =
        anchors.get(mark.claimId) ?? (claim && anchorOf(report.text, claim.charStart, claim.charEnd))
      const placed = anchor && reanchor(text, anchor, moved)
      if (!claim || !placed) {
        detached.push({ claimId: mark.claimId, text: claim?.text ?? anchor?.exact ?? '', stage: mark.stage })
        return
      }
      moved = placed.start - anchor.start
      const shift = placed.start - mark.from
      marks.push({
        ...mark,
        from: placed.start,
        to: placed.end,
        // A finding moves with its claim while its words are still there (a reworded claim may have lost them).
        issues: mark.issues
          .map((issue) => ({ ...issue, from: issue.from + shift, to: issue.to + shift }))
          .filter(
            (issue) =>
              text.slice(issue.from, issue.to) === report.text.slice(issue.from - shift, issue.to - shift),
          ),
        checkedText: claim.text,
      })
    })
    view.dispatch({ effects: setClaims.of(marks) })
    useChecks.getState().showReport(report)
    set({ detached })
  }

  return {
    draft: null,
    save: 'saved',
    failure: null,
    recent: [],
    detached: [],

    edited,

    start: (given) => {
      const { api } = given
      desk = given
      let stopped = false
      const restore = async (): Promise<void> => {
        const copy = readCopy()
        let draft: Draft
        try {
          const { data } = await api.listDrafts()
          const last = copy?.draftId ?? data[0]?.id
          draft = last
            ? await api.openDraft(last).catch(() => api.createDraft({ text: copy?.text ?? '' }))
            : await api.createDraft({})
          set({ recent: data })
        } catch {
          // Signed out, say: the editor still works, the session notice says what to do.
          return
        }
        const view = editorView()
        if (stopped || !view) return
        // Typed before the draft arrived: that text is kept, in a draft of its own when this one has text.
        const typed = view.state.doc.length > 0
        if (typed && draft.text !== '' && draft.text !== view.state.doc.toString()) {
          draft = await api.createDraft({})
        }
        await place(api, draft, typed ? null : reconcile(draft, copy))
      }
      // A file the system asked the desktop app to open ("Open with") shows once the last draft is back, not under it.
      let stopOpening: (() => void) | undefined
      void restore().then(() => {
        if (stopped) return
        stopOpening = api.onOpenedFile?.(
          (id) => void get().open(api, id),
          (error) => showError(error),
        )
      })
      const onHidden = (): void => {
        if (document.visibilityState !== 'hidden') return
        keepCopy()
        void get().flush(api)
      }
      const onBlur = (): void => void get().flush(api)
      const onUnload = (event: BeforeUnloadEvent): void => {
        keepCopy()
        void get().flush(api)
        const { draft, save } = get()
        // Both ask when the text never reached the drafts (it is still in this page's copy, but the writer should
        // know); the desktop also before a file's changes are left unsaved.
        const ask =
          save === 'failed' ||
          (api.files !== null && draft?.filePath !== null && draft?.fileModified === true)
        if (ask) event.preventDefault()
      }
      document.addEventListener('visibilitychange', onHidden)
      window.addEventListener('blur', onBlur)
      window.addEventListener('beforeunload', onUnload)
      const unsubscribe = useChecks.subscribe((state, previous) => {
        const { draft } = get()
        if (!draft || !state.check || state.check.id === previous.check?.id) return
        if (state.check.id === draft.lastCheckId) return
        const checkId = state.check.id
        set({ draft: { ...draft, lastCheckId: checkId }, detached: [] })
        api.saveDraft(draft.id, { lastCheckId: checkId }).catch((error: unknown) => {
          showError(error)
        })
      })
      return () => {
        stopped = true
        desk = null
        stopOpening?.()
        unsubscribe()
        document.removeEventListener('visibilitychange', onHidden)
        window.removeEventListener('blur', onBlur)
        window.removeEventListener('beforeunload', onUnload)
      }
    },

    flush: async (api) => {
      if (timer) clearTimeout(timer)
      timer = null
      while (inFlight) await inFlight
      inFlight = saveNow(api).finally(() => (inFlight = null))
      await inFlight
    },

    show: async (api, draft) => {
      await get().flush(api)
      writeCopy(null)
      await place(api, draft, draft.text)
      void get().loadRecent(api)
    },

    // The edits not saved yet go to the store before a draft is read from it: reopening the draft shown (from
    // Recent, or its file) would otherwise read the text from before them, show it as saved, and lose them.
    open: async (api, id) => {
      try {
        await get().flush(api)
        await get().show(api, await api.openDraft(id))
      } catch (error) {
        showError(error)
      }
    },

    create: async (api) => {
      try {
        await get().show(api, await api.createDraft({}))
      } catch (error) {
        showError(error)
      }
    },

    openCheck: async (api, checkId) => {
      try {
        const report = await api.report(checkId)
        const title = report.check.name?.trim().slice(0, 200)
        const { id } = await api.createDraft({ text: report.text, ...(title ? { title } : {}) })
        await api.saveDraft(id, { lastCheckId: report.check.id })
        await get().open(api, id)
      } catch (error) {
        showError(error)
      }
    },

    loadRecent: async (api) => {
      try {
        set({ recent: (await api.listDrafts()).data })
      } catch (error) {
        showError(error)
      }
    },

    openFile: async (api) => {
      try {
        await get().flush(api)
        const draft = await api.files?.openFile()
        if (draft) await get().show(api, draft)
      } catch (error) {
        showError(error)
      }
    },

    importFile: async (api, file) => {
      const tooLarge = fileSizeProblem(file.name, file.size)
      if (tooLarge) {
        useNotices.getState().show({ kind: 'error', text: tooLarge })
        return
      }
      try {
        const content = await base64Of(file)
        await get().show(api, await api.importFile({ name: file.name, content }))
      } catch (error) {
        showError(error)
      }
    },

    saveFile: async (api, as) => {
      const view = editorView()
      const { draft } = get()
      if (!view || !draft) return
      const text = view.state.doc.toString()
      const tooLong = draftLengthProblem('The text', text.length)
      if (tooLong) {
        useNotices.getState().show({ kind: 'error', text: tooLong })
        return
      }
      try {
        if (api.files) {
          const saved = await (as ? api.files.saveFileAs(draft.id, text) : api.files.saveFile(draft.id, text))
          if (!saved) return
          stored = text
          const unchanged = view.state.doc.toString() === text
          set({ draft: unchanged ? saved : { ...saved, fileModified: true } })
          if (unchanged) set({ save: 'saved', failure: null })
          if (unchanged) writeCopy(null)
        } else {
          download(draft.title, text)
          const saved = await api.saveDraft(draft.id, { text, savedToFile: true })
          stored = text
          set({ draft: view.state.doc.toString() === text ? saved : { ...saved, fileModified: true } })
        }
        void get().loadRecent(api)
      } catch (error) {
        showError(error)
      }
    },
  }
})

// The page's file input gives a File; the API takes its bytes as base64.
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  let binary = ''
  for (let at = 0; at < bytes.length; at += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000))
  return btoa(binary)
}

// A browser's "save": the text as a file download named after the draft.
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/markdown;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/// The name a check of the open draft goes by (in the history, an export's title and file name): its file's
/// name, else its first words; none for an empty draft.
export function checkName(): string | undefined {
  return draftName(useDrafts.getState().draft)?.slice(0, 200)
}

/// What a draft is called everywhere (the document bar, the window, its checks): the name of the file it came
/// from, else its first words (as an editor names an untitled file by its first line); undefined while it has
/// neither.
export function draftName(draft: DraftSummary | null): string | undefined {
  if (!draft) return undefined
  return (draft.filePath || draft.title !== UNTITLED_DRAFT ? draft.title : draft.preview) || undefined
}

/// The window's title: the draft's name, with "•" while it has changes not saved to a file.
export function windowTitle(draft: DraftSummary | null): string {
  return draft ? `${draftName(draft) ?? draft.title}${draft.fileModified ? ' •' : ''} — Factdesk` : 'Factdesk'
}

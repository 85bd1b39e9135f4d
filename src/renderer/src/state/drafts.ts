import { Transaction } from '@codemirror/state'
import type { EditorView } from '@codemirror/view'
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { FactdeskApi } from '../../../shared/api'
import { anchorOf, reanchor } from '../../../shared/anchors'
import {
  draftLengthProblem,
  fileSizeProblem,
  UNTITLED_DRAFT,
  type Draft,
  type DraftSummary,
  type Report,
} from '../../../shared/schemas'
import { loading } from '../editor/autosave'
import { clearClaims, setClaims, type ClaimMark } from '../editor/claims'
import { dropHistory, newHistory } from '../editor/keymaps'
import { Autosave, readCopy, type AutosaveState, type EmergencyCopy } from './autosave'
import type { ChecksStoreApi } from './checks'
import { showError, useNotices } from './notices'
import { marksOf } from './progress'

/// A claim of the last check that could not be found again in the text: listed, never silently dropped.
export interface DetachedClaim {
  claimId: string
  text: string
  stage: ClaimMark['stage']
}

export interface DraftsStore extends AutosaveState {
  /// The draft in the editor, without its text (which is the editor's).
  draft: DraftSummary | null
  /// The drafts most recently opened, for the Recent list.
  recent: DraftSummary[]
  detached: DetachedClaim[]

  /// Restores the draft last open in the editor (with any text typed after its last save), or starts one;
  /// once per window.
  start(): () => void
  /// The writer changed the text: kept in the page at once, saved after a pause in the typing.
  edited(): void
  /// Saves the editor's text now if it changed (blur, hiding the page, closing it, switching drafts).
  flush(): Promise<void>
  /// Shows another draft in the editor, after saving this one.
  show(draft: Draft): Promise<void>
  /// Opens a draft of the Recent list.
  open(id: string): Promise<void>
  /// A new, empty draft.
  create(): Promise<void>
  /// A new draft of a check's text (a manuscript's whole text), its verdicts on it: a check of the history opened
  /// as the writer left it, whatever became of the draft it was made from.
  openCheck(checkId: string): Promise<void>
  /// Lists the recent drafts again.
  loadRecent(): Promise<void>
  /// A file from disk through the desktop's Open dialog.
  openFile(): Promise<void>
  /// A file picked in the page (browser mode): uploaded, converted if a Word document, opened as a new draft.
  importFile(file: File): Promise<void>
  /// Saves to the draft's file (the desktop's dialogs), or, in a browser, downloads it.
  saveFile(as: boolean): Promise<void>
}

/// One window's drafts store.
export type DraftsStoreApi = StoreApi<DraftsStore>

/// What a drafts store works for: the window's bridge, its editor while it is open, and its checks store
/// (a draft put in the editor shows its last check; a check started becomes the draft's last).
export interface DraftsDesk {
  readonly api: FactdeskApi
  view(): EditorView | null
  readonly checks: ChecksStoreApi
}

// What the store's actions share: the window, the store itself and its autosave.
interface Drafts {
  readonly desk: DraftsDesk
  readonly set: DraftsStoreApi['setState']
  readonly get: DraftsStoreApi['getState']
  readonly autosave: Autosave
}

/// The text to show for a draft: the page's emergency copy when it holds text the store never got.
export function reconcile(draft: Pick<Draft, 'id' | 'text'>, copy: EmergencyCopy | null): string {
  return copy && copy.draftId === draft.id ? copy.text : draft.text
}

/// The drafts store of the window of `desk`: the draft in its editor, its autosave, the Recent list and files.
export function createDraftsStore(desk: DraftsDesk): DraftsStoreApi {
  return createStore<DraftsStore>()((set, get) => {
    const autosave = new Autosave(desk, { getState: get, setState: set })
    const drafts: Drafts = { desk, set, get, autosave }
    return {
      draft: null,
      save: 'saved',
      failure: null,
      recent: [],
      detached: [],
      start: () => start(drafts),
      edited: () => autosave.edited(),
      flush: () => autosave.flush(),
      ...draftActions(drafts),
      ...fileActions(drafts),
    }
  })
}

// Puts a draft's text in the editor (`text`; null keeps what the editor holds, typed before the draft came)
// and its last check's verdicts on the words they were about.
async function place(drafts: Drafts, draft: Draft, text: string | null): Promise<void> {
  const { desk, set, get, autosave } = drafts
  const view = desk.view()
  if (!view) return
  autosave.placed(draft.text)
  if (text !== null) {
    desk.checks.setState({
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
  if (unsaved) void get().flush()
  if (draft.lastCheckId) await placeClaims(drafts, draft)
}

async function placeClaims({ desk, set, get }: Drafts, draft: Draft): Promise<void> {
  if (!draft.lastCheckId) return
  let report
  try {
    report = await desk.api.report(draft.lastCheckId)
  } catch (error) {
    showError(error, 'The last check could not be read: ')
    return
  }
  const view = desk.view()
  if (!view || get().draft?.id !== draft.id) return
  const { marks, detached } = placedMarks(view.state.doc.toString(), draft, report)
  view.dispatch({ effects: setClaims.of(marks) })
  desk.checks.getState().showReport(report)
  set({ detached })
}

// The claims of `report` on the words of `text` they were about, moved with them; those whose words are gone
// are detached.
function placedMarks(
  text: string,
  draft: Draft,
  report: Report,
): { marks: ClaimMark[]; detached: DetachedClaim[] } {
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
  return { marks, detached }
}

// Restores the draft last open, once the window's editor is there; `stopped` says the window has gone since.
async function restore(drafts: Drafts, stopped: () => boolean): Promise<void> {
  const { desk, set } = drafts
  const { api } = desk
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
  const view = desk.view()
  if (stopped() || !view) return
  // Typed before the draft arrived: that text is kept, in a draft of its own when this one has text.
  const typed = view.state.doc.length > 0
  if (typed && draft.text !== '' && draft.text !== view.state.doc.toString()) {
    draft = await api.createDraft({})
  }
  await place(drafts, draft, typed ? null : reconcile(draft, copy))
}

function start(drafts: Drafts): () => void {
  const { desk, get } = drafts
  let stopped = false
  // A file the system asked the desktop app to open ("Open with") shows once the last draft is back, not under it.
  let stopOpening: (() => void) | undefined
  void restore(drafts, () => stopped).then(() => {
    if (stopped) return
    stopOpening = desk.api.onOpenedFile?.(
      (id) => void get().open(id),
      (error) => showError(error),
    )
  })
  const stopSaving = saveOnLeaving(drafts)
  const stopFollowing = followChecks(drafts)
  return () => {
    stopped = true
    stopOpening?.()
    stopFollowing()
    stopSaving()
  }
}

// Saves when the writer leaves the page (hides it, moves to another window, closes it); returns the stop.
function saveOnLeaving({ desk, get, autosave }: Drafts): () => void {
  const onHidden = (): void => {
    if (document.visibilityState !== 'hidden') return
    autosave.keepCopy()
    void get().flush()
  }
  const onBlur = (): void => void get().flush()
  const onUnload = (event: BeforeUnloadEvent): void => {
    autosave.keepCopy()
    void get().flush()
    const { draft, save } = get()
    // Both ask when the text never reached the drafts (it is still in this page's copy, but the writer should
    // know); the desktop also before a file's changes are left unsaved.
    const ask =
      save === 'failed' ||
      (desk.api.files !== null && draft?.filePath !== null && draft?.fileModified === true)
    if (ask) event.preventDefault()
  }
  document.addEventListener('visibilitychange', onHidden)
  window.addEventListener('blur', onBlur)
  window.addEventListener('beforeunload', onUnload)
  return () => {
    document.removeEventListener('visibilitychange', onHidden)
    window.removeEventListener('blur', onBlur)
    window.removeEventListener('beforeunload', onUnload)
  }
}

// A check started on the draft becomes its last check, kept with it; returns the stop.
function followChecks({ desk, set, get }: Drafts): () => void {
  return desk.checks.subscribe((state, previous) => {
    const { draft } = get()
    if (!draft || !state.check || state.check.id === previous.check?.id) return
    if (state.check.id === draft.lastCheckId) return
    const checkId = state.check.id
    set({ draft: { ...draft, lastCheckId: checkId }, detached: [] })
    desk.api.saveDraft(draft.id, { lastCheckId: checkId }).catch((error: unknown) => {
      showError(error)
    })
  })
}

type DraftActions = Pick<DraftsStore, 'show' | 'open' | 'create' | 'openCheck' | 'loadRecent'>

function draftActions(drafts: Drafts): DraftActions {
  const { desk, set, get, autosave } = drafts
  const { api } = desk
  return {
    show: async (draft) => {
      await get().flush()
      autosave.dropCopy()
      await place(drafts, draft, draft.text)
      void get().loadRecent()
    },

    // The edits not saved yet go to the store before a draft is read from it: reopening the draft shown (from
    // Recent, or its file) would otherwise read the text from before them, show it as saved, and lose them.
    open: async (id) => {
      try {
        await get().flush()
        await get().show(await api.openDraft(id))
      } catch (error) {
        showError(error)
      }
    },

    create: async () => {
      try {
        await get().show(await api.createDraft({}))
      } catch (error) {
        showError(error)
      }
    },

    openCheck: async (checkId) => {
      try {
        const report = await api.report(checkId)
        const title = report.check.name?.trim().slice(0, 200)
        const { id } = await api.createDraft({ text: report.text, ...(title ? { title } : {}) })
        await api.saveDraft(id, { lastCheckId: report.check.id })
        await get().open(id)
      } catch (error) {
        showError(error)
      }
    },

    loadRecent: async () => {
      try {
        set({ recent: (await api.listDrafts()).data })
      } catch (error) {
        showError(error)
      }
    },
  }
}

type FileActions = Pick<DraftsStore, 'openFile' | 'importFile' | 'saveFile'>

function fileActions({ desk, set, get, autosave }: Drafts): FileActions {
  const { api } = desk
  return {
    openFile: async () => {
      try {
        await get().flush()
        const draft = await api.files?.openFile()
        if (draft) await get().show(draft)
      } catch (error) {
        showError(error)
      }
    },

    importFile: async (file) => {
      const tooLarge = fileSizeProblem(file.name, file.size)
      if (tooLarge) {
        useNotices.getState().show({ kind: 'error', text: tooLarge })
        return
      }
      try {
        const content = await base64Of(file)
        await get().show(await api.importFile({ name: file.name, content }))
      } catch (error) {
        showError(error)
      }
    },

    saveFile: async (as) => {
      const view = desk.view()
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
          const unchanged = view.state.doc.toString() === text
          set({ draft: unchanged ? saved : { ...saved, fileModified: true } })
          autosave.storedElsewhere(text, unchanged)
        } else {
          download(draft.title, text)
          const saved = await api.saveDraft(draft.id, { text, savedToFile: true })
          autosave.storedElsewhere(text, false)
          set({ draft: view.state.doc.toString() === text ? saved : { ...saved, fileModified: true } })
        }
        void get().loadRecent()
      } catch (error) {
        showError(error)
      }
    },
  }
}

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

/// The name a check of `draft` goes by (in the history, an export's title and file name): its file's name, else
/// its first words; none for an empty draft.
export function checkName(draft: DraftSummary | null): string | undefined {
  return draftName(draft)?.slice(0, 200)
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

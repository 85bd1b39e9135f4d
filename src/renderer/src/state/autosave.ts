import type { EditorView } from '@codemirror/view'
import type { FactdeskApi } from '../../../shared/api'
import { draftLengthProblem, type DraftSummary } from '../../../shared/schemas'
import { describeError } from './notices'

/// Where the writer's text stands: in the store (`saved`), on its way (`saving`), typed since the last save
/// (`unsaved`), or refused or unreachable (`failed`: kept in this page until a save gets through).
export type SaveState = 'saved' | 'saving' | 'unsaved' | 'failed'

/// What the autosave tells the drafts store: the draft, where its text stands, and why the last save failed.
export interface AutosaveState {
  draft: DraftSummary | null
  save: SaveState
  /// Why the last save failed.
  failure: string | null
}

/// How long typing must pause before an autosave, and the longest typing may go on without one.
const AUTOSAVE_PAUSE_MS = 1000
const AUTOSAVE_MAX_WAIT_MS = 5000
/// How soon a failed save is tried again.
const RETRY_MS = 5000
/// The page's emergency copy of text typed but not yet saved: written on every change, removed once saved.
const COPY_KEY = 'factdesk:unsaved-draft'

/// A long text's copy waits a millisecond for each this many characters (at most COPY_MAX_WAIT_MS).
const COPY_CHARS_PER_MS = 250
const COPY_MAX_WAIT_MS = 1000

/// The page's copy of a draft's text the store may not have.
export interface EmergencyCopy {
  draftId: string
  text: string
}

/// The page's emergency copy, if it holds one.
export function readCopy(): EmergencyCopy | null {
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

/// The autosave of one window's editor: text typed is kept in the page's copy by the next frame and saved to the
/// drafts store after a pause in the typing (or the longest wait), one save at a time; a failed save is tried
/// again.
export class Autosave {
  // The text the store holds for the current draft, as far as this page knows.
  private stored: string | null = null
  private timer: ReturnType<typeof setTimeout> | null = null
  // When the first change not yet saved was made: typing never postpones a save beyond AUTOSAVE_MAX_WAIT_MS.
  private changedSince: number | null = null
  private inFlight: Promise<void> | null = null
  // Whether the page's copy waits to be written: one copy per frame, however fast the typing, and in a long
  // text at most one per COPY_CHARS_PER_MS of its length (a 50,000-word text took 5 ms a copy, 60 a second).
  private copyPending = false

  /// Saves the text of the editor of `desk` through its bridge, and tells `store` how it stands.
  constructor(
    private readonly desk: { readonly api: FactdeskApi; view(): EditorView | null },
    private readonly store: {
      getState(): AutosaveState
      setState(state: Partial<AutosaveState>): void
    },
  ) {}

  /// The writer typed: a copy in the page by the next frame, a save after a pause (or the longest wait).
  edited(): void {
    const { draft, save } = this.store.getState()
    if (!draft) return
    if (!this.copyPending) {
      this.copyPending = true
      const wait = Math.min(COPY_MAX_WAIT_MS, (this.desk.view()?.state.doc.length ?? 0) / COPY_CHARS_PER_MS)
      if (wait < 16 && typeof requestAnimationFrame === 'function') requestAnimationFrame(this.keepCopy)
      else setTimeout(this.keepCopy, wait)
    }
    const now = Date.now()
    this.changedSince ??= now
    // Said once, at the first key typed since the last save: the keys after it change nothing the window shows.
    if (!draft.fileModified || save === 'saved' || save === 'saving') {
      this.store.setState({
        draft: { ...draft, fileModified: true },
        save: save === 'failed' ? 'failed' : 'unsaved',
      })
    }
    this.schedule(Math.min(AUTOSAVE_PAUSE_MS, this.changedSince + AUTOSAVE_MAX_WAIT_MS - now))
  }

  /// Saves the editor's text now if it changed, after the save on its way.
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    while (this.inFlight) await this.inFlight
    this.inFlight = this.saveNow().finally(() => (this.inFlight = null))
    await this.inFlight
  }

  /// Keeps the page's copy of text the store does not have yet, now.
  readonly keepCopy = (): void => {
    this.copyPending = false
    const text = this.desk.view()?.state.doc.toString()
    const { draft } = this.store.getState()
    if (draft && text !== undefined && text !== this.stored) writeCopy({ draftId: draft.id, text })
  }

  /// The page's copy goes: the draft it was of is saved, and another is shown.
  dropCopy(): void {
    writeCopy(null)
  }

  /// A draft whose stored text is `text` comes into the editor: no save of the one before is due any more.
  placed(text: string): void {
    if (this.timer) clearTimeout(this.timer)
    this.stored = text
    this.changedSince = null
  }

  /// `text` reached the store another way (saving to a file saves the draft too); when the editor still holds
  /// it (`all`), nothing waits to be saved.
  storedElsewhere(text: string, all: boolean): void {
    this.stored = text
    if (!all) return
    this.store.setState({ save: 'saved', failure: null })
    writeCopy(null)
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.flush(), Math.max(0, delay))
  }

  private async saveNow(): Promise<void> {
    const view = this.desk.view()
    const { draft } = this.store.getState()
    if (!view || !draft) return
    const text = view.state.doc.toString()
    const takenAt = Date.now()
    if (text === this.stored) {
      this.store.setState({ save: 'saved', failure: null })
      this.changedSince = null
      writeCopy(null)
      return
    }
    // Said in words, and not retried until the next change: the text stays in the page's copy meanwhile.
    const tooLong = draftLengthProblem('The text', text.length)
    if (tooLong) {
      this.store.setState({ save: 'failed', failure: tooLong })
      return
    }
    this.store.setState({ save: 'saving' })
    // Keys typed from now on are the next save's: its longest wait runs from the first of them, not from the
    // first change this save takes (which would make every key typed while it is on its way save again at once).
    const since = this.changedSince
    this.changedSince = null
    try {
      const saved = await this.desk.api.saveDraft(draft.id, { text })
      if (this.store.getState().draft?.id !== draft.id) return
      this.stored = text
      if (this.desk.view()?.state.doc.toString() === text) {
        this.changedSince = null
        writeCopy(null)
        this.store.setState({ save: 'saved', failure: null, draft: saved })
      } else {
        this.changedSince ??= takenAt
        this.store.setState({ save: 'unsaved', failure: null, draft: { ...saved, fileModified: true } })
        this.schedule(Math.min(AUTOSAVE_PAUSE_MS, this.changedSince + AUTOSAVE_MAX_WAIT_MS - Date.now()))
      }
    } catch (error) {
      // Nothing was saved: the unsaved changes date from before this save.
      this.changedSince = since ?? this.changedSince ?? takenAt
      this.store.setState({ save: 'failed', failure: describeError(error) })
      this.schedule(RETRY_MS)
    }
  }
}

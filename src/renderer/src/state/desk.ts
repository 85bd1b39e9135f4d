import type { EditorView } from '@codemirror/view'
import type { FactdeskApi } from '../../../shared/api'
import { createChecksStore, type ChecksStoreApi } from './checks'
import { checkName, createDraftsStore, type DraftsStoreApi } from './drafts'
import { createPendingStore, type PendingStoreApi } from './pending'
import { createResearchStore, type ResearchStoreApi } from './research'

/// What one window works with, made once per window and handed to its components (a React context): the bridge
/// to the engine, the window's editor while it is open, and the window's stores, made with it.
export class Desk {
  private editor: EditorView | null = null
  /// The estimate, the check followed, the history and the side panel.
  readonly checks: ChecksStoreApi
  /// The draft in the editor, its autosave, the Recent list and files.
  readonly drafts: DraftsStoreApi
  /// Deep research: the research panel and the run it follows.
  readonly research: ResearchStoreApi
  /// The checks queued to run when online.
  readonly pending: PendingStoreApi

  constructor(readonly api: FactdeskApi) {
    this.checks = createChecksStore(this)
    this.drafts = createDraftsStore(this)
    this.research = createResearchStore(this)
    this.pending = createPendingStore(this)
  }

  /// The window's editor, null while it is not open.
  view(): EditorView | null {
    return this.editor
  }

  /// The editor component's: `view` is the window's editor from now on (null once it is gone).
  attach(view: EditorView | null): void {
    this.editor = view
  }

  /// The name a check of the open draft goes by.
  checkName(): string | undefined {
    return checkName(this.drafts.getState().draft)
  }
}

import { create } from 'zustand'
import type { DocumentCounts } from '../editor/counts'

/// What the page shows of the document outside the editor. The text itself lives in the editor's state.
export interface DocumentStore extends DocumentCounts {
  /// Goes up with every edit: what a view that shows some of the text (a claim's correction) listens to.
  revision: number
  /// The editor reports its counts after every edit.
  setCounts(counts: DocumentCounts): void
}

/// The document's word and character counts, as the editor last reported them.
export const useDocument = create<DocumentStore>()((set) => ({
  words: 0,
  characters: 0,
  revision: 0,
  setCounts: ({ words, characters }) =>
    set(({ revision }) => ({ words, characters, revision: revision + 1 })),
}))

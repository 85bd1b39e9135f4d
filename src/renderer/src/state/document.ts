import { create } from 'zustand'
import type { DocumentCounts } from '../editor/counts'

/// What the page shows of the document outside the editor. The text itself lives in the editor's state.
export interface DocumentStore extends DocumentCounts {
  setCounts(counts: DocumentCounts): void
}

/// The document's word and character counts, as the editor last reported them.
export const useDocument = create<DocumentStore>()((set) => ({
  words: 0,
  characters: 0,
  setCounts: ({ words, characters }) => set({ words, characters }),
}))

import { defaultKeymap, history, historyKeymap } from '@codemirror/commands'
import { search, searchKeymap } from '@codemirror/search'
import type { Extension } from '@codemirror/state'
import { keymap } from '@codemirror/view'

/// Undo history, the standard editing keys, and find and replace (Mod-f) with its panel at the top.
export function editingKeys(): Extension {
  return [history(), search({ top: true }), keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap])]
}

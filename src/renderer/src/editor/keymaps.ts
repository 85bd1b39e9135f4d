import { defaultKeymap, history, historyKeymap } from '@codemirror/commands'
import { search, searchKeymap } from '@codemirror/search'
import { Compartment, type Extension, type StateEffect } from '@codemirror/state'
import { keymap } from '@codemirror/view'

/// The undo history, in a compartment so that a text replaced whole can start an empty one.
const undoHistory = new Compartment()

/// Undo history, the standard editing keys, and find and replace (Mod-f) with its panel at the top.
export function editingKeys(): Extension {
  return [
    undoHistory.of(history()),
    search({ top: true }),
    keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap]),
  ]
}

/// For the transaction that replaces the text whole (another draft shown): takes the undo history away, since undo
/// must not reach back into the text before, and its steps cannot be mapped onto the new one (the claims an edit
/// deleted, kept for undo at their places in the old text, made CodeMirror throw). `newHistory` in the next
/// transaction starts an empty one.
export const dropHistory = (): StateEffect<unknown> => undoHistory.reconfigure([])
export const newHistory = (): StateEffect<unknown> => undoHistory.reconfigure(history())

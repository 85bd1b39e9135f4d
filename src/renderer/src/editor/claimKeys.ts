import { EditorSelection, Prec, type Extension } from '@codemirror/state'
import { EditorView, keymap } from '@codemirror/view'
import { claimAt, claimField, claimRange, claimRanges } from './claims'

/// Moves the selection to the next (or previous) claim after (before) the cursor.
function moveToClaim(view: EditorView, direction: 1 | -1): boolean {
  const ranges = [...claimRanges(view.state.field(claimField)).values()].sort((a, b) => a.from - b.from)
  if (ranges.length === 0) return false
  const head = view.state.selection.main
  const target =
    direction === 1
      ? (ranges.find((range) => range.from > head.from) ?? ranges[0])
      : (ranges.findLast((range) => range.from < head.from) ?? ranges[ranges.length - 1])
  if (!target) return false
  select(view, target)
  return true
}

/// Selects a claim's current range in the editor, scrolls it into view and gives the editor the focus.
export function revealClaim(view: EditorView, claimId: string): void {
  const range = claimRange(view.state.field(claimField), claimId)
  if (!range) return
  select(view, range)
  view.focus()
}

function select(view: EditorView, { from, to }: { from: number; to: number }): void {
  view.dispatch({
    selection: EditorSelection.range(from, to),
    effects: EditorView.scrollIntoView(from, { y: 'center' }),
  })
}

/// F8 and Shift-F8 walk the claims; Mod-Shift-k opens the claim at the cursor. Ahead of the editor's own keys:
/// CodeMirror's default keymap deletes the line on Mod-Shift-k, so the key is always taken here, claim at the
/// cursor or not. Escape, once the editor's own uses of it (search, completions, selections) pass, calls
/// `onEscape`, which closes the side panel (true when there was one).
export function claimKeys(onOpen: (claimId: string) => void, onEscape: () => boolean): Extension {
  return [
    Prec.lowest(keymap.of([{ key: 'Escape', run: onEscape }])),
    Prec.high(
      keymap.of([
        { key: 'F8', run: (view) => moveToClaim(view, 1), shift: (view) => moveToClaim(view, -1) },
        {
          key: 'Mod-Shift-k',
          run: (view) => {
            const id = claimAt(view, view.state.selection.main.from)
            if (id) onOpen(id)
            return true
          },
        },
      ]),
    ),
  ]
}

import { Prec, type Extension } from '@codemirror/state'
import { EditorView, keymap } from '@codemirror/view'
import { claimAt, claimField, claimRange } from './claims'

/// Where the writer asked for the editor's menu, and what is there: the selection, and the checked claim under
/// the pointer (or the cursor).
export interface MenuRequest {
  x: number
  y: number
  /// The document position the menu is about: under the pointer, or the cursor's.
  pos: number
  selection: boolean
  claimId: string | null
}

/// The checked claim at `pos`, if any (an estimated one has no detail yet).
function checkedClaimAt(view: EditorView, pos: number): string | null {
  const id = claimAt(view, pos)
  return id && claimRange(view.state.field(claimField), id)?.info.stage !== 'estimated' ? id : null
}

/// The text's own menu in place of the browser's: a right click in the text, Shift+F10 or the ContextMenu key
/// calls `onMenu` (elsewhere the browser's menu stays).
export function editorMenu(onMenu: (request: MenuRequest) => void): Extension {
  const request = (view: EditorView, pos: number, x: number, y: number): MenuRequest => ({
    x,
    y,
    pos,
    selection: !view.state.selection.main.empty,
    claimId: checkedClaimAt(view, pos),
  })
  const fromKeys = (view: EditorView): boolean => {
    const head = view.state.selection.main.head
    const at = view.coordsAtPos(head)
    const box = view.contentDOM.getBoundingClientRect()
    onMenu(request(view, head, at?.left ?? box.left, at?.bottom ?? box.top))
    return true
  }
  return [
    EditorView.domEventHandlers({
      contextmenu: (event, view) => {
        event.preventDefault()
        const pos = view.posAtCoords({ x: event.clientX, y: event.clientY }) ?? view.state.selection.main.head
        onMenu(request(view, pos, event.clientX, event.clientY))
        return true
      },
    }),
    Prec.high(
      keymap.of([
        { key: 'Shift-F10', run: fromKeys },
        { key: 'ContextMenu', run: fromKeys },
      ]),
    ),
  ]
}

import { EditorView } from '@codemirror/view'
import { useCallback, useEffect, useRef, useState, type JSX } from 'react'
import type { FactdeskApi } from '../../../shared/api'
import { claimKeys } from '../editor/claimKeys'
import { claims } from '../editor/claims'
import { editorMenu, type MenuRequest } from '../editor/contextMenu'
import { WritingSettingsLink } from '../editor/lintSettings'
import { startLintWorker } from '../editor/lintWorker'
import { writingEditor } from '../editor/writingEditor'
import { useChecks } from '../state/checks'
import { useDocument } from '../state/document'
import { draftAutosave } from '../state/drafts'
import { setEditorView } from '../state/editorView'
import { EditorMenu } from './EditorMenu'

/// The CodeMirror editor, created once and left to manage its own document; it reports its counts to the store,
/// checks spelling and grammar with the writing settings of `api`, and opens a claim's detail when its badge is
/// clicked, and has a menu of its own (right click, Shift+F10) to check a selection or a section (`api` and
/// `onOpenClaim` should be stable: new ones recreate the editor).
export function Editor({
  api,
  onOpenClaim,
}: {
  api: FactdeskApi
  onOpenClaim: (claimId: string) => void
}): JSX.Element {
  const parent = useRef<HTMLDivElement>(null)
  const setCounts = useDocument((store) => store.setCounts)
  const [menu, setMenu] = useState<MenuRequest | null>(null)
  const closeMenu = useCallback(() => setMenu(null), [])

  useEffect(() => {
    if (!parent.current) return
    const writing = new WritingSettingsLink(api)
    const view = new EditorView({
      parent: parent.current,
      extensions: [
        writingEditor(setCounts, { startWorker: startLintWorker, onAddWord: writing.addWord }),
        writing.extension,
        claims(onOpenClaim),
        claimKeys(onOpenClaim, closeSidePanel),
        editorMenu(setMenu),
        draftAutosave(),
      ],
    })
    const disconnect = writing.connect(view)
    setEditorView(view)
    view.focus()
    return () => {
      disconnect()
      setEditorView(null)
      view.destroy()
    }
  }, [api, setCounts, onOpenClaim])

  return (
    <>
      <main className="editor" ref={parent} />
      {menu && <EditorMenu api={api} at={menu} onOpenClaim={onOpenClaim} onClose={closeMenu} />}
    </>
  )
}

/// Escape in the text closes the panel beside it, when one is open.
function closeSidePanel(): boolean {
  const { panel, showPanel } = useChecks.getState()
  if (panel === null) return false
  showPanel(null)
  return true
}

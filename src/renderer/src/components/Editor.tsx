import { EditorView } from '@codemirror/view'
import { useCallback, useEffect, useRef, useState, type JSX } from 'react'
import { autosave } from '../editor/autosave'
import { claimKeys } from '../editor/claimKeys'
import { claims } from '../editor/claims'
import { editorMenu, type MenuRequest } from '../editor/contextMenu'
import { WritingSettingsLink } from '../editor/lintSettings'
import { startLintWorker } from '../editor/lintWorker'
import { writingEditor } from '../editor/writingEditor'
import type { ChecksStoreApi } from '../state/checks'
import { useDocument } from '../state/document'
import { showError } from '../state/notices'
import { EditorMenu } from './EditorMenu'
import { useSettingsDialog } from './settings/open'
import { useDesk } from './useDesk'

/// The window's CodeMirror editor (its desk's), created once and left to manage its own document; it reports its
/// counts to the store, checks spelling and grammar with the saved writing settings, opens a claim's detail when
/// its badge is clicked, and has a menu of its own (right click, Shift+F10) to check a selection or a section
/// (`onOpenClaim` should be stable: a new one recreates the editor).
export function Editor({ onOpenClaim }: { onOpenClaim: (claimId: string) => void }): JSX.Element {
  const desk = useDesk()
  const { api } = desk
  const parent = useRef<HTMLDivElement>(null)
  const setCounts = useDocument((store) => store.setCounts)
  const [menu, setMenu] = useState<MenuRequest | null>(null)
  const closeMenu = useCallback(() => setMenu(null), [])

  useEffect(() => {
    if (!parent.current) return
    const writing = new WritingSettingsLink({
      read: async () => (await api.settings()).writing,
      saveDictionary: async (dictionary) => (await api.updateSettings({ writing: { dictionary } })).writing,
      onNotSaved: (word, error) => showError(error, `“${word}” was not saved: `),
    })
    const view = new EditorView({
      parent: parent.current,
      extensions: [
        writingEditor(setCounts, { startWorker: startLintWorker, onAddWord: writing.addWord }),
        writing.extension,
        claims(onOpenClaim),
        claimKeys(onOpenClaim, () => closeSidePanel(desk.checks)),
        editorMenu(setMenu),
        autosave({
          onEdit: () => desk.drafts.getState().edited(),
          onLeave: () => void desk.drafts.getState().flush(),
        }),
      ],
    })
    const disconnect = writing.connect(view)
    // Closing the Settings dialog may have changed the writing settings.
    const stopReading = useSettingsDialog.subscribe((now, before) => {
      if (before.tab !== null && now.tab === null) writing.read()
    })
    desk.attach(view)
    view.focus()
    return () => {
      stopReading()
      disconnect()
      desk.attach(null)
      view.destroy()
    }
  }, [api, desk, setCounts, onOpenClaim])

  return (
    <>
      <main className="editor" ref={parent} />
      {menu && <EditorMenu at={menu} onOpenClaim={onOpenClaim} onClose={closeMenu} />}
    </>
  )
}

/// Escape in the text closes the panel beside it, when one is open.
function closeSidePanel(checks: ChecksStoreApi): boolean {
  const { panel, showPanel } = checks.getState()
  if (panel === null) return false
  showPanel(null)
  return true
}

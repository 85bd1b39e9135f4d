import { EditorView } from '@codemirror/view'
import { useEffect, useRef, type JSX } from 'react'
import { claimKeys } from '../editor/claimKeys'
import { claims } from '../editor/claims'
import { writingEditor } from '../editor/writingEditor'
import { useDocument } from '../state/document'
import { setEditorView } from '../state/editorView'

/// The CodeMirror editor, created once and left to manage its own document; it reports its counts to the store
/// and opens a claim's detail when its badge is clicked (`onOpenClaim` should be stable: a new one recreates the
/// editor).
export function Editor({ onOpenClaim }: { onOpenClaim: (claimId: string) => void }): JSX.Element {
  const parent = useRef<HTMLDivElement>(null)
  const setCounts = useDocument((store) => store.setCounts)

  useEffect(() => {
    if (!parent.current) return
    const view = new EditorView({
      parent: parent.current,
      extensions: [writingEditor(setCounts), claims(onOpenClaim), claimKeys(onOpenClaim)],
    })
    setEditorView(view)
    view.focus()
    return () => {
      setEditorView(null)
      view.destroy()
    }
  }, [setCounts, onOpenClaim])

  return <main className="editor" ref={parent} />
}

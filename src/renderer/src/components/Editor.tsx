import { EditorView } from '@codemirror/view'
import { useEffect, useRef, type JSX } from 'react'
import { writingEditor } from '../editor/writingEditor'
import { useDocument } from '../state/document'

/// The CodeMirror editor, created once and left to manage its own document; it reports its counts to the store.
export function Editor(): JSX.Element {
  const parent = useRef<HTMLDivElement>(null)
  const setCounts = useDocument((store) => store.setCounts)

  useEffect(() => {
    if (!parent.current) return
    const view = new EditorView({ parent: parent.current, extensions: writingEditor(setCounts) })
    view.focus()
    return () => view.destroy()
  }, [setCounts])

  return <main className="editor" ref={parent} />
}

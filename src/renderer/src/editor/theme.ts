import { Compartment, type Extension } from '@codemirror/state'
import { EditorView, ViewPlugin } from '@codemirror/view'

/// The writing surface: a comfortable measure centred on the window, generous line height, and colours from the
/// page's CSS variables (styles.css), which follow the system's light or dark setting. The measure is placed by
/// the window's width, never the editor's: centred where the window holds it beside the widest side panel
/// (460 px, styles.css), else with that panel's room kept on its right, so a panel that opens moves no text.
const writingTheme = EditorView.theme({
  '&': { height: '100%', fontSize: '17px', color: 'var(--fd-text)', backgroundColor: 'var(--fd-paper)' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'var(--fd-prose)', lineHeight: '1.7' },
  '.cm-content': {
    maxWidth: '42rem',
    marginLeft: 'max(0px, min((100vw - 42rem) / 2, 100vw - 42rem - 460px))',
    marginRight: 'auto',
    padding: '3rem 1.5rem 40vh',
    caretColor: 'var(--fd-caret)',
  },
  '.cm-line': { padding: '0' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fd-caret)', borderLeftWidth: '2px' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection':
    { backgroundColor: 'var(--fd-selection)' },
  '.cm-placeholder': { color: 'var(--fd-muted)' },
  '.cm-searchMatch': { backgroundColor: 'var(--fd-match)' },
  '.cm-searchMatch-selected': { backgroundColor: 'var(--fd-match-selected)' },
  '.cm-panels': { backgroundColor: 'var(--fd-bar)', color: 'var(--fd-text)', fontFamily: 'var(--fd-ui)' },
  '.cm-panels-top': { borderBottom: '1px solid var(--fd-border)' },
})

/// The writing theme, with CodeMirror's own styles (selection, panels) told whether the page is dark, as the
/// system setting changes.
export function writingLook(): Extension {
  const scheme = new Compartment()
  const dark = window.matchMedia('(prefers-color-scheme: dark)')
  const followScheme = ViewPlugin.define((view) => {
    const update = (): void =>
      view.dispatch({ effects: scheme.reconfigure(EditorView.darkTheme.of(dark.matches)) })
    dark.addEventListener('change', update)
    return { destroy: () => dark.removeEventListener('change', update) }
  })
  return [writingTheme, scheme.of(EditorView.darkTheme.of(dark.matches)), followScheme]
}

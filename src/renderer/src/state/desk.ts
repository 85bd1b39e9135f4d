import type { EditorView } from '@codemirror/view'
import type { FactdeskApi } from '../../../shared/api'

/// What one window works with, made once per window and handed to its components (a React context) and to the
/// stores that follow the editor when they connect: the bridge to the engine, the window's editor while it is
/// open, and the name a check of the open draft goes by.
export class Desk {
  private editor: EditorView | null = null

  constructor(
    readonly api: FactdeskApi,
    readonly checkName: () => string | undefined,
  ) {}

  /// The window's editor, null while it is not open.
  view(): EditorView | null {
    return this.editor
  }

  /// The editor component's: `view` is the window's editor from now on (null once it is gone).
  attach(view: EditorView | null): void {
    this.editor = view
  }
}

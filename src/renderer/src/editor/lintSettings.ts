import { Compartment, type Extension } from '@codemirror/state'
import type { EditorView } from '@codemirror/view'
import type { FactdeskApi } from '../../../shared/api'
import { useSettingsDialog } from '../components/settings/open'
import { describeError, useChecks } from '../state/checks'
import { writingSettings, type WritingSettings } from './lint'

/// The app's writing settings (dialect and dictionary) in one editor: read when the editor opens and again when
/// the Settings dialog closes, and every word the writer adds to the dictionary saved with `updateSettings`.
export class WritingSettingsLink {
  private readonly slot = new Compartment()
  private current: WritingSettings = { dialect: 'american', dictionary: [] }
  private view: EditorView | null = null

  constructor(private readonly api: Pick<FactdeskApi, 'settings' | 'updateSettings'>) {}

  /// The settings as an editor extension, replaced in place when they change.
  get extension(): Extension {
    return this.slot.of(writingSettings.of(this.current))
  }

  /// Follows `view` from now on and reads the saved settings into it; returns the function that stops.
  connect(view: EditorView): () => void {
    this.view = view
    this.read()
    const stop = useSettingsDialog.subscribe((now, before) => {
      if (before.tab !== null && now.tab === null) this.read()
    })
    return () => {
      stop()
      this.view = null
    }
  }

  /// Adds a word to the dictionary: known in the editor at once, then saved.
  readonly addWord = (word: string): void => {
    if (this.current.dictionary.includes(word)) return
    const dictionary = [...this.current.dictionary, word]
    this.use({ ...this.current, dictionary })
    this.api.updateSettings({ writing: { dictionary } }).then(
      (settings) => this.use(settings.writing),
      (error: unknown) =>
        useChecks.setState({
          notice: { kind: 'error', text: `“${word}” was not saved: ${describeError(error)}` },
        }),
    )
  }

  private read(): void {
    this.api.settings().then(
      (settings) => this.use(settings.writing),
      // Settings belong to the person at this computer; anyone else writes with the defaults.
      () => undefined,
    )
  }

  private use(settings: WritingSettings): void {
    this.current = settings
    this.view?.dispatch({ effects: this.slot.reconfigure(writingSettings.of(settings)) })
  }
}

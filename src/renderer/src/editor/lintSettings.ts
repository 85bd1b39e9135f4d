import { Compartment, type Extension } from '@codemirror/state'
import type { EditorView } from '@codemirror/view'
import { writingSettings, type WritingSettings } from './lint'

/// Where the writing settings are kept, and who hears that a word was not saved.
export interface WritingSettingsStore {
  read(): Promise<WritingSettings>
  /// Saves the dictionary; resolves with the settings as saved.
  saveDictionary(dictionary: string[]): Promise<WritingSettings>
  onNotSaved(word: string, error: unknown): void
}

/// The app's writing settings (dialect and dictionary) in one editor: read when the editor opens and again on
/// `read` (the Settings dialog closed), and every word the writer adds to the dictionary saved at once.
export class WritingSettingsLink {
  private readonly slot = new Compartment()
  private current: WritingSettings = { dialect: 'american', dictionary: [] }
  private view: EditorView | null = null

  constructor(private readonly store: WritingSettingsStore) {}

  /// The settings as an editor extension, replaced in place when they change.
  get extension(): Extension {
    return this.slot.of(writingSettings.of(this.current))
  }

  /// Follows `view` from now on and reads the saved settings into it; returns the function that stops.
  connect(view: EditorView): () => void {
    this.view = view
    this.read()
    return () => {
      this.view = null
    }
  }

  /// Adds a word to the dictionary: known in the editor at once, then saved.
  readonly addWord = (word: string): void => {
    if (this.current.dictionary.includes(word)) return
    const dictionary = [...this.current.dictionary, word]
    this.use({ ...this.current, dictionary })
    this.store.saveDictionary(dictionary).then(
      (settings) => this.use(settings),
      (error: unknown) => this.store.onNotSaved(word, error),
    )
  }

  /// Reads the saved settings again.
  read(): void {
    this.store.read().then(
      (settings) => this.use(settings),
      // Settings belong to the person at this computer; anyone else writes with the defaults.
      () => undefined,
    )
  }

  private use(settings: WritingSettings): void {
    this.current = settings
    this.view?.dispatch({ effects: this.slot.reconfigure(writingSettings.of(settings)) })
  }
}

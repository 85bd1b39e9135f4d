import { useId, type JSX } from 'react'
import { Dialect } from '../../../../shared/schemas'
import { Problem, useRequest } from './common'
import type { TabProps } from './SettingsDialog'

const DIALECTS: Record<Dialect, string> = {
  american: 'American English (color, center)',
  british: 'British English (colour, centre)',
  canadian: 'Canadian English (colour, center)',
  australian: 'Australian English (colour, centre)',
}

/// Writing: the English whose spelling is checked, and the words added to the dictionary.
export function WritingTab({ api, settings, onSaved }: TabProps): JSX.Element {
  const { writing } = settings
  const saving = useRequest()
  const field = useId()
  const save = (patch: { dialect?: Dialect; dictionary?: string[] }): void =>
    void saving.run(() => api.updateSettings({ writing: patch })).then((answer) => answer && onSaved(answer))

  return (
    <div className="settings-section settings-form">
      <label htmlFor={`${field}-dialect`}>Spelling</label>
      <select
        id={`${field}-dialect`}
        value={writing.dialect}
        disabled={saving.busy}
        onChange={(event) => save({ dialect: event.target.value as Dialect })}
      >
        {Dialect.options.map((dialect) => (
          <option key={dialect} value={dialect}>
            {DIALECTS[dialect]}
          </option>
        ))}
      </select>
      <h3>Dictionary</h3>
      {writing.dictionary.length === 0 ? (
        <p className="muted">No words yet: add them from a spelling mark in the editor.</p>
      ) : (
        <ul className="dictionary" aria-label="Words in the dictionary">
          {writing.dictionary.map((word) => (
            <li key={word}>
              <span>{word}</span>
              <button
                type="button"
                className="close"
                aria-label={`Remove ${word} from the dictionary`}
                disabled={saving.busy}
                onClick={() => save({ dictionary: writing.dictionary.filter((each) => each !== word) })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <Problem text={saving.error} />
    </div>
  )
}

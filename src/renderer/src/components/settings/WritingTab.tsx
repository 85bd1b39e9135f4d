import { useEffect, useId, useRef, type JSX } from 'react'
import { Dialect, FindClaims, type SettingsPatch } from '../../../../shared/schemas'
import { focusInPlaceOf, focusLost } from '../focus'
import { Problem, useRequest, type TabProps } from './common'

const DIALECTS: Record<Dialect, string> = {
  american: 'American English (color, center)',
  british: 'British English (colour, centre)',
  canadian: 'Canadian English (colour, center)',
  australian: 'Australian English (colour, centre)',
}

/// Each "Find claims" setting in words: what the writer gains and gives up (the README gives its precision and
/// recall).
const FINDING: Record<FindClaims, string> = {
  fewer: 'Fewer: only the likeliest claims (fewer to check, more missed)',
  balanced: 'Balanced',
  more: 'More: miss fewer claims (more to check, some no claim)',
}

/// Writing: the English whose spelling is checked, how many claims a text's check finds, and the words added to
/// the dictionary.
export function WritingTab({ api, settings, onSaved }: TabProps): JSX.Element {
  const { writing } = settings
  const saving = useRequest()
  const field = useId()
  const dialect = useRef<HTMLSelectElement>(null)
  const words = useRef<HTMLUListElement>(null)
  const save = async (patch: NonNullable<SettingsPatch['writing']>): Promise<boolean> => {
    const answer = await saving.run(() => api.updateSettings({ writing: patch }))
    if (answer) onSaved(answer)
    return answer !== undefined
  }
  // A word's × goes with its word: the focus moves to the word that took its place, once the list without it is
  // shown and its controls are enabled again.
  const removed = useRef<{ index: number; from: string[] } | null>(null)
  const remove = async (index: number): Promise<void> => {
    removed.current = { index, from: writing.dictionary }
    if (!(await save({ dictionary: writing.dictionary.filter((_, i) => i !== index) })))
      removed.current = null
  }
  useEffect(() => {
    const pending = removed.current
    if (!pending || pending.from === writing.dictionary || saving.busy) return
    removed.current = null
    if (!focusLost()) return
    focusInPlaceOf(words.current?.querySelectorAll('button') ?? [], pending.index, dialect.current)
  }, [writing.dictionary, saving.busy])

  return (
    <div className="settings-section settings-form">
      <label htmlFor={`${field}-dialect`}>Spelling</label>
      <select
        id={`${field}-dialect`}
        ref={dialect}
        value={writing.dialect}
        disabled={saving.busy}
        onChange={(event) => void save({ dialect: event.target.value as Dialect })}
      >
        {Dialect.options.map((dialect) => (
          <option key={dialect} value={dialect}>
            {DIALECTS[dialect]}
          </option>
        ))}
      </select>
      <label htmlFor={`${field}-find`}>Find claims</label>
      <select
        id={`${field}-find`}
        value={writing.findClaims}
        disabled={saving.busy}
        onChange={(event) => void save({ findClaims: event.target.value as FindClaims })}
      >
        {FindClaims.options.map((level) => (
          <option key={level} value={level}>
            {FINDING[level]}
          </option>
        ))}
      </select>
      <h3>Dictionary</h3>
      {writing.dictionary.length === 0 ? (
        <p className="muted">No words yet: add them from a spelling mark in the editor.</p>
      ) : (
        <ul className="dictionary" aria-label="Words in the dictionary" ref={words}>
          {writing.dictionary.map((word, index) => (
            <li key={word}>
              <span>{word}</span>
              <button
                type="button"
                className="close"
                aria-label={`Remove ${word} from the dictionary`}
                disabled={saving.busy}
                onClick={() => void remove(index)}
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

import { Fragment, useId, useState, type FormEvent, type JSX } from 'react'
import type { SourcePolicy } from '../../../../shared/schemas'
import { Problem, useRequest, type TabProps } from './common'

/// The lists of a source policy, with what each does, in the order the form shows them.
const LISTS: { list: keyof SourcePolicy; label: string; note: string }[] = [
  {
    list: 'prefer',
    label: 'Preferred sites',
    note: 'Ranked first, and marked as preferred in every citation.',
  },
  {
    list: 'only',
    label: 'Only these sites',
    note: 'When any are listed, t3 and deep research search and cite nothing else.',
  },
  {
    list: 'never',
    label: 'Never these sites',
    note: 'Never searched, read or cited: content farms, machine-written encyclopedias.',
  },
]

/// The sites of a list as typed: one a line (commas and spaces separate them too).
const sitesOf = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean)

/// The source policy of this organization: the sites t3 and deep research prefer, keep to and never cite. A
/// site covers its subdomains; the server writes each as it keeps it and names one it cannot read.
export function SourcesForm({ api, settings, onSaved }: TabProps): JSX.Element {
  const [lists, setLists] = useState(() => toText(settings.sources))
  const [saved, setSaved] = useState(false)
  const saving = useRequest()
  const field = useId()

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    setSaved(false)
    const answer = await saving.run(() =>
      api.updateSettings({
        sources: { prefer: sitesOf(lists.prefer), only: sitesOf(lists.only), never: sitesOf(lists.never) },
      }),
    )
    if (answer) {
      onSaved(answer)
      setLists(toText(answer.sources))
      setSaved(true)
    }
  }

  return (
    <form className="settings-section settings-form" onSubmit={(event) => void submit(event)}>
      <h3>Source policy</h3>
      <p className="muted field-note">One site a line, such as reuters.com; a site covers its subdomains.</p>
      {LISTS.map(({ list, label, note }) => (
        <Fragment key={list}>
          <label htmlFor={`${field}-${list}`}>{label}</label>
          <textarea
            id={`${field}-${list}`}
            rows={3}
            spellCheck={false}
            value={lists[list]}
            aria-describedby={`${field}-${list}-note`}
            onChange={(event) => {
              setLists({ ...lists, [list]: event.target.value })
              setSaved(false)
            }}
          />
          <p id={`${field}-${list}-note`} className="muted field-note">
            {note}
          </p>
        </Fragment>
      ))}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={saving.busy}>
          {saving.busy ? 'Saving…' : 'Save source policy'}
        </button>
        <span role="status" className="muted">
          {saved ? 'Saved.' : ''}
        </span>
      </div>
      <Problem text={saving.error} />
    </form>
  )
}

const toText = (policy: SourcePolicy): Record<keyof SourcePolicy, string> => ({
  prefer: policy.prefer.join('\n'),
  only: policy.only.join('\n'),
  never: policy.never.join('\n'),
})

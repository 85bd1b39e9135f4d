import { useId, useState, type FormEvent, type JSX } from 'react'
import { SEARCH_BASE_URLS } from '../../../../shared/config'
import { SearchProviderName } from '../../../../shared/schemas'
import { Problem, savedKeyText, useRequest } from './common'
import type { TabProps } from './SettingsDialog'

const PROVIDERS: Record<SearchProviderName, { name: string; key: boolean }> = {
  wikipedia: { name: 'Wikipedia (MediaWiki, no key)', key: false },
  brave: { name: 'Brave Search', key: true },
  tavily: { name: 'Tavily', key: true },
  searxng: { name: 'SearXNG (your own instance)', key: false },
}

/// Search: where t3 and deep research look things up, and its key.
export function SearchTab({ api, settings, onSaved }: TabProps): JSX.Element {
  const { search } = settings
  const [provider, setProvider] = useState(search.provider)
  const [baseURL, setBaseURL] = useState(search.baseURL)
  const [apiKey, setApiKey] = useState('')
  const [saved, setSaved] = useState(false)
  const saving = useRequest()
  const field = useId()

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    setSaved(false)
    const answer = await saving.run(() =>
      api.updateSettings({
        search: { provider, baseURL: baseURL.trim(), ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}) },
      }),
    )
    if (answer) {
      onSaved(answer)
      setApiKey('')
      setSaved(true)
    }
  }

  return (
    <form className="settings-section settings-form" onSubmit={(event) => void submit(event)}>
      <p className="muted">t3 and deep research search the web through this provider.</p>
      <label htmlFor={`${field}-provider`}>Provider</label>
      <select
        id={`${field}-provider`}
        value={provider}
        onChange={(event) => {
          const next = event.target.value as SearchProviderName
          setProvider(next)
          setBaseURL(SEARCH_BASE_URLS[next])
          setSaved(false)
        }}
      >
        {SearchProviderName.options.map((each) => (
          <option key={each} value={each}>
            {PROVIDERS[each].name}
          </option>
        ))}
      </select>
      <label htmlFor={`${field}-base`}>Base URL</label>
      <input
        id={`${field}-base`}
        type="url"
        required
        value={baseURL}
        onChange={(event) => setBaseURL(event.target.value)}
      />
      <label htmlFor={`${field}-key`}>API key</label>
      <input
        id={`${field}-key`}
        type="password"
        autoComplete="off"
        value={apiKey}
        placeholder={
          search.key.hasKey
            ? 'Leave empty to keep the saved key'
            : PROVIDERS[provider].key
              ? 'Needed'
              : 'Not needed'
        }
        aria-describedby={`${field}-key-state`}
        onChange={(event) => setApiKey(event.target.value)}
      />
      <p id={`${field}-key-state`} className="muted field-note">
        {search.key.hasKey || !search.apiKeyEnv ? savedKeyText(search.key) : `Key from $${search.apiKeyEnv}`}
      </p>
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={saving.busy}>
          {saving.busy ? 'Saving…' : 'Save'}
        </button>
        <span role="status" className="muted">
          {saved ? 'Saved.' : ''}
        </span>
      </div>
      <Problem text={saving.error} />
    </form>
  )
}

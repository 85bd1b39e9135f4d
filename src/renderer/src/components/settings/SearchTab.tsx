import { useId, useState, type FormEvent, type JSX } from 'react'
import { sameAddress, SEARCH_BASE_URLS } from '../../../../shared/config'
import { SearchProviderName, type SearchTest } from '../../../../shared/schemas'
import { KeysRefused, movedKeyText, Problem, savedKeyText, useRequest, type TabProps } from './common'
import { SourcesForm } from './SourcesForm'

const PROVIDERS: Record<SearchProviderName, { name: string; key: boolean }> = {
  wikipedia: { name: 'Wikipedia (MediaWiki, no key)', key: false },
  brave: { name: 'Brave Search', key: true },
  tavily: { name: 'Tavily', key: true },
  searxng: { name: 'SearXNG (your own instance)', key: false },
}

/// Search: where t3 and deep research look things up, its key, and the organization's source policy.
export function SearchTab({ api, settings, onSaved }: TabProps): JSX.Element {
  const { search } = settings
  const [provider, setProvider] = useState(search.provider)
  const [baseURL, setBaseURL] = useState(search.baseURL)
  const [apiKey, setApiKey] = useState('')
  const [saved, setSaved] = useState(false)
  const [tested, setTested] = useState<SearchTest | null>(null)
  const saving = useRequest()
  const testing = useRequest()
  const field = useId()
  const moved = search.key.hasKey && !sameAddress(search, { provider, baseURL })

  // A change to the form makes an earlier test's answer stale.
  const changed = (): void => {
    setSaved(false)
    setTested(null)
  }
  const test = async (): Promise<void> => {
    setTested(null)
    const request = { provider, baseURL: baseURL.trim(), ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}) }
    const answer = await testing.run(() => api.testSearch(request))
    if (answer) setTested(answer)
  }

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
    <>
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
            changed()
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
          onChange={(event) => {
            setBaseURL(event.target.value)
            changed()
          }}
        />
        <label htmlFor={`${field}-key`}>API key</label>
        <input
          id={`${field}-key`}
          type="password"
          autoComplete="off"
          value={apiKey}
          placeholder={
            moved
              ? 'The key for this address'
              : search.key.hasKey
                ? 'Leave empty to keep the saved key'
                : PROVIDERS[provider].key
                  ? 'Needed'
                  : 'Not needed'
          }
          aria-describedby={`${field}-key-state${settings.keysRefused ? ` ${field}-key-refused` : ''}`}
          onChange={(event) => {
            setApiKey(event.target.value)
            changed()
          }}
        />
        <p id={`${field}-key-state`} className="muted field-note">
          {moved
            ? movedKeyText('key')
            : search.key.hasKey || !search.apiKeyEnv
              ? savedKeyText(search.key)
              : `Key from $${search.apiKeyEnv}`}
        </p>
        <KeysRefused id={`${field}-key-refused`} reason={settings.keysRefused} />
        <div className="form-actions">
          <button
            type="button"
            className="button"
            disabled={testing.busy || baseURL.trim() === ''}
            onClick={() => void test()}
          >
            {testing.busy ? 'Searching…' : 'Test search'}
          </button>
          <button type="submit" className="button primary" disabled={saving.busy}>
            {saving.busy ? 'Saving…' : 'Save'}
          </button>
          <span role="status" className="muted">
            {saved ? 'Saved.' : ''}
          </span>
        </div>
        <div role="status" aria-label="Search test" aria-live="polite">
          {tested && (
            <p className={tested.ok ? 'test-ok' : 'settings-problem'}>
              {tested.ok ? `Searched: ${tested.message}` : `Did not search: ${tested.message}`}
            </p>
          )}
        </div>
        <Problem text={saving.error ?? testing.error} />
      </form>
      <SourcesForm api={api} settings={settings} onSaved={onSaved} />
    </>
  )
}

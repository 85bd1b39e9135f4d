import { useId, useState, type FormEvent, type JSX } from 'react'
import { remoteServiceUrlProblem, type ServiceMode, type ServiceTest } from '../../../../shared/schemas'
import { KeysRefused, movedKeyText, Problem, savedKeyText, useRequest, type TabProps } from './common'

/// Service: whether checks run in the app's own engine or on a remote Factdesk service (its base URL, with
/// `/api/v1`, and a token, which is write-only and stays in the app's main process).
export function ServiceTab({ api, settings, onSaved }: TabProps): JSX.Element {
  const { service } = settings
  const [mode, setMode] = useState<ServiceMode>(service.mode)
  const [baseURL, setBaseURL] = useState(service.baseURL ?? '')
  const [token, setToken] = useState('')
  const [saved, setSaved] = useState(false)
  const [result, setResult] = useState<ServiceTest | null>(null)
  const saving = useRequest()
  const testing = useRequest()
  const field = useId()

  if (!service.available) {
    return (
      <section className="settings-section">
        <p className="muted">
          This page always works with the Factdesk that serves it. A remote service is a setting of the
          desktop app.
        </p>
      </section>
    )
  }

  const remote = mode === 'remote'
  const url = baseURL.trim()
  const newToken = token.trim()
  const urlProblem = url ? remoteServiceUrlProblem(url) : null
  // The saved token is never sent to another service (the app forgets it on saving).
  const moved = service.token.hasKey && url !== '' && url !== service.baseURL
  const hasToken = newToken !== '' || (service.token.hasKey && !moved)

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    setSaved(false)
    const answer = await saving.run(() =>
      api.updateSettings({
        service: {
          mode,
          ...(url ? { baseURL: url } : {}),
          ...(newToken ? { token: newToken } : {}),
        },
      }),
    )
    if (answer) {
      onSaved(answer)
      setToken('')
      setSaved(true)
    }
  }

  const test = async (): Promise<void> => {
    setResult(null)
    const answer = await testing.run(() =>
      api.testService({ baseURL: url, ...(newToken ? { token: newToken } : {}) }),
    )
    if (answer) setResult(answer)
  }

  return (
    <form className="settings-section settings-form" onSubmit={(event) => void submit(event)}>
      <fieldset>
        <legend>Where checks run</legend>
        <label>
          <input
            type="radio"
            name={`${field}-mode`}
            value="embedded"
            checked={!remote}
            onChange={() => setMode('embedded')}
          />{' '}
          In this app, on this computer
        </label>
        <label>
          <input
            type="radio"
            name={`${field}-mode`}
            value="remote"
            checked={remote}
            onChange={() => setMode('remote')}
          />{' '}
          On a remote Factdesk service
        </label>
      </fieldset>
      <p className="muted">
        With a remote service, estimates, checks, their history and deep research use its organization and
        credits; progress is read from it every few seconds. Settings, keys and drafts stay on this computer.
      </p>
      <label htmlFor={`${field}-base`}>Base URL</label>
      <input
        id={`${field}-base`}
        type="url"
        required={remote}
        placeholder="https://factdesk.example.org/api/v1"
        aria-describedby={`${field}-base-note`}
        value={baseURL}
        onChange={(event) => setBaseURL(event.target.value)}
      />
      <p id={`${field}-base-note`} className="muted field-note">
        https, with /api/v1 (plain http only to this computer)
      </p>
      <label htmlFor={`${field}-token`}>Token</label>
      <input
        id={`${field}-token`}
        type="password"
        autoComplete="off"
        value={token}
        placeholder={
          service.token.hasKey && !moved
            ? 'Leave empty to keep the saved token'
            : 'A write token of the service'
        }
        aria-describedby={`${field}-token-state${service.tokenRefused ? ` ${field}-token-refused` : ''}`}
        onChange={(event) => setToken(event.target.value)}
      />
      <p id={`${field}-token-state`} className="muted field-note">
        {moved ? movedKeyText('token') : savedKeyText(service.token)}
      </p>
      <KeysRefused id={`${field}-token-refused`} reason={service.tokenRefused} />
      <div className="form-actions">
        <button
          type="button"
          className="button"
          disabled={!url || urlProblem !== null || !hasToken || testing.busy}
          onClick={() => void test()}
        >
          {testing.busy ? 'Testing…' : 'Test connection'}
        </button>
        <button type="submit" className="button primary" disabled={urlProblem !== null || saving.busy}>
          {saving.busy ? 'Saving…' : 'Save'}
        </button>
        <span role="status" className="muted">
          {saved
            ? remote
              ? 'Saved: checks now run on the remote service.'
              : 'Saved: checks run in this app.'
            : ''}
        </span>
      </div>
      <div role="status" aria-live="polite">
        {result && (
          <p className={result.ok ? 'test-ok' : 'settings-problem'}>
            {result.ok ? result.message : `Not connected: ${result.message}`}
          </p>
        )}
      </div>
      <Problem text={urlProblem && `The base URL ${urlProblem}.`} />
      <Problem text={testing.error} />
      <Problem text={saving.error} />
    </form>
  )
}

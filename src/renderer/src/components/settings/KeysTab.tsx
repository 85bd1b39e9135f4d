import { Fragment, useEffect, useId, useRef, useState, type FormEvent, type JSX } from 'react'
import type {
  ApiToken,
  CreatedToken,
  Scope,
  WebhookSecret,
  WebhookSecretRotation,
} from '../../../../shared/schemas'
import { API_BASE } from '../../../../shared/rest'
import { Confirmation } from '../Confirmation'
import { focusInPlaceOf } from '../focus'
import { writtenMoment } from '../../dates'
import { CopyButton, Problem, useRequest, type TabProps } from './common'

/// API keys: tokens for the REST API, the webhook signing secret and the local REST server.
export function KeysTab(props: TabProps): JSX.Element {
  return (
    <div className="settings-section">
      <Tokens api={props.api} />
      <SigningSecret api={props.api} />
      <LocalServerSwitch {...props} />
    </div>
  )
}

function Tokens({ api }: { api: TabProps['api'] }): JSX.Element {
  const [tokens, setTokens] = useState<ApiToken[] | null>(null)
  // The token this window signs in with: listed, but not revocable from here.
  const [ownId, setOwnId] = useState<string | null>(null)
  const [created, setCreated] = useState<CreatedToken | null>(null)
  // The token asked about before it is revoked, and where its Revoke button was among them.
  const [revoking, setRevoking] = useState<{ token: ApiToken; index: number } | null>(null)
  const shown = useRef<HTMLDivElement>(null)
  const table = useRef<HTMLTableElement>(null)
  const nameField = useRef<HTMLInputElement>(null)
  const [name, setName] = useState('')
  const [scope, setScope] = useState<Scope>('read')
  const request = useRequest()
  const field = useId()
  const { run } = request

  useEffect(() => {
    void run(() => api.listTokens()).then((list) => list && setTokens(list.data))
    api.me().then(
      (me) => setOwnId(me.token.id),
      () => setOwnId(null),
    )
  }, [api, run])
  // A new token is shown once: the focus goes to its Copy button, so that a keyboard reader hears it.
  useEffect(() => {
    if (created) shown.current?.querySelector('button')?.focus()
  }, [created])

  const reload = async (): Promise<void> => {
    const list = await run(() => api.listTokens())
    if (list) setTokens(list.data)
  }
  const create = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    const answer = await run(() => api.createToken({ scope, name: name.trim() || null }))
    if (!answer) return
    setCreated(answer)
    setName('')
    await reload()
  }
  const revoke = async (token: ApiToken): Promise<void> => {
    if (await run(() => api.revokeToken(token.id))) await reload()
    setRevoking(null)
  }
  const revokeButtons = (): NodeListOf<HTMLButtonElement> | [] =>
    table.current?.querySelectorAll<HTMLButtonElement>('.token-revoke') ?? []

  return (
    <section aria-labelledby={`${field}-title`}>
      <h3 id={`${field}-title`}>API tokens</h3>
      <p className="muted">
        For scripts and other programs calling the REST API: <code>Authorization: Bearer &lt;token&gt;</code>.
        A read token may only read; a write token may also check, cancel and edit.
      </p>
      <form className="settings-form inline-form" onSubmit={(event) => void create(event)}>
        <label htmlFor={`${field}-name`}>Name</label>
        <input
          id={`${field}-name`}
          ref={nameField}
          value={name}
          placeholder="e.g. newsroom dashboard"
          onChange={(event) => setName(event.target.value)}
        />
        <label htmlFor={`${field}-scope`}>Scope</label>
        <select
          id={`${field}-scope`}
          value={scope}
          onChange={(event) => setScope(event.target.value as Scope)}
        >
          <option value="read">read</option>
          <option value="write">write</option>
        </select>
        <button type="submit" className="button primary" disabled={request.busy}>
          Create token
        </button>
      </form>
      {created && (
        <div className="shown-once" ref={shown} role="group" aria-labelledby={`${field}-once`}>
          <p id={`${field}-once`}>
            <strong>Copy the token now:</strong> it is shown this once and never again.
          </p>
          <div className="secret-line">
            <code aria-label="New token">{created.value}</code>
            <CopyButton text={created.value} label="Copy the new token" />
            <button type="button" className="button quiet" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      )}
      <Problem text={request.error} />
      {tokens && (
        <table className="token-table" ref={table}>
          <caption className="muted">{tokens.length === 0 ? 'No tokens yet.' : 'Tokens'}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Scope</th>
              <th scope="col">Created</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <Fragment key={token.id}>
                <tr className={token.revokedAt ? 'revoked' : undefined}>
                  <td>{token.name ?? <span className="muted">{token.id}</span>}</td>
                  <td>{token.scope}</td>
                  <td>{writtenMoment(token.createdAt)}</td>
                  <td>{token.revokedAt ? `revoked ${writtenMoment(token.revokedAt)}` : 'active'}</td>
                  <td>
                    {token.id === ownId && <span className="muted">this window</span>}
                    {token.revokedAt === null && token.id !== ownId && (
                      <button
                        type="button"
                        className="button token-revoke"
                        aria-label={`Revoke ${token.name ?? token.id}`}
                        aria-expanded={revoking?.token.id === token.id}
                        disabled={request.busy}
                        onClick={(event) =>
                          setRevoking({ token, index: [...revokeButtons()].indexOf(event.currentTarget) })
                        }
                      >
                        Revoke…
                      </button>
                    )}
                  </td>
                </tr>
                {revoking?.token.id === token.id && (
                  <tr>
                    <td colSpan={5}>
                      <Confirmation
                        label={`Revoke ${token.name ?? token.id}`}
                        alert
                        onCancel={() => setRevoking(null)}
                        returnFocus={() => focusInPlaceOf(revokeButtons(), revoking.index, nameField.current)}
                      >
                        <p>
                          Revoke {token.name ?? token.id}? Programs using it are refused from now on; this
                          cannot be undone.
                        </p>
                        <div className="confirm-actions">
                          <button
                            type="button"
                            className="button primary"
                            disabled={request.busy}
                            onClick={() => void revoke(token)}
                          >
                            Revoke
                          </button>
                          <button
                            type="button"
                            className="button quiet"
                            autoFocus
                            onClick={() => setRevoking(null)}
                          >
                            Keep it
                          </button>
                        </div>
                      </Confirmation>
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

function SigningSecret({ api }: { api: TabProps['api'] }): JSX.Element {
  const [secret, setSecret] = useState<WebhookSecret | null>(null)
  const [rotation, setRotation] = useState<WebhookSecretRotation | null>(null)
  const [confirming, setConfirming] = useState(false)
  const request = useRequest()
  const field = useId()

  const show = async (): Promise<void> => {
    const answer = await request.run(() => api.webhookSecret())
    if (answer) setSecret(answer)
  }
  const rotate = async (): Promise<void> => {
    setConfirming(false)
    const answer = await request.run(() => api.rotateWebhookSecret())
    if (!answer) return
    setRotation(answer)
    await show()
  }

  return (
    <section aria-labelledby={`${field}-title`}>
      <h3 id={`${field}-title`}>Webhook signing secret</h3>
      <p className="muted">
        Every webhook is signed with this secret (<code>X-SVC-Signature</code>); your receiver checks the
        signature with it. Rotating issues a new secret at once; the old one keeps signing beside it for 24
        hours, so you can update the receiver without missing an event.
      </p>
      <div className="secret-line">
        {secret ? (
          <>
            <code aria-label="Signing secret">{secret.secret}</code>
            <CopyButton text={secret.secret} label="Copy the signing secret" />
            <button type="button" className="button quiet" onClick={() => setSecret(null)}>
              Hide
            </button>
          </>
        ) : (
          <button type="button" className="button" disabled={request.busy} onClick={() => void show()}>
            Show secret
          </button>
        )}
        {/* Never disabled: it takes the focus back when the question is answered. */}
        <button
          type="button"
          className="button"
          aria-expanded={confirming}
          onClick={() => setConfirming(true)}
        >
          Rotate…
        </button>
      </div>
      {confirming && (
        <Confirmation label="Rotate the signing secret" alert onCancel={() => setConfirming(false)}>
          <p>A new secret signs from now on; the current one also signs for the next 24 hours, then stops.</p>
          <div className="confirm-actions">
            <button type="button" className="button primary" onClick={() => void rotate()}>
              Rotate now
            </button>
            <button type="button" className="button quiet" autoFocus onClick={() => setConfirming(false)}>
              Keep the current secret
            </button>
          </div>
        </Confirmation>
      )}
      <div role="status" aria-live="polite">
        {rotation && (
          <p>Rotated. The previous secret keeps signing until {writtenMoment(rotation.previousExpiresAt)}.</p>
        )}
      </div>
      {secret && secret.previous.length > 0 && (
        <p className="muted">
          Also signing until they expire:{' '}
          {secret.previous
            .map((previous) => `a previous secret until ${writtenMoment(previous.expiresAt)}`)
            .join('; ')}
          .
        </p>
      )}
      <Problem text={request.error} />
    </section>
  )
}

function LocalServerSwitch({ api, settings, onSaved }: TabProps): JSX.Element {
  const server = settings.localServer
  const [port, setPort] = useState(String(server.port))
  const request = useRequest()
  const field = useId()
  const portNumber = /^\d+$/.test(port) ? Number(port) : NaN
  const validPort = portNumber >= 1024 && portNumber <= 65535

  const apply = async (enabled: boolean): Promise<void> => {
    const answer = await request.run(() =>
      api.updateSettings({ localServer: validPort ? { enabled, port: portNumber } : { enabled } }),
    )
    if (answer) onSaved(answer)
  }

  return (
    <section aria-labelledby={`${field}-title`}>
      <h3 id={`${field}-title`}>Local REST server</h3>
      {server.available ? (
        <>
          <p className="muted">
            Serves the REST API to programs on this computer only (127.0.0.1), with the tokens above. Off
            unless you turn it on.
          </p>
          <div className="settings-form inline-form">
            <label className="inline-check">
              <input
                type="checkbox"
                checked={server.enabled}
                disabled={request.busy || (!server.enabled && !validPort)}
                onChange={(event) => void apply(event.target.checked)}
              />{' '}
              Serve the REST API on this computer
            </label>
            <label htmlFor={`${field}-port`}>Port</label>
            <input
              id={`${field}-port`}
              inputMode="numeric"
              value={port}
              disabled={server.enabled}
              aria-invalid={!validPort}
              onChange={(event) => setPort(event.target.value)}
            />
          </div>
          {!validPort && <p className="settings-problem">The port is a number from 1024 to 65535.</p>}
          <div role="status" aria-live="polite">
            {server.address && (
              <p>
                Listening on <code>{server.address}</code>
              </p>
            )}
          </div>
          <Problem text={server.error} />
        </>
      ) : (
        <p className="muted">
          This Factdesk already serves the REST API, at <code>{window.location.origin + API_BASE}</code>; the
          desktop app can serve it as well, from this setting.
        </p>
      )}
      <Problem text={request.error} />
    </section>
  )
}

import { Fragment, useEffect, useId, useRef, useState, type FormEvent, type JSX } from 'react'
import {
  ModelProvider,
  type ModelInput,
  type ModelTest,
  type OllamaDetection,
  type SettingsModel,
} from '../../../../shared/schemas'
import { sameAddress } from '../../../../shared/config'
import { QuotedCode } from '../QuotedCode'
import { Confirmation } from '../Confirmation'
import { focusInPlaceOf } from '../focus'
import { KeysRefused, movedKeyText, Problem, savedKeyText, useRequest, type TabProps } from './common'

const PROVIDER_NAMES: Record<ModelProvider, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google',
  ollama: 'Ollama (native API)',
  'openai-compatible': 'OpenAI-compatible (Ollama, LM Studio, vLLM…)',
}

/// A model being added or edited: the form's fields as typed.
interface Draft {
  /// The slot it goes to: a new panel model, a panel model by its index, or the judge.
  slot: { kind: 'panel'; index: number | null } | { kind: 'judge' }
  id: string
  provider: ModelProvider
  baseURL: string
  model: string
  apiKeyEnv: string
  /// A new key (empty: keep the saved one).
  apiKey: string
  removeKey: boolean
  /// The saved model's key, when editing one.
  saved: SettingsModel | null
}

const sameSlot = (a: Draft['slot'], b: Draft['slot']): boolean =>
  a.kind === 'judge' ? b.kind === 'judge' : b.kind === 'panel' && a.index === b.index

/// A saved model as sent back unchanged (its key kept).
const unchanged = (model: SettingsModel): ModelInput => ({
  id: model.id,
  provider: model.provider,
  baseURL: model.baseURL,
  model: model.model,
  apiKeyEnv: model.apiKeyEnv,
})

/// The form's model as the engine takes it.
function fromDraft(draft: Draft): ModelInput {
  const apiKey = draft.removeKey ? null : draft.apiKey.trim() === '' ? undefined : draft.apiKey.trim()
  return {
    id: draft.id.trim(),
    provider: draft.provider,
    baseURL: draft.baseURL.trim() === '' ? null : draft.baseURL.trim(),
    model: draft.model.trim(),
    apiKeyEnv: draft.apiKeyEnv.trim() === '' ? null : draft.apiKeyEnv.trim(),
    ...(apiKey === undefined ? {} : { apiKey }),
  }
}

function draftOf(model: SettingsModel | null, slot: Draft['slot']): Draft {
  return {
    slot,
    id: model?.id ?? '',
    provider: model?.provider ?? 'openai-compatible',
    baseURL: model?.baseURL ?? '',
    model: model?.model ?? '',
    apiKeyEnv: model?.apiKeyEnv ?? '',
    apiKey: '',
    removeKey: false,
    saved: model,
  }
}

/// Models: the panel that votes on each claim and the judge that decides, each with its provider, endpoint,
/// model and key; a connection test per model and the models of a local Ollama.
export function ModelsTab({ api, settings, onSaved }: TabProps): JSX.Element {
  const { panel, judge } = settings.models
  const [draft, setDraft] = useState<Draft | null>(null)
  // The model asked about before it is removed: `panel:<id>` or `judge`.
  const [removing, setRemoving] = useState<string | null>(null)
  const saving = useRequest()
  const panelList = useRef<HTMLUListElement>(null)
  const addPanel = useRef<HTMLButtonElement>(null)
  const setJudge = useRef<HTMLButtonElement>(null)

  const save = async (models: { panel?: ModelInput[]; judge?: ModelInput | null }): Promise<boolean> => {
    const saved = await saving.run(() => api.updateSettings({ models }))
    if (saved) onSaved(saved)
    return saved !== undefined
  }

  const submit = async (edited: Draft): Promise<void> => {
    const model = fromDraft(edited)
    const done =
      edited.slot.kind === 'judge'
        ? await save({ judge: model })
        : await save({
            panel:
              edited.slot.index === null
                ? [...panel.map(unchanged), model]
                : panel.map((each, index) =>
                    index === (edited.slot as { index: number }).index ? model : unchanged(each),
                  ),
          })
    // Another form the writer opened while this one was saving stays open.
    if (done) setDraft((open) => (open && sameSlot(open.slot, edited.slot) ? null : open))
  }

  const remove = async (models: { panel?: ModelInput[]; judge?: null }): Promise<void> => {
    await save(models)
    setRemoving(null)
  }

  const usedIds = new Set([...panel.map((m) => m.id), ...(judge ? [judge.id] : [])])
  const addFromOllama = (name: string, baseURL: string, slot: Draft['slot']): void => {
    const stem = name.replace(/:.*$/, '').replace(/[^A-Za-z0-9_-]+/g, '-') || 'local'
    let id = slot.kind === 'judge' ? 'judge' : stem
    for (let n = 2; slot.kind === 'panel' && usedIds.has(id); n++) id = `${stem}-${n}`
    setDraft({ ...draftOf(null, slot), id, baseURL, model: name })
  }

  // The form opens where the writer asked for it: under the model being edited, or in place of the button.
  const form = draft && (
    <ModelForm
      key={`${draft.slot.kind}-${draft.saved?.id ?? 'new'}-${draft.model}`}
      api={api}
      initial={draft}
      busy={saving.busy}
      takenIds={usedIds}
      keysRefused={settings.keysRefused}
      onSubmit={(edited) => void submit(edited)}
      onCancel={() => {
        saving.clear()
        setDraft(null)
      }}
    />
  )

  return (
    <div className="settings-section">
      <p className="muted">
        Each panel model votes on every claim (t2, t3); the judge weighs the votes and decides. Keys are kept
        encrypted on this computer and are never shown again.
      </p>
      <h3>Panel</h3>
      {panel.length === 0 && <p className="muted">No panel models yet.</p>}
      <ul className="model-list" aria-label="Panel models" ref={panelList}>
        {panel.map((model, index) => (
          <Fragment key={model.id}>
            <ModelRow
              model={model}
              removing={removing === `panel:${model.id}`}
              onEdit={() => setDraft(draftOf(model, { kind: 'panel', index }))}
              onRemove={() => setRemoving(`panel:${model.id}`)}
            />
            {removing === `panel:${model.id}` && (
              <RemoveModel
                model={model}
                busy={saving.busy}
                onRemove={() => void remove({ panel: panel.filter((_, i) => i !== index).map(unchanged) })}
                onCancel={() => setRemoving(null)}
                afterRemoval={() =>
                  focusInPlaceOf(
                    panelList.current?.querySelectorAll('.model-remove') ?? [],
                    index,
                    addPanel.current,
                  )
                }
              />
            )}
            {draft?.slot.kind === 'panel' && draft.slot.index === index && <li>{form}</li>}
          </Fragment>
        ))}
      </ul>
      {draft?.slot.kind === 'panel' && draft.slot.index === null ? (
        form
      ) : (
        <button
          type="button"
          className="button"
          ref={addPanel}
          onClick={() => setDraft(draftOf(null, { kind: 'panel', index: null }))}
        >
          Add a panel model
        </button>
      )}
      <h3>Judge</h3>
      {judge ? (
        <ul className="model-list" aria-label="Judge">
          <ModelRow
            model={judge}
            removing={removing === 'judge'}
            onEdit={() => setDraft(draftOf(judge, { kind: 'judge' }))}
            onRemove={() => setRemoving('judge')}
          />
          {removing === 'judge' && (
            <RemoveModel
              model={judge}
              busy={saving.busy}
              onRemove={() => void remove({ judge: null })}
              onCancel={() => setRemoving(null)}
              afterRemoval={() => setJudge.current?.focus()}
            />
          )}
          {draft?.slot.kind === 'judge' && <li>{form}</li>}
        </ul>
      ) : draft?.slot.kind === 'judge' ? (
        form
      ) : (
        <p className="muted">
          No judge yet: t2 and t3 need one.{' '}
          <button
            type="button"
            className="button"
            ref={setJudge}
            onClick={() => setDraft({ ...draftOf(null, { kind: 'judge' }), id: 'judge' })}
          >
            Set the judge
          </button>
        </p>
      )}
      <Problem text={saving.error} />
      <OllamaFinder
        api={api}
        onAdd={(name, baseURL) => addFromOllama(name, baseURL, { kind: 'panel', index: null })}
        onJudge={(name, baseURL) => addFromOllama(name, baseURL, { kind: 'judge' })}
      />
    </div>
  )
}

function ModelRow({
  model,
  removing,
  onEdit,
  onRemove,
}: {
  model: SettingsModel
  /// Whether its removal is being asked about.
  removing: boolean
  onEdit(): void
  onRemove(): void
}): JSX.Element {
  return (
    <li className="model-row">
      <div className="model-what">
        <strong>{model.id}</strong>
        <span>
          {PROVIDER_NAMES[model.provider]} · <code>{model.model}</code>
        </span>
        <span className="muted">
          {model.baseURL ?? 'default endpoint'} ·{' '}
          {model.key.hasKey || !model.apiKeyEnv ? savedKeyText(model.key) : `Key from $${model.apiKeyEnv}`}
        </span>
      </div>
      <div className="model-actions">
        <button type="button" className="button" aria-label={`Edit ${model.id}`} onClick={onEdit}>
          Edit
        </button>
        <button
          type="button"
          className="button model-remove"
          aria-label={`Remove ${model.id}`}
          aria-expanded={removing}
          onClick={onRemove}
        >
          Remove…
        </button>
      </div>
    </li>
  )
}

/// Asks before a model goes: it takes its saved key with it, and the judge is needed by t2 and t3. Once it is gone,
/// `afterRemoval` gives the focus a place.
function RemoveModel({
  model,
  busy,
  onRemove,
  onCancel,
  afterRemoval,
}: {
  model: SettingsModel
  busy: boolean
  onRemove(): void
  onCancel(): void
  afterRemoval(): void
}): JSX.Element {
  return (
    <li>
      <Confirmation label={`Remove ${model.id}`} alert onCancel={onCancel} returnFocus={afterRemoval}>
        <p>
          Remove {model.id}?{model.key.hasKey ? ' Its saved key is forgotten too.' : ''}
        </p>
        <div className="confirm-actions">
          <button type="button" className="button primary" disabled={busy} onClick={onRemove}>
            Remove
          </button>
          <button type="button" className="button quiet" autoFocus onClick={onCancel}>
            Keep it
          </button>
        </div>
      </Confirmation>
    </li>
  )
}

/// The form of one model: every field labelled, the key field never showing the saved key, a connection test.
function ModelForm({
  api,
  initial,
  busy,
  takenIds,
  keysRefused,
  onSubmit,
  onCancel,
}: {
  api: TabProps['api']
  initial: Draft
  busy: boolean
  takenIds: Set<string>
  keysRefused: string | null
  onSubmit(draft: Draft): void
  onCancel(): void
}): JSX.Element {
  const [draft, setDraft] = useState(initial)
  const [result, setResult] = useState<ModelTest | null>(null)
  const testing = useRequest()
  const field = useId()
  const form = useRef<HTMLFormElement>(null)
  const outcome = useRef<HTMLDivElement>(null)
  const editing = initial.saved !== null

  // The form opens below the lists: bring it into view and put the cursor in its first field to fill.
  useEffect(() => {
    form.current?.scrollIntoView({ block: 'nearest' })
    form.current?.querySelector<HTMLInputElement>('input:not([readonly])')?.focus()
  }, [])
  useEffect(() => {
    if (result || testing.error) outcome.current?.scrollIntoView({ block: 'nearest' })
  }, [result, testing.error])
  const set = (changes: Partial<Draft>): void => {
    setDraft((current) => ({ ...current, ...changes }))
    setResult(null)
  }
  // A saved key is never sent to another provider or address (the service forgets it on saving).
  const moved = initial.saved?.key.hasKey === true && !sameAddress(initial.saved, draft)
  const idTaken = !editing && initial.slot.kind === 'panel' && takenIds.has(draft.id.trim())
  const needsBase = draft.provider === 'openai-compatible' && draft.baseURL.trim() === ''
  const incomplete = draft.id.trim() === '' || draft.model.trim() === '' || needsBase || idTaken
  const title =
    initial.slot.kind === 'judge' ? 'Judge' : editing ? `Edit ${initial.saved?.id}` : 'New panel model'

  const submit = (event: FormEvent): void => {
    event.preventDefault()
    if (!incomplete) onSubmit(draft)
  }
  const test = async (): Promise<void> => {
    setResult(null)
    const answer = await testing.run(() => api.testModel(fromDraft({ ...draft, removeKey: false })))
    if (answer) setResult(answer)
  }

  return (
    <form ref={form} className="model-form" aria-label={title} onSubmit={submit}>
      <h4>{title}</h4>
      <label htmlFor={`${field}-id`}>Name</label>
      <input
        id={`${field}-id`}
        value={draft.id}
        readOnly={editing}
        required
        aria-invalid={idTaken}
        aria-describedby={idTaken ? `${field}-id-taken` : undefined}
        onChange={(event) => set({ id: event.target.value })}
      />
      {idTaken && (
        <p id={`${field}-id-taken`} className="settings-problem">
          Another model has this name.
        </p>
      )}
      <label htmlFor={`${field}-provider`}>Provider</label>
      <select
        id={`${field}-provider`}
        value={draft.provider}
        onChange={(event) => set({ provider: event.target.value as ModelProvider })}
      >
        {ModelProvider.options.map((provider) => (
          <option key={provider} value={provider}>
            {PROVIDER_NAMES[provider]}
          </option>
        ))}
      </select>
      <label htmlFor={`${field}-base`}>Base URL</label>
      <input
        id={`${field}-base`}
        type="url"
        value={draft.baseURL}
        placeholder={draft.provider === 'openai-compatible' ? 'http://127.0.0.1:11434/v1' : 'the default'}
        required={draft.provider === 'openai-compatible'}
        onChange={(event) => set({ baseURL: event.target.value })}
      />
      <label htmlFor={`${field}-model`}>Model</label>
      <input
        id={`${field}-model`}
        value={draft.model}
        placeholder="e.g. llama3.1:8b or gpt-5-mini"
        required
        onChange={(event) => set({ model: event.target.value })}
      />
      <label htmlFor={`${field}-key`}>API key</label>
      <input
        id={`${field}-key`}
        type="password"
        autoComplete="off"
        value={draft.apiKey}
        disabled={draft.removeKey}
        placeholder={
          moved
            ? 'The key for this address'
            : initial.saved?.key.hasKey
              ? 'Leave empty to keep the saved key'
              : 'Only if the server asks for one'
        }
        aria-describedby={`${field}-key-state${keysRefused ? ` ${field}-key-refused` : ''}`}
        onChange={(event) => set({ apiKey: event.target.value })}
      />
      <p id={`${field}-key-state`} className="muted field-note">
        {moved ? movedKeyText('key') : initial.saved ? savedKeyText(initial.saved.key) : 'No key saved'}
        {initial.saved?.key.hasKey && !moved && (
          <label className="inline-check">
            <input
              type="checkbox"
              checked={draft.removeKey}
              onChange={(event) => set({ removeKey: event.target.checked, apiKey: '' })}
            />{' '}
            Remove the saved key
          </label>
        )}
      </p>
      <KeysRefused id={`${field}-key-refused`} reason={keysRefused} />
      <label htmlFor={`${field}-env`}>Environment variable</label>
      <input
        id={`${field}-env`}
        value={draft.apiKeyEnv}
        placeholder="read when no key is saved, e.g. OPENAI_API_KEY"
        onChange={(event) => set({ apiKeyEnv: event.target.value })}
      />
      <div className="form-actions">
        <button
          type="button"
          className="button"
          disabled={incomplete || testing.busy}
          onClick={() => void test()}
        >
          {testing.busy ? 'Testing…' : 'Test connection'}
        </button>
        <button type="submit" className="button primary" disabled={incomplete || busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="button quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <div ref={outcome} role="status" aria-live="polite">
        {result && (
          <p className={result.ok ? 'test-ok' : 'settings-problem'}>
            {result.ok ? `Connected: ${result.message}` : `Not connected: ${result.message}`}
          </p>
        )}
      </div>
      <Problem text={testing.error} />
    </form>
  )
}

/// Looks for a local Ollama and offers its models for the panel or the judge.
function OllamaFinder({
  api,
  onAdd,
  onJudge,
}: {
  api: TabProps['api']
  onAdd(name: string, baseURL: string): void
  onJudge(name: string, baseURL: string): void
}): JSX.Element {
  const [found, setFound] = useState<OllamaDetection | null>(null)
  const probe = useRequest()
  return (
    <div className="ollama">
      <h3>Local models</h3>
      <button
        type="button"
        className="button"
        disabled={probe.busy}
        onClick={() => void probe.run(() => api.detectOllama()).then((answer) => answer && setFound(answer))}
      >
        {probe.busy ? 'Looking…' : 'Detect Ollama'}
      </button>
      <Problem text={probe.error} />
      <div role="status" aria-live="polite">
        {found && (
          <p className={found.running ? 'muted' : 'settings-problem'}>
            <QuotedCode message={found.message} />
          </p>
        )}
      </div>
      {found && found.models.length > 0 && (
        <ul className="model-list" aria-label="Ollama models">
          {found.models.map((name) => (
            <li key={name} className="model-row">
              <code>{name}</code>
              <div className="model-actions">
                <button type="button" className="button" onClick={() => onAdd(name, found.baseURL)}>
                  Add to panel
                </button>
                <button type="button" className="button" onClick={() => onJudge(name, found.baseURL)}>
                  Use as judge
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

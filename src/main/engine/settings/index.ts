import { performance } from 'node:perf_hooks'
import { z } from 'zod'
import { Config, everyModel, ModelConfig, sameAddress, SEARCH_BASE_URLS } from '../../../shared/config'
import { ApiError } from '../../../shared/errors'
import {
  Dialect,
  SearchProviderName,
  type ApiToken,
  type CreatedToken,
  type CreateTokenRequest,
  type Credits,
  type LocalServer,
  type ModelInput,
  type ModelTest,
  type ModelTestRequest,
  type SearchTest,
  type SearchTestRequest,
  type OllamaDetection,
  type SavedKey,
  type Settings,
  type SettingsModel,
  type SettingsPatch,
  type ServiceSettings,
  type TokenList,
  ServiceMode,
} from '../../../shared/schemas'
import { lookupHost, resolveTarget, TargetRefused, type HostResolver } from '../addresses'
import type { Admin } from '../admin'
import type { Clock } from '../clock'
import { apiKeys, modelKeyName, SEARCH_KEY, type ApiKeys, type Env, type SavedKeys } from '../keys'
import { ModelClient, modelHandle } from '../models'
import type { SecretBox } from '../secrets'
import { requireOwner, type Principal } from '../service'
import type { Store } from '../store'
import { Web } from '../web'
import type { TokenRecord } from '../store/tokens'

/// The local REST server as wanted in the settings.
export interface LocalServerWish {
  enabled: boolean
  port: number
}

/// Starts and stops the local REST server (the desktop app's; see `server/localServer.ts`).
export interface LocalServerSwitch {
  /// Makes the server run as wished; answers where it answers, or why it could not start.
  set(wish: LocalServerWish): Promise<{ address: string | null; error: string | null }>
  close(): Promise<void>
}

export interface SettingsOptions {
  box: SecretBox
  /// Called with the effective configuration after the models or the search provider changed.
  onConfigChanged(config: Config): void
  /// Where a local Ollama answers (tests point it at a fake).
  ollamaOrigin?: string
  env?: Env
  /// Resolves host names, as web fetches do (tests inject their own).
  resolveHost?: HostResolver
}

/// The local server's default port, the same as `factdesk serve`'s.
const DEFAULT_LOCAL_PORT = 8787
const DEFAULT_OLLAMA_ORIGIN = 'http://127.0.0.1:11434'
/// How long a test request or the Ollama probe may take.
const TEST_TIMEOUT_MS = 20_000
const PROBE_TIMEOUT_MS = 3_000
/// What a search provider is asked when tested.
const SEARCH_TEST_QUERY = 'fact-checking'

const SavedModels = z.object({ panel: z.array(ModelConfig), judge: ModelConfig.nullable() })
const SavedSearch = z.object({
  provider: SearchProviderName,
  baseURL: z.string(),
  apiKeyEnv: z.string().optional(),
})
const SavedWriting = z.object({ dialect: Dialect, dictionary: z.array(z.string()) })
const SavedLocalServer = z.object({ enabled: z.boolean(), port: z.int() })
const SavedService = z.object({ mode: ServiceMode, baseURL: z.string().nullable() })
/// The saved token of the remote service.
const SERVICE_TOKEN = 'service-token'

/// The answer a connection test asks for: as small as a structured answer can be.
const Pong = z.object({ ok: z.boolean() })

/// Settings, API keys, tokens and credits of the person at this computer: every operation here requires the
/// owner (`requireOwner`), never an API token. Models and search are saved over the configuration file's (the
/// effective configuration); keys are sealed by the secret box and never leave this class but as `hasKey` and
/// their last four characters.
export class AppSettings {
  /// Keys for the engine's parts: saved ones first, then the environment.
  readonly keys: ApiKeys
  private readonly saved: SavedKeys
  private localSwitch: LocalServerSwitch | null = null
  private remoteAvailable = false
  private localState: { address: string | null; error: string | null } = { address: null, error: null }

  constructor(
    private readonly store: Store,
    private readonly admin: Admin,
    private readonly base: Config,
    private readonly clock: Clock,
    private readonly options: SettingsOptions,
  ) {
    this.saved = { read: (name) => this.readKey(name) }
    this.keys = apiKeys(this.saved, options.env)
  }

  /// The configuration file overlaid by the saved models and search provider.
  effective(): Config {
    const models = this.part('models', SavedModels)
    const search = this.part('search', SavedSearch)
    return {
      ...this.base,
      models: models ? { ...this.base.models, ...models } : this.base.models,
      search: search ? { ...this.base.search, ...search } : this.base.search,
    }
  }

  /// The writer's English and dictionary, which the editor's live check and t1 follow.
  writing(): Settings['writing'] {
    return this.part('writing', SavedWriting) ?? { dialect: 'american', dictionary: [] }
  }

  view(principal: Principal): Settings {
    requireOwner(principal)
    const { models, search } = this.effective()
    return {
      models: {
        panel: models.panel.map((model) => this.modelView(model)),
        judge: models.judge ? this.modelView(models.judge) : null,
      },
      search: {
        provider: search.provider,
        baseURL: search.baseURL,
        apiKeyEnv: search.apiKeyEnv ?? null,
        key: this.keyView(SEARCH_KEY),
      },
      writing: this.writing(),
      localServer: this.localServerView(),
      service: this.serviceView(),
      keysRefused: this.options.box.refusal?.keys ?? null,
    }
  }

  /// Saves the parts of `patch`; keys given are sealed, keys of models no longer configured are forgotten. The
  /// tiers use the new models and search provider for new work; the local server is started or stopped.
  async update(principal: Principal, patch: SettingsPatch): Promise<Settings> {
    requireOwner(principal)
    if (patch.search?.baseURL !== undefined)
      await this.requirePublicSearch('search.baseURL', patch.search.baseURL)
    const at = this.clock.now().toISOString()
    const current = this.effective()
    this.store.transaction(() => {
      if (patch.models) {
        const panel = patch.models.panel ?? current.models.panel
        const judge = patch.models.judge === undefined ? current.models.judge : patch.models.judge
        const configured = everyModel({ panel, judge })
        this.requireKeyVariables(
          'models.apiKeyEnv',
          configured.map((model) => model.apiKeyEnv),
        )
        const before = everyModel(current.models)
        for (const model of configured) {
          const was = before.find((saved) => saved.id === model.id)
          const given = 'apiKey' in model ? model.apiKey : undefined
          this.saveKey(
            modelKeyName(model.id),
            keyFor(given, was !== undefined && sameAddress(was, modelConfig(model))),
            at,
          )
        }
        const kept = new Set(configured.map((model) => modelKeyName(model.id)))
        for (const name of this.store.settings.sealedNames()) {
          if (name.startsWith(modelKeyName('')) && !kept.has(name)) this.store.settings.deleteSealed(name)
        }
        this.store.settings.put(
          'models',
          { panel: panel.map(modelConfig), judge: judge && modelConfig(judge) },
          at,
        )
      }
      if (patch.search) {
        this.requireKeyVariables('search.apiKeyEnv', [patch.search.apiKeyEnv])
        const { apiKey, ...search } = patch.search
        const merged = { ...current.search, ...search }
        // Another provider without a base URL gets its public endpoint; SearXNG has none.
        const baseURL =
          search.baseURL ??
          (search.provider && search.provider !== current.search.provider
            ? SEARCH_BASE_URLS[search.provider]
            : merged.baseURL)
        if (baseURL === '') {
          throw new ApiError('bad_request', 'SearXNG needs the address of your instance as baseURL.', [
            { field: 'search.baseURL', message: 'required for searxng' },
          ])
        }
        const saved = { provider: merged.provider, baseURL, apiKeyEnv: merged.apiKeyEnv ?? undefined }
        this.store.settings.put('search', saved, at)
        this.saveKey(SEARCH_KEY, keyFor(apiKey, sameAddress(current.search, saved)), at)
      }
      if (patch.writing) {
        const writing = {
          ...(this.part('writing', SavedWriting) ?? { dialect: 'american' }),
          ...patch.writing,
        }
        const dictionary = [...new Set(writing.dictionary ?? [])].sort((a, b) => a.localeCompare(b))
        this.store.settings.put('writing', { dialect: writing.dialect, dictionary }, at)
      }
      if (patch.localServer) {
        this.store.settings.put('localServer', { ...this.localServerWish(), ...patch.localServer }, at)
      }
      if (patch.service) this.saveService(patch.service, at)
    })
    if (patch.models || patch.search) this.options.onConfigChanged(this.effective())
    if (patch.localServer) await this.applyLocalServer()
    return this.view(principal)
  }

  /// One small structured request to the model as entered (its key: the one given, else the saved one while
  /// the provider and address are those it was saved for, else its environment variable): ok with the time it
  /// took, or what went wrong in words.
  async testModel(principal: Principal, input: ModelTestRequest): Promise<ModelTest> {
    requireOwner(principal)
    this.requireKeyVariables('apiKeyEnv', [input.apiKeyEnv])
    const config = modelConfig(input)
    const saved = everyModel(this.effective().models).find((model) => model.id === config.id)
    const keys = this.testKeys(input.apiKey, saved !== undefined && sameAddress(saved, config))
    const client = new ModelClient({
      requestTimeoutMs: TEST_TIMEOUT_MS,
      maxRetries: 0,
      retryDelayMs: 1000,
      concurrencyPerProvider: 1,
    })
    const started = performance.now()
    try {
      await client.generate(modelHandle(config, 'Settings > Models', keys), {
        system: 'You answer connection tests.',
        prompt: 'Answer with {"ok": true}.',
        schema: Pong,
        name: 'connection_test',
        signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
      })
    } catch (error) {
      return { ok: false, latencyMs: null, message: testFailure(error, config) }
    }
    const latencyMs = Math.round(performance.now() - started)
    return { ok: true, latencyMs, message: `${config.model} answered in ${latencyMs} ms.` }
  }

  /// One search through the provider as entered (its key: the one given, else the saved one while the provider
  /// and address are those it was saved for, else its environment variable), under the same address rules and
  /// time cap as t3's: ok with the time it took and the first results, or what went wrong in words.
  async testSearch(principal: Principal, input: SearchTestRequest): Promise<SearchTest> {
    requireOwner(principal)
    this.requireKeyVariables('apiKeyEnv', [input.apiKeyEnv])
    await this.requirePublicSearch('baseURL', input.baseURL)
    const config = this.effective()
    const keys = this.testKeys(input.apiKey, sameAddress(config.search, input))
    const search = { ...config.search, provider: input.provider, baseURL: input.baseURL }
    if (input.apiKeyEnv !== undefined) search.apiKeyEnv = input.apiKeyEnv ?? undefined
    const web = new Web({ search, web: config.web }, {}, keys)
    const started = performance.now()
    try {
      const found = await web.search(SEARCH_TEST_QUERY, 3, AbortSignal.timeout(TEST_TIMEOUT_MS))
      const latencyMs = Math.round(performance.now() - started)
      const results = found.map(({ title, url }) => ({ title, url }))
      const message =
        results.length === 0
          ? `It answered in ${latencyMs} ms but found nothing for "${SEARCH_TEST_QUERY}".`
          : `${results.length} result${results.length === 1 ? '' : 's'} for "${SEARCH_TEST_QUERY}" in ${latencyMs} ms, ` +
            `the first "${results[0]?.title}".`
      return { ok: true, latencyMs, message, results }
    } catch (error) {
      return { ok: false, latencyMs: null, message: reason(error), results: [] }
    }
  }

  /// Refuses (422) a search provider whose host resolves to a non-public address: t3 could never reach it (it
  /// follows the web's address rules, `web.allowLocalTargets` admitting loopback). A host that does not resolve
  /// now (offline) may be saved.
  private async requirePublicSearch(field: string, baseURL: string): Promise<void> {
    try {
      await resolveTarget(
        new URL(baseURL),
        this.effective().web.allowLocalTargets,
        this.options.resolveHost ?? lookupHost,
      )
    } catch (error) {
      if (!(error instanceof TargetRefused) || error.why !== 'not_public') return
      throw new ApiError(
        'unprocessable',
        `The search provider cannot be used: its ${error.message}, and searches reach public addresses only.`,
        [{ field, message: error.message }],
      )
    }
  }

  /// Refuses environment variables named from Settings that are not keys': the environment of this process
  /// holds other secrets (a GitHub or cloud token), which a page must not be able to send to an address of its
  /// choosing. Names ending in `_API_KEY` pass, and so do those the configuration file or the settings name
  /// already.
  private requireKeyVariables(field: string, names: (string | null | undefined)[]): void {
    const asked = names.filter((name): name is string => !!name && !name.endsWith('_API_KEY'))
    if (asked.length === 0) return
    const named = (config: Config): (string | undefined)[] => [
      ...everyModel(config.models).map((model) => model.apiKeyEnv),
      config.search.apiKeyEnv,
    ]
    const known = new Set([...named(this.base), ...named(this.effective())])
    const name = asked.find((each) => !known.has(each))
    if (name === undefined) return
    throw new ApiError(
      'bad_request',
      `${name} is not read from Settings: name a variable ending in _API_KEY, or one the configuration file names.`,
      [{ field, message: 'must end in _API_KEY or be named in the configuration file' }],
    )
  }

  /// The keys a connection test uses: the one the form gives (null: none), else the saved ones while the test
  /// asks the provider and address they were saved for, else only the environment's.
  private testKeys(given: string | null | undefined, savedFor: boolean): ApiKeys {
    if (given !== undefined) return { model: () => given ?? undefined, search: () => given ?? undefined }
    return savedFor ? this.keys : apiKeys(null, this.options.env)
  }

  /// Asks a local Ollama for the models it has pulled (`GET /api/tags`).
  async detectOllama(principal: Principal): Promise<OllamaDetection> {
    requireOwner(principal)
    const origin = this.options.ollamaOrigin ?? DEFAULT_OLLAMA_ORIGIN
    const baseURL = `${origin}/v1`
    try {
      const response = await fetch(`${origin}/api/tags`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
      if (!response.ok) throw new Error(`it answered HTTP ${response.status}`)
      const tags = OllamaTags.parse(await response.json())
      const models = tags.models.map((model) => model.name).sort()
      return {
        running: true,
        baseURL,
        models,
        message:
          models.length === 0
            ? 'Ollama runs but has no models yet: pull one, e.g. `ollama pull llama3.1:8b`.'
            : `Ollama runs with ${models.length} model${models.length === 1 ? '' : 's'}.`,
      }
    } catch (error) {
      const why = reason(error)
      return {
        running: false,
        baseURL,
        models: [],
        message: /ECONNREFUSED/.test(why)
          ? `No Ollama is running on this computer (nothing answers at ${origin}). Start it with \`ollama serve\`.`
          : `No Ollama answers at ${origin} (${why}). Start it with \`ollama serve\`.`,
      }
    }
  }

  listTokens(principal: Principal): TokenList {
    requireOwner(principal)
    return { data: this.admin.listTokens(principal.organizationId).map(tokenView) }
  }

  createToken(principal: Principal, request: CreateTokenRequest): CreatedToken {
    requireOwner(principal)
    const name = request.name?.trim() || null
    const { value, token } = this.admin.createToken(request.scope, principal.organizationId, name)
    return { token: tokenView(token), value }
  }

  /// Revokes one of the organization's tokens; never the one this window itself signs in with.
  revokeToken(principal: Principal, id: string): ApiToken {
    requireOwner(principal)
    const token = this.store.tokens.get(id)
    if (!token || token.organizationId !== principal.organizationId) {
      throw new ApiError('not_found', `There is no token ${id}.`)
    }
    if (id === principal.tokenId) {
      throw new ApiError(
        'unprocessable',
        'This is the token this window signs in with; it cannot revoke itself.',
      )
    }
    if (token.revokedAt === null) this.admin.revokeToken(id)
    return tokenView(this.store.tokens.get(id) ?? token)
  }

  /// Adds credits to the organization's balance.
  grantCredits(principal: Principal, amount: number): Credits {
    requireOwner(principal)
    return { balance: this.admin.grantCredits(principal.organizationId, amount), prices: this.base.pricing }
  }

  /// Lets the editor use a remote service (the desktop app; `factdesk web` pages talk to their own server).
  offerRemoteService(): void {
    this.remoteAvailable = true
  }

  /// The remote service the editor should talk to, with its token; null for the embedded engine. For the main
  /// process only: the token never leaves it.
  remoteService(): { baseURL: string; token: string } | null {
    const saved = this.savedService()
    if (!this.remoteAvailable || saved.mode !== 'remote' || !saved.baseURL) return null
    const token = this.serviceToken(saved.baseURL)
    return token ? { baseURL: saved.baseURL, token } : null
  }

  /// The saved token of the remote service at `baseURL`; none for another address (main process only).
  serviceToken(baseURL: string): string | undefined {
    return baseURL === this.savedService().baseURL ? this.readKey(SERVICE_TOKEN) : undefined
  }

  /// Hands over the switch of the local REST server and makes it run as saved.
  async attachLocalServer(localSwitch: LocalServerSwitch): Promise<void> {
    this.localSwitch = localSwitch
    await this.applyLocalServer()
  }

  /// Stops the local server, if one runs.
  async close(): Promise<void> {
    await this.localSwitch?.close()
    this.localSwitch = null
  }

  private async applyLocalServer(): Promise<void> {
    if (this.localSwitch) this.localState = await this.localSwitch.set(this.localServerWish())
  }

  private localServerWish(): LocalServerWish {
    return this.part('localServer', SavedLocalServer) ?? { enabled: false, port: DEFAULT_LOCAL_PORT }
  }

  private savedService(): z.infer<typeof SavedService> {
    return this.part('service', SavedService) ?? { mode: 'embedded', baseURL: null }
  }

  private serviceView(): ServiceSettings {
    return {
      available: this.remoteAvailable,
      ...this.savedService(),
      token: this.keyView(SERVICE_TOKEN),
      tokenRefused: this.options.box.refusal?.token ?? null,
    }
  }

  /// Saves the service to use; the remote one needs the desktop app, its URL and a token.
  private saveService(patch: NonNullable<SettingsPatch['service']>, at: string): void {
    const before = this.savedService()
    const service = { ...before, ...patch }
    const refusal = this.options.box.refusal
    // In the token's own words: the box's refusal speaks of keys and their environment variables.
    if (refusal && patch.token) throw new ApiError('unprocessable', refusal.token)
    this.saveKey(SERVICE_TOKEN, keyFor(patch.token, service.baseURL === before.baseURL), at)
    if (service.mode === 'remote') {
      if (!this.remoteAvailable) {
        throw new ApiError('unprocessable', 'A remote service is a setting of the desktop app.')
      }
      if (!service.baseURL || this.store.settings.sealed(SERVICE_TOKEN) === null) {
        throw new ApiError('unprocessable', 'A remote service needs its URL and a token.', [
          { field: service.baseURL ? 'service.token' : 'service.baseURL', message: 'required for remote' },
        ])
      }
    }
    this.store.settings.put('service', { mode: service.mode, baseURL: service.baseURL }, at)
  }

  private localServerView(): LocalServer {
    return {
      available: this.localSwitch !== null,
      ...this.localServerWish(),
      ...(this.localSwitch ? this.localState : { address: null, error: null }),
    }
  }

  private modelView(model: ModelConfig): SettingsModel {
    return {
      id: model.id,
      provider: model.provider,
      baseURL: model.baseURL ?? null,
      model: model.model,
      apiKeyEnv: model.apiKeyEnv ?? null,
      key: this.keyView(modelKeyName(model.id)),
    }
  }

  private keyView(name: string): SavedKey {
    if (this.store.settings.sealed(name) === null) return { hasKey: false, last4: null }
    let key: string | undefined
    try {
      key = this.readKey(name)
    } catch {
      return { hasKey: true, last4: null }
    }
    return { hasKey: true, last4: key ? key.slice(-4) : null }
  }

  /// Seals and saves a new key (a string), removes it (null) or leaves it (undefined).
  private saveKey(name: string, key: string | null | undefined, at: string): void {
    if (key === null) this.store.settings.deleteSealed(name)
    else if (key !== undefined) this.store.settings.putSealed(name, this.options.box.encrypt(key), at)
  }

  private readKey(name: string): string | undefined {
    const sealed = this.store.settings.sealed(name)
    if (sealed === null) return undefined
    try {
      return this.options.box.decrypt(sealed)
    } catch {
      throw new Error(
        `The saved API key "${name}" cannot be decrypted (was the data folder copied from another computer?); ` +
          'enter it again under Settings.',
      )
    }
  }

  private part<T>(name: string, schema: z.ZodType<T>): T | null {
    const result = schema.safeParse(this.store.settings.get(name))
    return result.success ? result.data : null
  }
}

/// A key given stays as given; a key not given stays saved only while it serves the address it was saved
/// for, so that a saved key never goes to another provider or server (null: forget it).
const keyFor = (given: string | null | undefined, sameAddressAsSaved: boolean): string | null | undefined =>
  given !== undefined || sameAddressAsSaved ? given : null

const OllamaTags = z.object({ models: z.array(z.object({ name: z.string() })) })

/// A model of the form as the configuration file would write it (keys are never part of it).
function modelConfig(model: ModelInput | ModelConfig): ModelConfig {
  return ModelConfig.parse({
    id: model.id,
    provider: model.provider,
    model: model.model,
    ...(model.baseURL ? { baseURL: model.baseURL } : {}),
    ...(model.apiKeyEnv ? { apiKeyEnv: model.apiKeyEnv } : {}),
  })
}

const tokenView = (token: TokenRecord): ApiToken => ({
  id: token.id,
  name: token.name,
  scope: token.scope,
  createdAt: token.createdAt,
  revokedAt: token.revokedAt,
})

/// Why a request failed, in words: the underlying cause's message (a refused connection, say) when it has one.
export const reason = (error: unknown): string =>
  error instanceof Error
    ? error.name === 'TimeoutError'
      ? 'no answer'
      : (error.cause instanceof Error ? error.cause.message : '') || error.message
    : String(error)

/// What a failed connection test means, in words, with the provider's own message after it.
function testFailure(error: unknown, model: ModelConfig): string {
  const detail = reason(error)
  const status = /HTTP (\d{3})/.exec(detail)?.[1]
  if (status === '401' || status === '403') return `The key was refused. ${detail}`
  if (status === '404') return `The model "${model.model}" or the base URL is not known there. ${detail}`
  if (status === undefined && /request failed|ECONNREFUSED|ENOTFOUND|fetch failed/i.test(detail)) {
    return `The server cannot be reached. ${detail}`
  }
  return detail
}

import { z } from 'zod'
import { Config, everyModel, ModelConfig, sameAddress, SEARCH_BASE_URLS } from '../../../shared/config'
import { ApiError } from '../../../shared/errors'
import {
  Dialect,
  FindClaims,
  SearchProviderName,
  type ApiToken,
  type CreatedToken,
  type CreateTokenRequest,
  type Credits,
  type Settings,
  type SettingsModel,
  type SettingsPatch,
  SourcePolicy,
  type TokenList,
} from '../../../shared/schemas'
import { lookupHost, resolveTarget, TargetRefused, type HostResolver } from '../base/addresses'
import type { Admin } from '../checks/admin'
import type { Clock } from '../base/clock'
import { apiKeys, modelKeyName, SEARCH_KEY, type ApiKeys } from '../base/keys'
import type { SecretBox } from '../base/secrets'
import type { Principal } from '../checks/access'
import type { Store } from '../store'
import type { TokenRecord } from '../store/tokens'
import { ConnectionProbes, type ProbeOptions } from './probes'
import { keyFor, modelConfig, SavedSettings } from './saved'
import { ServiceSwitches } from './switches'

export interface SettingsOptions extends ProbeOptions {
  box: SecretBox
  /// Called with the effective configuration after the models or the search provider changed.
  onConfigChanged(config: Config): void
  /// Resolves host names, as web fetches do (tests inject their own).
  resolveHost?: HostResolver
  /// The configuration file was given for this run (`factdesk check --config`): its models and search provider
  /// win over the saved ones, and their keys come from the variables it names, never from keys saved for
  /// other models.
  fileWins?: boolean
}

/// Where the models and the search provider in force come from, in words, for `serve` and `web` to say at start.
export interface ConfigSources {
  models: string
  search: string
}

const SavedModels = z.object({ panel: z.array(ModelConfig), judge: ModelConfig.nullable() })
const SavedSearch = z.object({
  provider: SearchProviderName,
  baseURL: z.string(),
  apiKeyEnv: z.string().optional(),
})
const SavedWriting = z.object({
  dialect: Dialect,
  dictionary: z.array(z.string()),
  // Saved before the setting was: balanced, as extraction was then.
  findClaims: FindClaims.default('balanced'),
})

/// Settings, API keys, tokens and credits of the person at this computer: every operation here requires the
/// owner (`requireOwner`), never an API token. Models and search are saved over the configuration file's (the
/// effective configuration); keys are sealed by the secret box and never leave the saved settings but as
/// `hasKey` and their last four characters.
export class AppSettings {
  /// Keys for the engine's parts: saved ones first, then the environment.
  readonly keys: ApiKeys
  /// Connection tests of a model and a search provider as entered, and the models of a local Ollama.
  readonly probes: ConnectionProbes
  /// The remote service and the local REST server.
  readonly switches: ServiceSwitches
  /// The models, search provider and keys the tiers were last told of (`onConfigChanged`), as JSON.
  private toldInForce: string

  private constructor(
    private readonly store: Store,
    private readonly admin: Admin,
    private readonly base: Config,
    private readonly clock: Clock,
    private readonly options: SettingsOptions,
    private readonly saved: SavedSettings,
  ) {
    this.keys = apiKeys(options.fileWins ? null : this.saved, options.env)
    this.probes = new ConnectionProbes(this, options)
    this.switches = new ServiceSwitches(this.saved)
    this.toldInForce = this.inForce()
  }

  /// The settings saved in `store`, over the configuration file `base`.
  static async open(
    store: Store,
    admin: Admin,
    base: Config,
    clock: Clock,
    options: SettingsOptions,
  ): Promise<AppSettings> {
    let settings: AppSettings | null = null
    // Another replica's models or search provider reach the tiers here too, for new work.
    const saved = await SavedSettings.load(store, options.box, () => settings?.changedElsewhere())
    settings = new AppSettings(store, admin, base, clock, options, saved)
    return settings
  }

  /// The configuration file overlaid by the saved models and search provider (not when the file wins).
  effective(): Config {
    if (this.options.fileWins) return this.base
    const models = this.saved.part('models', SavedModels)
    const search = this.saved.part('search', SavedSearch)
    return {
      ...this.base,
      models: models ? { ...this.base.models, ...models } : this.base.models,
      search: search ? { ...this.base.search, ...search } : this.base.search,
    }
  }

  /// The organization's source policy, which its t3 checks and deep research follow: saved in Settings, else
  /// the configuration file's `sources`.
  sourcePolicy(organizationId: string): SourcePolicy {
    return this.saved.part(sourcesPart(organizationId), SourcePolicy) ?? this.base.sources
  }

  /// Where the models and the search provider in force come from: Settings, or the configuration file (`file`,
  /// null when none was given and the defaults apply).
  sources(file: string | null): ConfigSources {
    const where = this.store.dialect === 'postgres' ? 'the database' : 'the data folder'
    const from = (saved: unknown): string =>
      !this.options.fileWins && saved !== null ? `Settings (saved in ${where})` : (file ?? 'the defaults')
    return {
      models: from(this.saved.part('models', SavedModels)),
      search: from(this.saved.part('search', SavedSearch)),
    }
  }

  /// The writer's English and dictionary, which the editor's live check and t1 follow, and how many claims to
  /// find in a text.
  writing(): Settings['writing'] {
    return (
      this.saved.part('writing', SavedWriting) ?? {
        dialect: 'american',
        dictionary: [],
        findClaims: 'balanced',
      }
    )
  }

  view(principal: Principal): Settings {
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
        key: this.saved.keyView(SEARCH_KEY),
      },
      writing: this.writing(),
      sources: this.sourcePolicy(principal.organizationId),
      localServer: this.switches.localServerView(),
      service: this.switches.serviceView(),
      keysRefused: this.options.box.refusal?.keys ?? null,
    }
  }

  /// Saves the parts of `patch`; keys given are sealed, keys of models no longer configured are forgotten. The
  /// tiers use the new models and search provider for new work; the local server is started or stopped.
  async update(principal: Principal, patch: SettingsPatch): Promise<Settings> {
    if (patch.search?.baseURL !== undefined)
      await this.requirePublicSearch('search.baseURL', patch.search.baseURL)
    const at = this.clock.now().toISOString()
    const current = this.effective()
    await this.saved.change(() => {
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
          this.saved.saveKey(
            modelKeyName(model.id),
            keyFor(given, was !== undefined && sameAddress(was, modelConfig(model))),
            at,
          )
        }
        const kept = new Set(configured.map((model) => modelKeyName(model.id)))
        for (const name of this.saved.keyNames()) {
          if (name.startsWith(modelKeyName('')) && !kept.has(name)) this.saved.saveKey(name, null, at)
        }
        this.saved.put('models', { panel: panel.map(modelConfig), judge: judge && modelConfig(judge) }, at)
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
        this.saved.put('search', saved, at)
        this.saved.saveKey(SEARCH_KEY, keyFor(apiKey, sameAddress(current.search, saved)), at)
      }
      if (patch.writing) {
        const writing = { ...this.writing(), ...patch.writing }
        const dictionary = [...new Set(writing.dictionary)].sort((a, b) => a.localeCompare(b))
        this.saved.put('writing', { ...writing, dictionary }, at)
      }
      if (patch.sources) {
        const policy = { ...this.sourcePolicy(principal.organizationId), ...patch.sources }
        this.saved.put(sourcesPart(principal.organizationId), policy, at)
      }
      if (patch.localServer) this.switches.saveLocalServer(patch.localServer, at)
      if (patch.service) this.switches.saveService(patch.service, at)
    })
    if (patch.models || patch.search) this.tellInForce()
    if (patch.localServer) await this.switches.applyLocalServer()
    return this.view(principal)
  }

  /// Tells the tiers of the models, search provider and keys in force after another replica saved settings, when
  /// they changed (this replica's own saves are told in `update`).
  private changedElsewhere(): void {
    if (this.inForce() !== this.toldInForce) this.tellInForce()
  }

  private tellInForce(): void {
    this.toldInForce = this.inForce()
    this.options.onConfigChanged(this.effective())
  }

  /// The models, the search provider and their keys in force, as JSON.
  private inForce(): string {
    const { models, search } = this.effective()
    return JSON.stringify({ models, search, keys: this.saved.sealedKeys() })
  }

  /// Refuses (422) a search provider whose host resolves to a non-public address: t3 could never reach it (it
  /// follows the web's address rules, `web.allowLocalTargets` admitting loopback). A host that does not resolve
  /// now (offline) may be saved.
  async requirePublicSearch(field: string, baseURL: string): Promise<void> {
    const allowLocal = this.effective().web.allowLocalTargets
    try {
      await resolveTarget(new URL(baseURL), allowLocal, this.options.resolveHost ?? lookupHost)
    } catch (error) {
      if (!(error instanceof TargetRefused) || error.why !== 'not_public') return
      // Said whatever the host resolves to: which names are loopback is not for the page to learn.
      const onThisComputer = allowLocal
        ? ''
        : ' A search service on this computer (a local SearXNG) needs "web": {"allowLocalTargets": true} in the ' +
          'configuration file given with --config (to factdesk web, serve or the desktop app), then a restart; ' +
          'private networks stay refused.'
      throw new ApiError(
        'unprocessable',
        `The search provider cannot be used: its ${error.message}, and searches reach public addresses only.` +
          onThisComputer,
        [{ field, message: error.message }],
      )
    }
  }

  /// Refuses environment variables named from Settings that are not keys': the environment of this process
  /// holds other secrets (a GitHub or cloud token), which a page must not be able to send to an address of its
  /// choosing. Names ending in `_API_KEY` pass, and so do those the configuration file or the settings name
  /// already.
  requireKeyVariables(field: string, names: (string | null | undefined)[]): void {
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

  async listTokens(principal: Principal): Promise<TokenList> {
    return { data: (await this.admin.listTokens(principal.organizationId)).map(tokenView) }
  }

  async createToken(principal: Principal, request: CreateTokenRequest): Promise<CreatedToken> {
    const name = request.name?.trim() || null
    const { value, token } = await this.admin.createToken(request.scope, principal.organizationId, name)
    return { token: tokenView(token), value }
  }

  /// Revokes one of the organization's tokens; never the one this window itself signs in with.
  async revokeToken(principal: Principal, id: string): Promise<ApiToken> {
    const token = await this.store.tokens.get(id)
    if (!token || token.organizationId !== principal.organizationId) {
      throw new ApiError('not_found', `There is no token ${id}.`)
    }
    if (id === principal.tokenId) {
      throw new ApiError(
        'unprocessable',
        'This is the token this window signs in with; it cannot revoke itself.',
      )
    }
    if (token.revokedAt === null) await this.admin.revokeToken(id)
    return tokenView((await this.store.tokens.get(id)) ?? token)
  }

  /// Adds credits to the organization's balance.
  async grantCredits(principal: Principal, amount: number): Promise<Credits> {
    return {
      balance: await this.admin.grantCredits(principal.organizationId, amount),
      prices: this.base.pricing,
    }
  }

  private modelView(model: ModelConfig): SettingsModel {
    return {
      id: model.id,
      provider: model.provider,
      baseURL: model.baseURL ?? null,
      model: model.model,
      apiKeyEnv: model.apiKeyEnv ?? null,
      key: this.saved.keyView(modelKeyName(model.id)),
    }
  }
}

/// The name of the saved part that holds an organization's source policy: each organization has its own.
const sourcesPart = (organizationId: string): string => `sources:${organizationId}`

const tokenView = (token: TokenRecord): ApiToken => ({
  id: token.id,
  name: token.name,
  scope: token.scope,
  createdAt: token.createdAt,
  revokedAt: token.revokedAt,
})

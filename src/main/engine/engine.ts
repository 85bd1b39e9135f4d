import type { Config } from '../../shared/config'
import { Admin } from './checks/admin'
import { calibrationFor, loadCalibration } from './tiers/calibration'
import { systemClock, type Clock } from './base/clock'
import { loadConfig } from './base/config'
import { DraftService } from './files/drafts'
import { ClaimExtractor } from './claims/pool'
import { ExportPool } from './exports/pool'
import { EstimateExpiry } from './checks/expiry'
import { ReportEvents } from './base/events'
import { ReportCache } from './checks/reports'
import { DEFAULT_RUNNER_OPTIONS, JobRunner, type RunnerOptions } from './jobs/runner'
import { DeepResearch } from './research'
import { PendingQueue, type PendingOptions } from './checks/pending'
import { Reachability, type ReachabilityOptions } from './checks/reachability'
import type { Principal } from './checks/access'
import { Service } from './checks/service'
import { Store } from './store'
import { lockDataFolder } from './store/lock'
import type { SecretBox } from './base/secrets'
import { AppSettings } from './settings'
import { createTiers, setModelTiers } from './tiers'
import type { VerdictSteps } from './tiers/steps'
import type { TierChecker } from './tiers/tier'
import { WebhookDeliveries, type DeliveryOptions } from './webhooks/deliveries'
import { Web, type WebOptions } from './web'
import type { Tier } from '../../shared/schemas'
import { makeDataFolder } from './base/paths'

export interface EngineOptions {
  /// Folder of the SQLite store, its key file and the lock; with `database`, of the lock alone.
  dataDir: string
  /// The PostgreSQL database of a team server (`postgres://…`); absent means the data folder's SQLite file. The
  /// configuration's `database` is not read here: the command line resolves it (`--database`, FACTDESK_DATABASE_URL,
  /// then the file), and the desktop app keeps its SQLite.
  database?: string
  /// With `database`: the key that seals stored secrets on every replica (FACTDESK_SECRET_KEY, 32 bytes in hex or
  /// base64); absent means the key the database keeps.
  secretKey?: string
  /// JSON configuration file; absent means defaults.
  configPath?: string
  /// An already loaded configuration (wins over `configPath`).
  config?: Config
  /// The configuration's models and search provider win over those saved in Settings, for a run given
  /// `--config` explicitly (`factdesk check`, `export`); by default the saved ones win, as in the app.
  configWins?: boolean
  /// True for engines that run jobs (desktop app, `serve`, `web`): they take the data folder's lock.
  runJobs?: boolean
  clock?: Clock
  /// How the job runner paces work (tests shorten the retry delays).
  runner?: Partial<RunnerOptions>
  /// The tiers to run; by default the ones the configuration allows.
  tiers?: Map<Tier, TierChecker>
  /// The verdict steps t2 and t3 take: all of them, but in the benchmark's "before" runs.
  verdictSteps?: Readonly<VerdictSteps>
  /// How webhook targets are resolved and how long an attempt may take (tests inject a resolver).
  webhooks?: Partial<DeliveryOptions>
  /// How t3 and deep research reach the web (tests inject a resolver, a clock or a search provider).
  web?: WebOptions
  /// Seals saved API keys: the desktop app's uses the system keychain; by default the store's box (a key file in
  /// `dataDir`, or the team server's key).
  secretBox?: SecretBox
  /// Where a local Ollama is looked for (tests point it at a fake).
  ollamaOrigin?: string
  /// How provider endpoints are probed before t2 and t3 checks (tests inject a resolver or shorten the cache).
  reachability?: Partial<ReachabilityOptions>
  /// How checks queued to run when online are retried (tests shorten the delays).
  pending?: Partial<PendingOptions>
  /// How many bytes of serialized reports are kept (REPORT_CACHE_BYTES by default).
  reportCacheBytes?: number
}

/// The fact-checking engine over one data folder: the service, the admin operations and the store.
export interface Engine {
  readonly service: Service
  readonly admin: Admin
  readonly config: Config
  readonly dataDir: string
  /// Report changes as they happen (on a team server, every replica's).
  readonly events: ReportEvents
  /// Checks' reports, serialized and kept up to date.
  readonly reports: ReportCache
  /// The webhook delivery worker (running in engines that run jobs).
  readonly webhooks: WebhookDeliveries
  /// Deep research: `POST /research`, `GET /research/{id}`, and the queue of runs the job runner works.
  readonly research: DeepResearch
  /// Settings, keys, tokens and credits of the person at this computer.
  readonly settings: AppSettings
  /// The writer's drafts, autosaved, and the files they belong to.
  readonly drafts: DraftService
  /// Checks queued to run when their providers can be reached, and the worker that submits them.
  readonly pending: PendingQueue
  /// What the start-up found wrong but could do without (a calibration map that cannot be used), in words.
  readonly warnings: readonly string[]
  /// Deletes estimates not submitted in time (running in engines that run jobs).
  readonly estimates: EstimateExpiry
  /// Renders exports (HTML, Markdown, Word) off the event loop.
  readonly exports: ExportPool
  /// The principal of whoever holds the data folder (the desktop app, `factdesk check`): the default
  /// organization, with write scope.
  localPrincipal(): Promise<Principal>
  /// Stops the job runner (in-flight units go back to the queue), the webhook deliveries (an attempt in flight
  /// is made again at the next start), the tiers' workers, the events (a team server's stored first) and the
  /// store.
  close(): Promise<void>
}

const LOCAL_TOKEN_NAME = 'this computer'

/// Opens the engine: reads the configuration, takes the lock if it runs jobs, opens and migrates the store,
/// and makes sure the default organization exists.
export async function openEngine(options: EngineOptions): Promise<Engine> {
  const fileConfig = options.config ?? loadConfig(options.configPath)
  // The map fitted beside the config file, for the models it names.
  const calibration = loadCalibration(options.configPath)
  const calibrated = (running: Config) => calibrationFor(calibration.map, fileConfig.models, running.models)
  const clock = options.clock ?? systemClock
  makeDataFolder(options.dataDir)
  const unlock = options.runJobs ? lockDataFolder(options.dataDir) : () => undefined
  let store: Store | undefined
  let admin: Admin
  let events: ReportEvents
  try {
    store = options.database
      ? await Store.connect(options.database, options.secretKey)
      : await Store.open(options.dataDir)
    admin = new Admin(store, clock)
    await admin.defaultOrganization()
    // A team server's replicas share their events through the database; a data folder's are this process's.
    events =
      store.dialect === 'postgres' ? await ReportEvents.shared(store.events, clock) : new ReportEvents()
  } catch (error) {
    await store?.close()
    unlock()
    throw error
  }
  // The store as closures see it (narrowed: opened above).
  const openStore = store
  // A check's t3 follows the source policy it was submitted under; deep research, its organization's now.
  const webOptions: WebOptions = {
    sourcePolicy: async ({ organizationId, checkId }) =>
      (checkId === undefined ? null : (await openStore.checks.byId(checkId))?.sourcePolicy) ??
      settings.sourcePolicy(organizationId),
    ...options.web,
  }
  const settings = await AppSettings.open(store, admin, fileConfig, clock, {
    // The store's box by default: the data folder's key file, or on a team server the key every replica has.
    box: options.secretBox ?? store.secretBox,
    ollamaOrigin: options.ollamaOrigin,
    resolveHost: options.web?.fetch?.resolveHost,
    fileWins: options.configWins,
    // Injected tiers (tests) stay as they are.
    onConfigChanged: (next) => {
      const nextWeb = new Web(next, webOptions, settings.keys)
      if (!options.tiers)
        setModelTiers(tiers, next, openStore, nextWeb, settings.keys, options.verdictSteps, calibrated(next))
      research.reconfigure(next.models, nextWeb, settings.keys)
    },
  })
  // The configuration file overlaid by the models and search provider saved in the app.
  const config = settings.effective()
  const web = new Web(config, webOptions, settings.keys)
  const tiers =
    options.tiers ??
    createTiers(
      config,
      store,
      web,
      settings.keys,
      () => settings.writing(),
      options.verdictSteps,
      calibrated(config),
    )
  const runner = new JobRunner(store, tiers, events, clock, { ...DEFAULT_RUNNER_OPTIONS, ...options.runner })
  const webhooks = new WebhookDeliveries(store, config.webhooks, clock, events, options.webhooks)
  // An engine that runs jobs has its tiers ready for the first check (Harper takes seconds to load).
  if (options.runJobs) for (const tier of tiers.values()) tier.warm?.()
  if (options.runJobs) webhooks.start()
  // Probes follow the configuration in force, which the settings may change at any time, and resolve names
  // as web fetches do.
  const resolveHost = options.web?.fetch?.resolveHost
  const reachability = new Reachability(() => settings.effective(), {
    ...(resolveHost ? { resolveHost } : {}),
    ...options.reachability,
  })
  const research = new DeepResearch(store, config, clock, web, events, runner, settings.keys, reachability)
  runner.add(research)
  if (options.runJobs) await runner.start()
  const claims = new ClaimExtractor(() => settings.writing().findClaims)
  const exports = new ExportPool()
  const service = new Service(
    store,
    config,
    clock,
    tiers,
    runner,
    events,
    claims,
    options.webhooks?.resolveHost,
    reachability,
    (organizationId) => settings.sourcePolicy(organizationId),
  )
  const pending = new PendingQueue(
    store,
    service,
    reachability,
    clock,
    events,
    config.limits.pendingChecks,
    options.pending,
  )
  if (options.runJobs) pending.start()
  const estimates = new EstimateExpiry(store, clock)
  if (options.runJobs) await estimates.start()
  // On a team server the events of every replica reach it through the database (base/events.ts), so that a kept
  // report follows another replica's work too.
  const reports = new ReportCache(store, events, options.reportCacheBytes)
  let local: Principal | null = null
  return {
    service,
    admin,
    config,
    dataDir: options.dataDir,
    events,
    reports,
    webhooks,
    research,
    settings,
    pending,
    estimates,
    warnings: calibration.warning ? [calibration.warning] : [],
    exports,
    drafts: new DraftService(store, clock, config.limits),
    async localPrincipal() {
      if (local) return local
      const organization = await admin.defaultOrganization()
      const token =
        (await admin.listTokens(organization.id)).find(
          (t) => t.name === LOCAL_TOKEN_NAME && t.scope === 'write' && t.revokedAt === null,
        ) ?? (await admin.createToken('write', organization.id, LOCAL_TOKEN_NAME)).token
      local = { organizationId: organization.id, tokenId: token.id, scope: 'write', owner: true }
      return local
    },
    async close() {
      await settings.switches.close()
      estimates.stop()
      await pending.stop()
      await runner.stop()
      await webhooks.stop()
      await Promise.all([...tiers.values()].map((tier) => tier.close?.()))
      await claims.close()
      reports.close()
      await exports.close()
      await events.close()
      await store.close()
      unlock()
    },
  }
}

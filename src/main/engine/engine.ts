import { mkdirSync } from 'node:fs'
import type { Config } from '../../shared/config'
import { Admin } from './admin'
import { systemClock, type Clock } from './clock'
import { loadConfig } from './config'
import { Service, type Principal } from './service'
import { Store } from './store'
import { lockDataFolder } from './store/lock'

export interface EngineOptions {
  /// Folder of the SQLite store and the lock.
  dataDir: string
  /// JSON configuration file; absent means defaults.
  configPath?: string
  /// An already loaded configuration (wins over `configPath`).
  config?: Config
  /// True for engines that run jobs (desktop app, `serve`, `web`): they take the data folder's lock.
  runJobs?: boolean
  clock?: Clock
}

/// The fact-checking engine over one data folder: the service, the admin operations and the store.
export interface Engine {
  readonly service: Service
  readonly admin: Admin
  readonly config: Config
  readonly dataDir: string
  /// The principal the desktop app acts as: the default organization, with write scope.
  desktopPrincipal(): Principal
  close(): void
}

const DESKTOP_TOKEN_NAME = 'desktop app'

/// Opens the engine: reads the configuration, takes the lock if it runs jobs, opens and migrates the store,
/// and makes sure the default organization exists.
export function openEngine(options: EngineOptions): Engine {
  const config = options.config ?? loadConfig(options.configPath)
  const clock = options.clock ?? systemClock
  mkdirSync(options.dataDir, { recursive: true })
  const unlock = options.runJobs ? lockDataFolder(options.dataDir) : () => undefined
  let store: Store | undefined
  let admin: Admin
  try {
    store = Store.open(options.dataDir)
    admin = new Admin(store, clock)
    admin.defaultOrganization()
  } catch (error) {
    store?.close()
    unlock()
    throw error
  }
  let desktop: Principal | null = null
  return {
    service: new Service(store, config, clock),
    admin,
    config,
    dataDir: options.dataDir,
    desktopPrincipal() {
      if (desktop) return desktop
      const organization = admin.defaultOrganization()
      const token =
        admin
          .listTokens(organization.id)
          .find((t) => t.name === DESKTOP_TOKEN_NAME && t.scope === 'write' && t.revokedAt === null) ??
        admin.createToken('write', organization.id, DESKTOP_TOKEN_NAME).token
      desktop = { organizationId: organization.id, tokenId: token.id, scope: 'write' }
      return desktop
    },
    close() {
      store.close()
      unlock()
    },
  }
}

import { z } from 'zod'
import { ApiError } from '../../../shared/errors'
import {
  ServiceMode,
  type LocalServer,
  type ServiceSettings,
  type SettingsPatch,
} from '../../../shared/schemas'
import { keyFor, type SavedSettings } from './saved'

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

/// The local server's default port, the same as `factdesk serve`'s.
const DEFAULT_LOCAL_PORT = 8787
const SavedLocalServer = z.object({ enabled: z.boolean(), port: z.int() })
const SavedService = z.object({ mode: ServiceMode, baseURL: z.string().nullable() })
/// The saved token of the remote service.
const SERVICE_TOKEN = 'service-token'

/// The two switches of the settings' Service and API keys tabs: which service the editor works with (the
/// embedded engine, or a remote one whose token only the main process reads), and whether the desktop app's
/// local REST server runs. Both exist only where the shell offers them.
export class ServiceSwitches {
  private localSwitch: LocalServerSwitch | null = null
  private remoteAvailable = false
  private localState: { address: string | null; error: string | null } = { address: null, error: null }

  constructor(private readonly saved: SavedSettings) {}

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
    return baseURL === this.savedService().baseURL ? this.saved.read(SERVICE_TOKEN) : undefined
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

  /// Makes the local server run as saved (after a change of its settings).
  async applyLocalServer(): Promise<void> {
    if (this.localSwitch) this.localState = await this.localSwitch.set(this.localServerWish())
  }

  /// Saves the local server as wished (inside the settings' `change`); `applyLocalServer` then follows it.
  saveLocalServer(patch: NonNullable<SettingsPatch['localServer']>, at: string): void {
    this.saved.put('localServer', { ...this.localServerWish(), ...patch }, at)
  }

  /// Saves the service to use; the remote one needs the desktop app, its URL and a token.
  saveService(patch: NonNullable<SettingsPatch['service']>, at: string): void {
    const before = this.savedService()
    const service = { ...before, ...patch }
    const refusal = this.saved.box.refusal
    // In the token's own words: the box's refusal speaks of keys and their environment variables.
    if (refusal && patch.token) throw new ApiError('unprocessable', refusal.token)
    this.saved.saveKey(SERVICE_TOKEN, keyFor(patch.token, service.baseURL === before.baseURL), at)
    if (service.mode === 'remote') {
      if (!this.remoteAvailable) {
        throw new ApiError('unprocessable', 'A remote service is a setting of the desktop app.')
      }
      if (!service.baseURL || !this.saved.hasKey(SERVICE_TOKEN)) {
        throw new ApiError('unprocessable', 'A remote service needs its URL and a token.', [
          { field: service.baseURL ? 'service.token' : 'service.baseURL', message: 'required for remote' },
        ])
      }
    }
    this.saved.put('service', { mode: service.mode, baseURL: service.baseURL }, at)
  }

  localServerView(): LocalServer {
    return {
      available: this.localSwitch !== null,
      ...this.localServerWish(),
      ...(this.localSwitch ? this.localState : { address: null, error: null }),
    }
  }

  serviceView(): ServiceSettings {
    return {
      available: this.remoteAvailable,
      ...this.savedService(),
      token: this.saved.keyView(SERVICE_TOKEN),
      tokenRefused: this.saved.box.refusal?.token ?? null,
    }
  }

  private localServerWish(): LocalServerWish {
    return this.saved.part('localServer', SavedLocalServer) ?? { enabled: false, port: DEFAULT_LOCAL_PORT }
  }

  private savedService(): z.infer<typeof SavedService> {
    return this.saved.part('service', SavedService) ?? { mode: 'embedded', baseURL: null }
  }
}

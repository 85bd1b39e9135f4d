import { performance } from 'node:perf_hooks'
import type { EngineUpdate } from '../../shared/api'
import { ApiError } from '../../shared/errors'
import type { ServiceTest, ServiceTestRequest } from '../../shared/schemas'
import type { ReportEvent, ReportSource } from '../engine/base/events'
import type { Principal } from '../engine/checks/access'
import type { ServiceSwitches } from '../engine/settings/switches'
import { RemoteService, type RemoteOptions } from './remoteService'

/// The service the editor talks to, as the settings say: null for the embedded engine, or a `RemoteService`
/// made from the saved URL and token, and made again when they change (no restart). Its polled updates reach
/// whoever subscribed here, across changes; a new token for the same service goes on following what the old one
/// followed.
export class ServiceSwitch {
  private remote: RemoteService | null = null
  private stopRelay: (() => void) | null = null
  private readonly listeners = new Set<(update: EngineUpdate) => void>()

  constructor(
    private readonly settings: Pick<ServiceSwitches, 'remoteService' | 'serviceToken'>,
    /// Retries and polling of the remote service (tests shorten them).
    private readonly options: Omit<RemoteOptions, 'baseURL' | 'token'> = {},
  ) {
    this.refresh()
  }

  /// The remote service in use, or null for the embedded engine.
  current(): RemoteService | null {
    return this.remote
  }

  /// Reads the settings again: call after they changed. A saved token that cannot be decrypted any more (the
  /// data folder came from another computer) leaves the embedded engine in use; Settings shows the token
  /// without its last four characters, and saving it again mends it.
  refresh(): void {
    let wanted: { baseURL: string; token: string } | null = null
    try {
      wanted = this.settings.remoteService()
    } catch (error) {
      console.error('factdesk: the remote service cannot be used', error)
    }
    if (wanted ? this.remote?.isFor(wanted) : !this.remote) return
    this.unrelay()
    const previous = this.remote
    this.remote = wanted ? new RemoteService({ ...this.options, ...wanted }) : null
    if (previous) this.remote?.takeOver(previous)
    previous?.close()
    this.relay()
  }

  /// The remote service's updates, as the engine's events of `organizationId` (the window's forwarder takes
  /// these; the embedded engine's own events go to it directly).
  events(organizationId: string): ReportSource {
    return {
      subscribe: (listener: (event: ReportEvent) => void) => {
        const forward = (update: EngineUpdate): void => listener({ ...update, organizationId })
        this.listeners.add(forward)
        this.relay()
        return () => {
          this.listeners.delete(forward)
          if (this.listeners.size === 0) this.unrelay()
        }
      },
    }
  }

  /// Asks the remote service in the form who its token is (`GET /me`): the token entered, else the one saved
  /// for that URL.
  async test(principal: Principal, request: ServiceTestRequest): Promise<ServiceTest> {
    const token = request.token ?? this.settings.serviceToken(request.baseURL)
    if (!token) return { ok: false, latencyMs: null, message: 'Enter a token of this service first.' }
    const started = performance.now()
    try {
      const { organization, token: used } = await new RemoteService({
        baseURL: request.baseURL,
        token,
        retries: 0,
      }).me()
      const latencyMs = Math.round(performance.now() - started)
      const scope = used.scope === 'read' ? ' It is a read token: checks cannot be submitted with it.' : ''
      return { ok: true, latencyMs, message: `Connected to ${organization.name} in ${latencyMs} ms.${scope}` }
    } catch (error) {
      const refused = error instanceof ApiError && error.code === 'unauthorized'
      const message = error instanceof Error ? error.message : String(error)
      return { ok: false, latencyMs: null, message: refused ? `The token was refused: ${message}` : message }
    }
  }

  /// Stops polling.
  close(): void {
    this.unrelay()
    this.remote?.close()
    this.remote = null
  }

  // One subscription to the remote service while anyone listens here.
  private relay(): void {
    if (this.stopRelay || !this.remote || this.listeners.size === 0) return
    this.stopRelay = this.remote.subscribe((update) => {
      for (const listener of this.listeners) listener(update)
    })
  }

  private unrelay(): void {
    this.stopRelay?.()
    this.stopRelay = null
  }
}

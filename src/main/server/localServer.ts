import type { Engine } from '../engine/engine'
import type { LocalServerSwitch, LocalServerWish } from '../engine/settings/switches'
import { API_BASE } from '../../shared/rest'
import { createApp } from './app'
import { listen, type Listening } from './listen'

/// Only this computer may reach the desktop app's REST server.
const LOOPBACK = '127.0.0.1'

/// The desktop app's local REST server, switched on and off from the settings: the API alone (bearer tokens,
/// no browser session), on 127.0.0.1 only. Changes are applied one after another.
export function localServerSwitch(engine: Engine): LocalServerSwitch {
  let running: { port: number; server: Listening } | null = null
  let queue: Promise<unknown> = Promise.resolve()

  const stop = async (): Promise<void> => {
    const closing = running
    running = null
    await closing?.server.close()
  }

  const apply = async (wish: LocalServerWish): Promise<{ address: string | null; error: string | null }> => {
    if (running && (!wish.enabled || running.port !== wish.port)) await stop()
    if (!wish.enabled) return { address: null, error: null }
    if (!running) {
      try {
        running = {
          port: wish.port,
          server: await listen(
            (stopping) => createApp(engine, { stopping }),
            LOOPBACK,
            wish.port,
            engine.config.server.allowedHosts,
          ),
        }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        return {
          address: null,
          error:
            code === 'EADDRINUSE'
              ? `Port ${wish.port} is in use by another program; choose another port.`
              : `The local server cannot start on port ${wish.port}: ${(error as Error).message}`,
        }
      }
    }
    return { address: running.server.origin + API_BASE, error: null }
  }

  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work)
    queue = next.catch(() => undefined)
    return next
  }

  return { set: (wish) => inTurn(() => apply(wish)), close: () => inTurn(stop) }
}

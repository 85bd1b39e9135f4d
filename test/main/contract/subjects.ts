import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FactdeskOperations, ReportUpdate } from '../../../src/shared/api'
import { Config, type ConfigInput } from '../../../src/shared/config'
import { openEngine } from '../../../src/main/engine/engine'
import { engineOperations } from '../../../src/main/engine/operations'
import { chromiumPdf } from '../../../src/main/engine/exports/pdf'
import { RemoteService, type RemoteOperations } from '../../../src/main/remote/remoteService'
import { ServiceSwitch } from '../../../src/main/remote/switch'
import { toUpdate } from '../../../src/main/engine/base/events'
import { exited, factdesk, startFactdesk } from '../../helpers/cli'
import { tempDir } from '../../helpers/server'
import { databaseOf } from '../../helpers/database'

/// What the contract tests talk to: the operations of the specification's API and the updates of their checks.
export interface Subject {
  ops: Omit<RemoteOperations, 'subscribe'>
  subscribe(listener: (update: ReportUpdate) => void): () => void
  close(): Promise<void>
}

/// The embedded engine in this process, reached through the same operations the desktop dispatch calls (as
/// the desktop's own principal); its updates as the window's forwarder gets them.
export async function embeddedSubject(config: ConfigInput): Promise<Subject> {
  const dataDir = tempDir()
  const engine = await openEngine({
    dataDir,
    ...(await databaseOf(dataDir)),
    config: Config.parse(config),
    runJobs: true,
  })
  const services = new ServiceSwitch(engine.settings.switches)
  const ops: FactdeskOperations = engineOperations({ ...engine, services, printPdf: chromiumPdf }, () =>
    engine.localPrincipal(),
  )
  const { organizationId } = await engine.localPrincipal()
  return {
    ops,
    subscribe: (listener) =>
      engine.events.subscribe(
        (event) => event.organizationId === organizationId && listener(toUpdate(event)),
      ),
    close: () => engine.close(),
  }
}

/// A `factdesk serve` child process on its own data folder with `config` (and, under FACTDESK_TEST_STORE=postgres,
/// a database of its own, named with `--database`), and a `RemoteService` talking to it with a write token made by
/// `factdesk token create`; reports polled every 50 ms.
export async function remoteSubject(config: ConfigInput): Promise<Subject & { service: RemoteService }> {
  const dataDir = tempDir()
  const configFile = join(dataDir, 'config.json')
  writeFileSync(configFile, JSON.stringify(config))
  const { database } = await databaseOf(dataDir)
  const common = [
    '--data-dir',
    dataDir,
    '--config',
    configFile,
    ...(database === undefined ? [] : ['--database', database]),
  ]
  const created = await factdesk(['token', 'create', '--scope', 'write', ...common])
  if (created.code !== 0) throw new Error(`token create failed: ${created.stderr}`)
  const { child, line } = await startFactdesk(['serve', '--port', '0', ...common])
  const service = new RemoteService({
    baseURL: line.replace('listening on ', ''),
    token: created.stdout.trim(),
    retryDelayMs: 20,
    poll: { intervalMs: 50 },
  })
  return {
    ops: service,
    service,
    subscribe: (listener) => service.subscribe(listener),
    close: async () => {
      service.close()
      child.kill('SIGTERM')
      await exited(child)
    },
  }
}

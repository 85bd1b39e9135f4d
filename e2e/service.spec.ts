import type { Page } from '@playwright/test'
import type { Operation } from '../src/shared/api'
import { appPage } from '../src/main/desktop/appPage'
import { createDispatch } from '../src/main/desktop/dispatch'
import { openEngine, type Engine } from '../src/main/engine/engine'
import { ServiceSwitch } from '../src/main/remote/switch'
import { startServer, tempDir, type TestServer } from '../test/helpers/server'
import { expect, openEditor, pageProblems, test } from './webServer'

// Settings > Service as the desktop app shows it, and a remote Factdesk service on 127.0.0.1. In the browser the
// page gets a `window.factdesk` whose operations go to the desktop dispatch (over a real engine, in this process)
// as the preload's IPC would; in the `electron` project it is the desktop app itself.

const APP = `${appPage(undefined).href}#/`

let engine: Engine
let services: ServiceSwitch
let remote: TestServer
let token: string
test.beforeEach(async () => {
  engine = await openEngine({ dataDir: tempDir(), runJobs: false })
  engine.settings.switches.offerRemoteService()
  services = new ServiceSwitch(engine.settings.switches)
  remote = await startServer()
  const newsroom = await remote.engine.admin.createOrganization('Newsroom', 500)
  token = (await remote.engine.admin.createToken('write', newsroom.id, 'desktop')).value
})
test.afterEach(async () => {
  services.close()
  await engine.close()
  await remote.close()
})

/// Makes the page a desktop window: `window.factdesk` calls the dispatch; pushed updates are not needed here.
async function asDesktop(page: Page): Promise<void> {
  const dispatch = createDispatch(engine, new URL(APP), services)
  await page.exposeFunction('factdeskDispatch', (operation: Operation, args: unknown[]) =>
    dispatch(operation, args, APP),
  )
  await page.addInitScript(() => {
    const target = window as unknown as { factdeskDispatch(operation: string, args: unknown[]): unknown }
    const call =
      (operation: string) =>
      (...args: unknown[]) =>
        target.factdeskDispatch(operation, args)
    const operations = (): object => new Proxy({}, { get: (_target, name) => call(String(name)) })
    const factdesk = new Proxy(
      {},
      {
        get: (_target, name) =>
          name === 'onReport' || name === 'onOpenedFile'
            ? () => () => undefined
            : name === 'files'
              ? operations()
              : call(String(name)),
      },
    )
    Object.defineProperty(window, 'factdesk', { value: factdesk })
  })
}

test('the desktop app switches to a remote service: tested, saved, and the editor uses it', async ({
  page,
  server,
}) => {
  const problems = pageProblems(page)
  if (server.desktop) {
    await openEditor(page, server)
  } else {
    await asDesktop(page)
    await page.goto(server.origin)
  }
  await expect(page.getByRole('contentinfo')).toContainText('1,000 credits')
  await page.keyboard.press('Control+Comma')
  const dialog = page.getByRole('dialog', { name: 'Settings' })
  await dialog.getByRole('tab', { name: 'Service' }).click()
  await dialog.getByRole('radio', { name: 'On a remote Factdesk service' }).check()

  // An address that is not https is refused in words; a wrong token too.
  await dialog.getByLabel('Base URL').fill('http://factdesk.example.org/api/v1')
  await dialog.getByLabel('Token').fill(token)
  await expect(dialog.getByRole('alert')).toContainText('The base URL must be https')
  await expect(dialog.getByRole('button', { name: 'Test connection' })).toBeDisabled()
  await dialog.getByLabel('Base URL').fill(remote.api)
  await dialog.getByLabel('Token').fill('fdk_wrong')
  await dialog.getByRole('button', { name: 'Test connection' }).click()
  await expect(dialog.getByRole('status').last()).toContainText('Not connected: The token was refused')

  await dialog.getByLabel('Token').fill(token)
  await dialog.getByRole('button', { name: 'Test connection' }).click()
  await expect(dialog.getByRole('status').last()).toContainText(/Connected to Newsroom in \d+ ms/)
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toContainText('Saved: checks now run on the remote service.')
  await expect(dialog.getByLabel('Token')).toHaveValue('')
  await expect(dialog).toContainText(`Key saved, ending in ${token.slice(-4)}`)
  await expect(dialog).not.toContainText(token)

  // Without a restart, the editor's balance is the remote organization's.
  await page.reload()
  await expect(page.getByRole('contentinfo')).toContainText('500 credits')
  expect(problems).toEqual([])
})

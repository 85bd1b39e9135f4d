import type { Settings } from '../src/shared/schemas'
import { startFakeOpenAI, type FakeOpenAI } from '../test/helpers/fakeOpenAI'
import {
  asWebServer,
  expect,
  expectFocusKept,
  openEditor,
  openFreshEditor,
  outputFile as screenshot,
  pageProblems,
  test,
  savedSettings,
} from './webServer'

let fake: FakeOpenAI
test.beforeAll(async () => {
  fake = await startFakeOpenAI({ '*': { overrides: { ok: true } } })
  fake.behave('model-locked', { alwaysFail: { status: 401, message: 'Incorrect API key provided' } })
})
test.afterAll(() => fake.close())

test('adds a model and tests its connection; the saved key is never shown', async ({ page, server }) => {
  const problems = pageProblems(page)
  await openFreshEditor(page, server)
  await page.keyboard.press('Control+Comma')
  const dialog = page.getByRole('dialog', { name: 'Settings' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('tab', { name: 'Models' })).toHaveAttribute('aria-selected', 'true')

  await dialog.getByRole('button', { name: 'Add a panel model' }).click()
  const form = dialog.getByRole('form', { name: 'New panel model' })
  await form.getByLabel('Name').fill('panel-a')
  await form.getByLabel('Provider').selectOption('openai-compatible')
  await form.getByLabel('Base URL').fill(fake.baseURL)
  await form.getByLabel('Model').fill('model-a')
  await form.getByLabel('API key').fill('sk-e2e-secret-1234')
  await form.getByRole('button', { name: 'Test connection' }).click()
  await expect(form.getByRole('status')).toContainText(/Connected: model-a answered in \d+ ms/)
  expect(fake.of('model-a').at(-1)?.headers.authorization).toBe('Bearer sk-e2e-secret-1234')
  await page.screenshot({ path: screenshot('settings-test.png') })
  await form.getByRole('button', { name: 'Save' }).click()

  const panel = dialog.getByRole('list', { name: 'Panel models' })
  await expect(panel).toContainText('panel-a')
  await expect(panel).toContainText('Key saved, ending in 1234')
  await expect(dialog).not.toContainText('sk-e2e-secret')

  // Editing shows an empty key field; a wrong model is reported in words, in place.
  await panel.getByRole('button', { name: 'Edit panel-a' }).click()
  const edit = dialog.getByRole('form', { name: 'Edit panel-a' })
  await expect(edit.getByLabel('API key')).toHaveValue('')
  await expect(edit.getByLabel('Name')).toHaveAttribute('readonly', '')
  await edit.getByLabel('Model').fill('model-locked')
  await edit.getByRole('button', { name: 'Test connection' }).click()
  await expect(edit.getByRole('status')).toContainText('Not connected: The key was refused')
  // The saved key stays with its address: the form says so as soon as the address changes.
  await edit.getByLabel('Base URL').fill('http://127.0.0.1:9/v1')
  await expect(edit).toContainText('The saved key stays with the address it was saved for')
  await expect(edit.getByLabel('API key')).toHaveAttribute('placeholder', 'The key for this address')
  await edit.getByLabel('Base URL').fill(fake.baseURL)
  await expect(edit).toContainText('Key saved, ending in 1234')
  await edit.getByRole('button', { name: 'Cancel' }).click()

  await dialog.getByRole('button', { name: 'Set the judge' }).click()
  const judge = dialog.getByRole('form', { name: 'Judge' })
  await judge.getByLabel('Base URL').fill(fake.baseURL)
  await judge.getByLabel('Model').fill('model-judge')
  await judge.getByRole('button', { name: 'Save' }).click()
  await expect(dialog.getByRole('list', { name: 'Judge' })).toContainText('model-judge')
  await page.screenshot({ path: screenshot('settings-models.png') })

  // Escape closes the dialog; t2 now checks with these models, no restart needed.
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await page.getByRole('textbox', { name: 'Document' }).click()
  await page.keyboard.insertText('The Eiffel Tower is 330 metres tall.')
  const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
  await toolbar.getByRole('button', { name: /t1/ }).click()
  await toolbar.getByRole('button', { name: /t2/ }).click()
  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  await expect(page.getByRole('status', { name: 'Check status' })).toContainText('completed', {
    timeout: 20_000,
  })
  await expect(page.locator('.cm-content .fd-badge').first()).toHaveText(
    /supported|refuted|misleading|unverifiable/,
  )
  expect(fake.of('model-a').at(-1)?.user).toContain('Eiffel Tower')
  // A screen reader hears how the check ended, with its verdicts.
  await expect(page.getByRole('status', { name: 'Check status' })).toHaveText(
    /^Check “The Eiffel Tower is 330 metres tall\.” completed: 1 claim\. (supported|refuted|misleading|unverifiable): 1\.$/,
  )

  // Removing a model asks first (its key goes with it); the focus then stays in the list's place.
  await page.keyboard.press('Control+Comma')
  await dialog.getByRole('button', { name: 'Remove panel-a' }).click()
  const question = dialog.getByRole('alertdialog', { name: 'Remove panel-a' })
  await expect(question).toContainText('Its saved key is forgotten too.')
  await expect(question.getByRole('button', { name: 'Keep it' })).toBeFocused()
  await question.getByRole('button', { name: 'Remove', exact: true }).click()
  await expect(dialog.getByRole('list', { name: 'Panel models' })).not.toContainText('panel-a')
  await expect(dialog.getByRole('button', { name: 'Add a panel model' })).toBeFocused()
  await dialog.getByRole('button', { name: 'Remove judge' }).click()
  await dialog
    .getByRole('alertdialog', { name: 'Remove judge' })
    .getByRole('button', { name: 'Remove', exact: true })
    .click()
  await expect(dialog.getByRole('button', { name: 'Set the judge' })).toBeFocused()
  const saved = await savedSettings(page, server)
  expect(saved.models).toMatchObject({ panel: [], judge: null })
  expect(problems).toEqual([])
})

// The REST API of `factdesk web` itself, which the tokens are tried on, and its browser session in the list of
// tokens; the desktop app serves the API only once its local server is turned on, and has no session.
test.describe(() => {
  test.skip(
    ({ desktop }) => desktop,
    "tries the tokens on factdesk web's own REST API and lists its browser session",
  )

  test('creates and revokes a token, rotates the signing secret, adds credits', async ({ page, server }) => {
    const web = asWebServer(server)
    await page.goto(web.link)
    await expect(page.getByRole('contentinfo')).toContainText('1,000 credits')
    await page
      .getByRole('toolbar', { name: 'Fact-checking' })
      .getByRole('button', { name: 'Settings' })
      .click()
    const dialog = page.getByRole('dialog', { name: 'Settings' })
    await dialog.getByRole('tab', { name: 'API keys' }).click()

    await dialog.getByLabel('Name').fill('dashboard')
    await dialog.getByLabel('Scope').selectOption('write')
    await dialog.getByRole('button', { name: 'Create token' }).click()
    const value = (await dialog.getByLabel('New token', { exact: true }).textContent()) ?? ''
    expect(value).toMatch(/^fdk_/)
    // The token is shown once: the focus goes to its Copy button.
    await expect(dialog.getByRole('button', { name: 'Copy the new token' })).toBeFocused()
    const me = (token: string) =>
      fetch(`${web.origin}/api/v1/me`, { headers: { Authorization: `Bearer ${token}` } })
    expect((await me(value)).status).toBe(200)
    const row = dialog.getByRole('row', { name: /dashboard/ })
    await expect(row).toContainText('active')
    await dialog.getByRole('button', { name: 'Done' }).click()
    await expect(dialog.getByLabel('New token', { exact: true })).toHaveCount(0)
    await expect(dialog).not.toContainText(value)

    // Revoking asks first; once revoked, the focus goes to the next token's Revoke….
    await dialog.getByLabel('Name').fill('archive')
    await dialog.getByRole('button', { name: 'Create token' }).click()
    await dialog.getByRole('button', { name: 'Done' }).click()
    await row.getByRole('button', { name: 'Revoke dashboard' }).click()
    const revoke = dialog.getByRole('alertdialog', { name: 'Revoke dashboard' })
    await expect(revoke).toContainText('this cannot be undone')
    await expect(revoke.getByRole('button', { name: 'Keep it' })).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(row.getByRole('button', { name: 'Revoke dashboard' })).toBeFocused()
    expect((await me(value)).status).toBe(200)
    await row.getByRole('button', { name: 'Revoke dashboard' }).click()
    await revoke.getByRole('button', { name: 'Revoke', exact: true }).click()
    await expect(revoke).toHaveCount(0)
    await expect(row).toContainText('revoked')
    expect((await me(value)).status).toBe(401)
    await expect(dialog.getByRole('button', { name: 'Revoke archive' })).toBeFocused()

    await dialog.getByRole('button', { name: 'Show secret' }).click()
    const secret = dialog.getByLabel('Signing secret', { exact: true })
    const before = (await secret.textContent()) ?? ''
    expect(before).toMatch(/^whsec_/)
    // The question takes the focus and keeps it; Escape answers it, not the whole dialog, and the focus goes
    // back to Rotate….
    const rotateButton = dialog.getByRole('button', { name: 'Rotate…' })
    await rotateButton.click()
    const question = dialog.getByRole('alertdialog', { name: 'Rotate the signing secret' })
    await expect(question).toContainText('24 hours')
    await expectFocusKept(page, question, question.getByRole('button', { name: 'Keep the current secret' }))
    await expect(dialog).toBeVisible()
    await expect(rotateButton).toBeFocused()
    await rotateButton.click()
    await dialog.getByRole('button', { name: 'Rotate now' }).click()
    await expect(dialog).toContainText('Rotated. The previous secret keeps signing until')
    await expect(secret).not.toHaveText(before)
    await expect(dialog).toContainText('Also signing until they expire')
    await expect(dialog).toContainText('This Factdesk already serves the REST API')
    await expect(dialog.getByRole('row', { name: /browser session/ })).toContainText('this window')
    await page.screenshot({ path: screenshot('settings-keys.png') })

    await dialog.getByRole('tab', { name: 'Credits' }).click()
    await dialog.getByLabel('Credits to add').fill('500')
    await dialog.getByRole('button', { name: 'Add credits' }).click()
    await expect(dialog.getByRole('status').filter({ hasText: 'Balance' })).toContainText('1,500 credits')
    await dialog.getByRole('button', { name: 'Close settings' }).click()
    await expect(page.getByRole('contentinfo')).toContainText('1,500 credits')
  })
})

test.describe('search', () => {
  test.use({
    models: { latencyMs: 0, wiki: (wiki) => (wiki.search = () => [{ title: 'Fact-checking' }]) },
  })

  test('tests the search provider as entered, and says why it cannot search', async ({ page, server }) => {
    const problems = pageProblems(page)
    await openEditor(page, server)
    await page.keyboard.press('Control+Comma')
    const dialog = page.getByRole('dialog', { name: 'Settings' })
    await dialog.getByRole('tab', { name: 'Search' }).click()
    const result = dialog.getByRole('status', { name: 'Search test' })
    await dialog.getByRole('button', { name: 'Test search' }).click()
    await expect(result).toContainText(
      /Searched: 1 result for "fact-checking" in \d+ ms, the first "Fact-checking"\./,
    )
    await page.screenshot({ path: screenshot('settings-search.png') })

    // An endpoint in private address space is refused before any request, in words; editing clears the answer.
    await dialog.getByLabel('Base URL').fill('http://10.0.0.1/w/api.php')
    await expect(result).toBeEmpty()
    // Refused as saving it would be (422): t3 could never reach it.
    await dialog.getByRole('button', { name: 'Test search' }).click()
    await expect(dialog.getByRole('alert')).toContainText(
      'The search provider cannot be used: its host 10.0.0.1 resolves to a non-public address (10.0.0.1)',
    )
    await expect(result).toBeEmpty()
    expect(problems).toEqual([])
  })

  test("edits the organization's source policy, one site a line, as the server writes it", async ({
    page,
    server,
  }) => {
    const problems = pageProblems(page)
    await openEditor(page, server)
    await page.keyboard.press('Control+Comma')
    const dialog = page.getByRole('dialog', { name: 'Settings' })
    await dialog.getByRole('tab', { name: 'Search' }).click()
    await dialog.getByLabel('Preferred sites').fill('https://Reuters.com/\napnews.com')
    await dialog.getByLabel('Never these sites').fill('farm.example')
    await dialog.getByRole('button', { name: 'Save source policy' }).click()
    await expect(dialog.getByText('Saved.')).toBeVisible()
    await expect(dialog.getByLabel('Preferred sites')).toHaveValue('reuters.com\napnews.com')
    await page.screenshot({ path: screenshot('settings-sources.png') })
    expect((await savedSettings(page, server)).sources).toEqual({
      prefer: ['reuters.com', 'apnews.com'],
      only: [],
      never: ['farm.example'],
    })
    // A path names part of a site, which a policy cannot keep apart: refused, naming the line.
    await dialog.getByLabel('Only these sites').fill('example.com/news')
    await dialog.getByRole('button', { name: 'Save source policy' }).click()
    await expect(dialog.getByRole('alert')).toContainText('(sources.only.0)')
    expect((await savedSettings(page, server)).sources.only).toEqual([])
    expect(problems).toEqual([])
  })
})

test.describe('a desktop without a keychain', () => {
  test.skip(({ desktop }) => desktop, 'stands in for the engine’s answer on the HTTP route of factdesk web')

  test('Settings say so by the key fields before a key is typed', async ({ page, server }) => {
    await openFreshEditor(page, server)
    const dialog = page.getByRole('dialog', { name: 'Settings' })
    const refused = 'This computer has no keychain Factdesk can keep keys in.'

    // factdesk web keeps keys (its key file): nothing to say.
    await page.keyboard.press('Control+Comma')
    await dialog.getByRole('button', { name: 'Add a panel model' }).click()
    await expect(dialog.getByLabel('API key')).toBeVisible()
    await expect(dialog).not.toContainText('keychain')
    await dialog.getByRole('button', { name: 'Close settings' }).click()

    // The engine of a desktop without a keychain says why keys are not kept.
    await page.route('**/api/v1/settings', async (route) => {
      const response = await route.fetch()
      await route.fulfill({ response, json: { ...(await response.json()), keysRefused: refused } })
    })
    await page.keyboard.press('Control+Comma')
    await dialog.getByRole('button', { name: 'Add a panel model' }).click()
    const key = dialog.getByRole('form', { name: 'New panel model' }).getByLabel('API key')
    await expect(key).toHaveValue('')
    await expect(key).toHaveAccessibleDescription(new RegExp(refused.replaceAll('.', '\\.')))
    await expect(dialog.locator('.keys-refused')).toBeVisible()
    await dialog.getByRole('tab', { name: 'Search' }).click()
    await expect(dialog.getByLabel('API key')).toHaveAccessibleDescription(/no keychain/)
  })

  test('the Service tab says by the token field that a token cannot be kept', async ({ page, server }) => {
    await openFreshEditor(page, server)
    const dialog = page.getByRole('dialog', { name: 'Settings' })
    const refused = 'This computer has no keychain Factdesk can keep the token in.'
    // The desktop app's engine, which offers a remote service, on a desktop without a keychain.
    await page.route('**/api/v1/settings', async (route) => {
      const response = await route.fetch()
      const settings = (await response.json()) as Settings
      await route.fulfill({
        response,
        json: { ...settings, service: { ...settings.service, available: true, tokenRefused: refused } },
      })
    })
    await page.keyboard.press('Control+Comma')
    await dialog.getByRole('tab', { name: 'Service' }).click()
    const token = dialog.getByLabel('Token')
    await expect(token).toHaveValue('')
    await expect(token).toHaveAccessibleDescription(new RegExp(refused.replaceAll('.', '\\.')))
    await expect(dialog.locator('.keys-refused')).toHaveText(refused)
  })
})

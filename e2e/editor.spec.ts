import { asWebServer, expect, openEditor, outputFile as screenshot, pageProblems, test } from './webServer'

test('writes in the editor after signing in with the one-time link', async ({ page, server }) => {
  const problems = pageProblems(page, { console: true })

  await openEditor(page, server)
  const editor = page.getByRole('textbox', { name: 'Document' })
  const status = page.getByRole('contentinfo')
  await expect(editor).toBeVisible()
  await expect(status).toContainText('1,000 credits')
  await expect(status).toContainText('Default organization')
  await expect(status).toContainText('0 words')
  // The desktop app has no link and no token: its page, served on its own app:// scheme, reaches the engine
  // through the preload.
  if (server.desktop) expect(page.url()).toMatch(/^app:\/\/factdesk\/index\.html/)
  else expect(page.url()).not.toContain(server.token)

  await editor.click()
  await page.keyboard.type('The Eiffel Tower is 330 metres tall.')
  await expect(status).toContainText('7 words')
  await expect(status).toContainText('36 characters')
  await page.screenshot({ path: screenshot('editor.png') })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: screenshot('editor-dark.png') })

  await page.reload()
  await expect(status).toContainText('1,000 credits')
  await expect(page.getByRole('alert').filter({ hasText: /\S/ })).toHaveCount(0)
  // Landmarks and headings to move by: a banner holding the toolbar, and one first-level heading.
  await expect(page.getByRole('banner').getByRole('toolbar', { name: 'Fact-checking' })).toHaveCount(1)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Factdesk')

  expect(problems).toEqual([])
  // The token was printed once, in the link, and never again (no request log, no error message).
  if (!server.desktop) expect(server.output().split(server.token)).toHaveLength(2)
})

test.describe(() => {
  test.skip(
    ({ desktop }) => desktop,
    "factdesk web's one-time link and session cookie: the desktop app has neither",
  )

  test('without the link the page says it needs one', async ({ page, server }) => {
    await page.goto(asWebServer(server).origin)
    await expect(
      page.getByRole('alert').filter({ hasText: 'This page needs the link printed by factdesk web' }),
    ).toBeVisible()
    await expect(page.getByRole('contentinfo')).toContainText('Not signed in')
    await expect(page.getByRole('textbox', { name: 'Document' })).toBeVisible()
  })

  test('the link works once: opened again elsewhere it asks for a new one', async ({ browser, server }) => {
    const { link, token } = asWebServer(server)
    const first = await browser.newPage()
    await first.goto(link)
    await expect(first.getByRole('contentinfo')).toContainText('1,000 credits')

    const second = await browser.newPage() // a new context: no cookie
    await second.goto(link)
    await expect(
      second.getByRole('alert').filter({ hasText: 'This page needs the link printed by factdesk web' }),
    ).toBeVisible()
    expect(second.url()).not.toContain(token)
    await Promise.all([first.close(), second.close()])
  })
})

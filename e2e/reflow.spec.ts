import type { Locator } from '@playwright/test'
import { expect, outputFile, pageProblems, test, writeInEditor } from './webServer'

/// Fails when `element` reaches out of a window 320 px wide.
async function expectInWindow(element: Locator): Promise<void> {
  const box = await element.boundingBox()
  expect(box?.x).toBeGreaterThanOrEqual(0)
  expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(320)
}

// WCAG 1.4.10: at 320 CSS pixels the page reflows rather than squeezing the text to nothing. The side panel goes
// under the text, and both keep the whole width.
test('at 320 px the side panel goes under the text, both of a usable size', async ({ page, server }) => {
  const problems = pageProblems(page)
  await page.setViewportSize({ width: 320, height: 720 })
  await writeInEditor(page, server, 'The Eiffel Tower is 330 metres tall. It was completed in 1889.')
  await page.getByRole('toolbar', { name: 'Fact-checking' }).getByRole('button', { name: 'Estimate' }).click()
  const panel = page.getByRole('complementary', { name: 'Estimate' })
  await expect(panel).toContainText('2 claims found')

  const editor = await page.getByRole('textbox', { name: 'Document' }).boundingBox()
  const side = await panel.boundingBox()
  expect(editor?.width).toBeGreaterThan(200)
  expect(side?.width).toBeGreaterThan(200)
  expect(editor?.height).toBeGreaterThan(100)
  expect(side?.height).toBeGreaterThan(100)
  // Nothing scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
  await page.screenshot({ path: outputFile('reflow-320.png') })
  expect(problems).toEqual([])
})

// A click that lands while the bar above the toolbar wraps anew misses its button: an untitled draft taking its
// first words as its name, once saved, must not move the toolbar.
test('at 320 px the toolbar stays in place when the draft takes its first words as its name', async ({
  page,
  server,
}) => {
  await page.setViewportSize({ width: 320, height: 720 })
  await writeInEditor(page, server, 'The Eiffel Tower is 330 metres tall. It was completed in 1889.')
  const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
  const documentBar = page.getByRole('navigation', { name: 'Document' })
  const before = await toolbar.boundingBox()
  await expect(documentBar).toContainText('The Eiffel Tower')
  await expect(page.getByRole('status', { name: 'Draft' })).toHaveText('Draft saved')
  expect(await toolbar.boundingBox()).toEqual(before)
})

test('at 320 px the export menu fits in the window, and the status bar says its words whole', async ({
  page,
  server,
}) => {
  const problems = pageProblems(page)
  await page.setViewportSize({ width: 320, height: 720 })
  await writeInEditor(page, server, 'The Eiffel Tower is 330 metres tall. It was completed in 1889.')
  const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
  await toolbar.getByRole('button', { name: 'Estimate' }).click()
  await expect(page.getByRole('complementary', { name: 'Estimate' })).toContainText('2 claims found')
  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  await expect(page.getByRole('status', { name: 'Check status' })).toContainText('completed', {
    timeout: 30_000,
  })

  // Each word of the status bar whole, none cut to an ellipsis (the balance, above all).
  const statusBar = page.getByRole('contentinfo')
  await expect(statusBar).toContainText('998 credits')
  for (const word of await statusBar.locator('span').all()) {
    expect(await word.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true)
  }
  await expectInWindow(statusBar.locator('.status-balance'))

  await toolbar.getByRole('button', { name: 'Export' }).click()
  const menu = page.getByRole('menu', { name: 'Export the report as' })
  await expect(menu.getByRole('menuitem').first()).toBeVisible()
  await expectInWindow(menu)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
  await page.screenshot({ path: outputFile('reflow-320-export.png') })
  expect(problems).toEqual([])
})

test.describe('the checks waiting to run', () => {
  test.use({ models: { latencyMs: 0, offline: true } })

  test('at 320 px their list fits in the window', async ({ page, server }) => {
    const problems = pageProblems(page)
    await page.setViewportSize({ width: 320, height: 720 })
    await writeInEditor(page, server, 'The Eiffel Tower is 330 metres tall. It was completed in 1889.')
    const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
    await toolbar.getByRole('button', { name: /t2/ }).click()
    await toolbar.getByRole('button', { name: 'Estimate' }).click()
    await expect(page.getByRole('complementary', { name: 'Estimate' })).toContainText('2 claims found')
    await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
    await page.getByRole('button', { name: 'Check when online' }).click()
    await toolbar.getByRole('button', { name: 'Waiting to check (1)' }).click()
    const list = page.getByRole('list', { name: 'Waiting to check' })
    await expect(list.getByRole('button', { name: /^Cancel the check of/ })).toBeVisible()

    await expectInWindow(list)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
    await page.screenshot({ path: outputFile('reflow-320-waiting.png') })
    expect(problems).toEqual([])
  })
})

test.describe('with a model panel', () => {
  test.use({ models: { latencyMs: 0 } })

  test('at 320 px Settings show every tab and each model whole', async ({ page, server }) => {
    const problems = pageProblems(page)
    await page.setViewportSize({ width: 320, height: 720 })
    await writeInEditor(page, server, 'The Eiffel Tower is 330 metres tall.')
    await page.keyboard.press('Control+Comma')
    const dialog = page.getByRole('dialog', { name: 'Settings' })
    await expectInWindow(dialog)
    for (const tab of await dialog.getByRole('tab').all()) await expectInWindow(tab)
    const models = dialog.getByRole('list', { name: 'Panel models' }).getByRole('listitem')
    await expect(models).toHaveCount(3)
    for (const line of await dialog.locator('.model-what span').all()) {
      expect(await line.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true)
    }
    await page.screenshot({ path: outputFile('reflow-320-settings.png') })
    expect(problems).toEqual([])
  })
})

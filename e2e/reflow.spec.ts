import { expect, outputFile, pageProblems, test, writeInEditor } from './webServer'

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

    const box = await list.boundingBox()
    expect(box?.x).toBeGreaterThanOrEqual(0)
    expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(320)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320)
    await page.screenshot({ path: outputFile('reflow-320-waiting.png') })
    expect(problems).toEqual([])
  })
})

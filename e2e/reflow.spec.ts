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

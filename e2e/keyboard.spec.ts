import { expect, openFreshEditor, pageProblems, test } from './webServer'

test('the toolbar is one tab stop whose buttons the arrow keys walk', async ({ page, server }) => {
  const problems = pageProblems(page)
  await openFreshEditor(page, server)
  const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
  const button = (name: string | RegExp) => toolbar.getByRole('button', { name, exact: true })
  const editor = page.getByRole('textbox', { name: 'Document' })

  // Tab enters the toolbar on its first button and leaves it from any other.
  await editor.click()
  await page.keyboard.press('Shift+Tab')
  await expect(button(/^t1 /)).toBeFocused()
  await expect(toolbar.locator('[tabindex="0"]')).toHaveCount(1)
  await page.keyboard.press('ArrowRight')
  await expect(button(/^t2 /)).toBeFocused()
  await page.keyboard.press('Tab')
  await expect(toolbar.locator(':focus')).toHaveCount(0)
  // Shift+Tab comes back to the button last left.
  await editor.click()
  await page.keyboard.press('Shift+Tab')
  await expect(button(/^t2 /)).toBeFocused()

  // Right walks on, passing the disabled buttons (Cancel, and Export before any check), and wraps; Left back.
  const order: string[] = []
  for (let press = 0; press < 9; press++) {
    await page.keyboard.press('ArrowRight')
    order.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ''))
  }
  expect(order).toEqual([
    expect.stringMatching(/^t3 /),
    'Estimate',
    'Check',
    '▾',
    'Deep research',
    'History',
    'Settings',
    expect.stringMatching(/^t1 /),
    expect.stringMatching(/^t2 /),
  ])
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await expect(button('Settings')).toBeFocused()
  await page.keyboard.press('Home')
  await expect(button(/^t1 /)).toBeFocused()
  await page.keyboard.press('End')
  await expect(button('Settings')).toBeFocused()

  // The buttons keep their own keys: Space toggles a tier, Enter opens the settings.
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowRight')
  await expect(button(/^t2 /)).toHaveAttribute('aria-pressed', 'false')
  await page.keyboard.press('Space')
  await expect(button(/^t2 /)).toHaveAttribute('aria-pressed', 'true')
  await page.keyboard.press('End')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(button('Settings')).toBeFocused()
  expect(problems).toEqual([])
})

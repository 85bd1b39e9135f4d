import { expect, outputFile as screenshot, pageProblems, test, writeInEditor } from './webServer'

// Claims far enough apart (more than 32 characters) that editing the middle of one leaves the others' context.
const ARTICLE = [
  'The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World Fair in Paris.',
  '',
  'Gustave Eiffel’s company designed and built the tower. Around seven million people visit it every yaer.',
  '',
  'The Great Wall of China is more than 21,000 kilometres long according to a 2012 survey.',
].join('\n')

test('after a check, the next one keeps the unchanged claims and checks only the edited one', async ({
  page,
  server,
}) => {
  const problems = pageProblems(page)
  await writeInEditor(page, server, ARTICLE)
  const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
  const estimate = page.getByRole('complementary', { name: 'Estimate' })
  const status = page.getByRole('contentinfo')
  await toolbar.getByRole('button', { name: 'Estimate' }).click()
  await expect(estimate).toContainText(/\d+ claims found/)
  const count = await page.locator('.cm-content .fd-claim').count()
  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  await expect(status).toContainText(`${1000 - count} credits`)
  await expect(page.getByRole('status', { name: 'Check status' })).toContainText('completed')

  // One number changed in the middle of the last sentence.
  await page.getByRole('textbox', { name: 'Document' }).click()
  await page.keyboard.press('Control+End')
  for (let i = 0; i < ' kilometres long according to a 2012 survey.'.length; i++)
    await page.keyboard.press('ArrowLeft')
  for (let i = 0; i < '21,000'.length; i++) await page.keyboard.press('Backspace')
  await page.keyboard.type('9,000')

  await toolbar.getByRole('button', { name: 'Estimate' }).click()
  await expect(estimate.locator('.estimate-lead')).toHaveText(
    `${count - 1} claims unchanged, kept · 1 to check: 1 credit`,
  )
  // A screen reader hears the same.
  await expect(page.getByRole('status', { name: 'Estimate status' })).toHaveText(
    `${count - 1} claims unchanged, kept · 1 to check: 1 credit. Balance ${1000 - count} credits: enough for this check.`,
  )
  // A kept claim shows its verdict, and the day of the check it comes from, from the estimate on.
  const kept = page.locator('.cm-content .fd-claim', { hasText: 'every yaer' })
  await expect(kept).toHaveClass(/fd-stage-issues/)
  await expect(page.getByRole('button', { name: /^Claim “Around seven million people/ })).toHaveAttribute(
    'title',
    // The day as the app writes every date, in the writer's locale (en-US here: "Nov 28, 2026").
    /^issues — unchanged since the check of [A-Z][a-z]{2} \d{1,2}, 20\d\d$/,
  )
  await expect(page.locator('.cm-content .fd-claim', { hasText: '9,000' })).toHaveClass(/fd-stage-estimated/)
  await page.screenshot({ path: screenshot('recheck-estimate.png') })
  await page.getByRole('button', { name: /^Claim “Around seven million people/ }).click()
  const keptDetail = page.getByRole('complementary', { name: 'Claim' })
  await expect(keptDetail).toContainText('Unchanged since the check of')
  await expect(keptDetail.getByRole('region', { name: 'Tier t1' })).toBeVisible()
  await page.keyboard.press('Escape')
  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  await expect(status).toContainText(`${1000 - count - 1} credits`)
  await expect(page.locator('.cm-content .fd-claim:not(.fd-stage-estimated)')).toHaveCount(count)

  // A kept claim opens with its verdict and the day of the check it comes from.
  await page.locator('.cm-content .fd-claim', { hasText: 'The Eiffel Tower' }).click()
  const panel = page.getByRole('complementary', { name: 'Claim' })
  await expect(panel).toContainText('Unchanged since the check of')
  await expect(panel).toContainText('its verdicts are kept from it.')
  await expect(panel.getByRole('region', { name: 'Tier t1' })).toBeVisible()
  await page.keyboard.press('Escape')

  // "Check everything again" prices every claim.
  await toolbar.getByRole('button', { name: 'More ways to check' }).click()
  await page.getByRole('menuitem', { name: /Check everything again/ }).click()
  await expect(estimate.locator('.estimate-lead')).toContainText(`${count} claims found`)
  await expect(estimate.locator('.estimate-total')).toHaveText(`${count} credits`)
  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  await expect(status).toContainText(`${1000 - 2 * count - 1} credits`)
  expect(problems).toEqual([])
})

const SECTIONS = [
  '# The tower',
  '',
  'The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World Fair in Paris.',
  '',
  '# The wall',
  '',
  'The Great Wall of China is more than 21,000 kilometres long. Around seven million people visit it every yaer.',
].join('\n')

test('checks only the selection, or the section at the cursor, on the right words of the whole text', async ({
  page,
  server,
}) => {
  const problems = pageProblems(page)
  await writeInEditor(page, server, SECTIONS)
  const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
  const estimate = page.getByRole('complementary', { name: 'Estimate' })
  const claims = page.locator('.cm-content .fd-claim')
  const wall = [
    'The Great Wall of China is more than 21,000 kilometres long.',
    'Around seven million people visit it every yaer.',
  ]

  // The last paragraph selected: its two claims only, on their words.
  await page.locator('.cm-line', { hasText: 'The Great Wall' }).click({ position: { x: 2, y: 5 } })
  await page.keyboard.press('Home')
  await page.keyboard.press('Shift+Control+End')
  await toolbar.getByRole('button', { name: 'Estimate' }).click()
  await expect(estimate.locator('.estimate-lead')).toContainText('2 claims found')
  await expect(claims).toHaveText(wall)
  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  await expect(page.getByRole('status', { name: 'Check status' })).toContainText('completed')
  await expect(page.getByRole('contentinfo')).toContainText('998 credits')
  await expect(claims).toHaveText(wall)
  await expect(page.locator('.cm-content .fd-issue', { hasText: 'yaer' })).toHaveCount(1)
  await page.screenshot({ path: screenshot('selection-check.png') })

  // The section around the cursor, from the check menu.
  await claims.first().click()
  await page.keyboard.press('Control+Home')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await toolbar.getByRole('button', { name: 'More ways to check' }).click()
  await page.getByRole('menuitem', { name: /Check this section/ }).click()
  await expect(page.locator('.notice')).toContainText('§ The tower')
  await expect(claims).toHaveText([
    'The Eiffel Tower is 330 metres tall.',
    'It was completed in 1889 for the World Fair in Paris.',
  ])
  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  await expect(page.getByRole('contentinfo')).toContainText('996 credits')

  // History names each part.
  await toolbar.getByRole('button', { name: 'History' }).click()
  const history = page.getByRole('complementary', { name: 'History' })
  await expect(history.locator('.history-entry strong')).toHaveText([
    /· § The tower$/,
    /· “The Great Wall of China is…”$/,
  ])
  expect(problems).toEqual([])
})

test('the text has its own menu: check the selection, the section, or open a claim', async ({
  page,
  server,
}) => {
  const problems = pageProblems(page)
  await writeInEditor(page, server, SECTIONS)
  const estimate = page.getByRole('complementary', { name: 'Estimate' })
  const claims = page.locator('.cm-content .fd-claim')
  const menu = page.getByRole('menu', { name: 'Text' })

  // Right click in the second section, nothing selected: the section, no selection, no claim.
  await page.locator('.cm-line', { hasText: 'The Great Wall' }).click({ button: 'right' })
  await expect(menu.getByRole('menuitem')).toHaveText(['Check this section'])
  await expect(menu.getByRole('menuitem', { name: 'Check this section' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(menu).toHaveCount(0)
  await expect(page.getByRole('textbox', { name: 'Document' })).toBeFocused()

  // From the keyboard, with the first sentence selected.
  await page.locator('.cm-line', { hasText: 'The Eiffel Tower' }).click({ clickCount: 3 })
  await page.keyboard.press('Shift+F10')
  await expect(menu.getByRole('menuitem')).toHaveText(['Check selection', 'Check this section'])
  await page.keyboard.press('Enter')
  await expect(estimate.locator('.estimate-lead')).toContainText('2 claims found')
  await expect(claims).toHaveText([
    'The Eiffel Tower is 330 metres tall.',
    'It was completed in 1889 for the World Fair in Paris.',
  ])
  await page
    .getByRole('toolbar', { name: 'Fact-checking' })
    .getByRole('button', { name: 'Check', exact: true })
    .click()
  await expect(page.getByRole('status', { name: 'Check status' })).toContainText('completed')

  // On a checked claim (the selection still there): its detail; on the other section, by the ContextMenu key:
  // that section.
  await claims.first().click({ button: 'right' })
  await expect(menu.getByRole('menuitem')).toHaveText([
    'Check selection',
    'Check this section',
    'Open detail',
  ])
  await page.screenshot({ path: screenshot('editor-menu.png') })
  await page.keyboard.press('ArrowUp')
  await expect(menu.getByRole('menuitem', { name: 'Open detail' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('complementary', { name: 'Claim' })).toContainText('The Eiffel Tower is 330')
  await page.locator('.cm-line', { hasText: 'The Great Wall' }).click()
  await page.keyboard.press('ContextMenu')
  await menu.getByRole('menuitem', { name: 'Check this section' }).click()
  await expect(page.locator('.notice')).toContainText('§ The wall')
  await expect(claims).toHaveText([
    'The Great Wall of China is more than 21,000 kilometres long.',
    'Around seven million people visit it every yaer.',
  ])

  // Elsewhere the browser's menu stays: the toolbar's right click is not the text's.
  await page.getByRole('toolbar', { name: 'Fact-checking' }).click({ button: 'right' })
  await expect(menu).toHaveCount(0)
  expect(problems).toEqual([])
})

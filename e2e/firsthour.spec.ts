import { startFakeOpenAI, type FakeOpenAI } from '../test/helpers/fakeOpenAI'
import { expect, noticeAlert, pageProblems, test, writeInEditor } from './webServer'

// What a new user meets on the editor page: a check the estimate says cannot run, a mistyped word, the toolbar's
// status, the text when a panel opens, and the dates.
let fake: FakeOpenAI
test.beforeAll(async () => {
  fake = await startFakeOpenAI()
})
test.afterAll(() => fake.close())

const ARTICLE = 'The Eiffel Tower is 330 metres tall. It was completed in 1889 for teh World Fair in Paris.'

test('the estimate says t2 cannot run without models, and why, before Check; saving models takes it away', async ({
  page,
  server,
}) => {
  const problems = pageProblems(page)
  await writeInEditor(page, server, ARTICLE)
  const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
  await toolbar.getByRole('button', { name: /t2/ }).click()
  await toolbar.getByRole('button', { name: 'Estimate' }).click()
  const estimate = page.getByRole('complementary', { name: 'Estimate' })
  await expect(estimate).toContainText('t2 needs language models: add a panel and a judge')
  await expect(estimate).toContainText('enough credits, but t2 cannot run. Check will not submit.')
  await expect(estimate).not.toContainText('enough for this check')

  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  await expect(noticeAlert(page)).toContainText('t2 needs language models')
  await expect(noticeAlert(page)).toContainText('Nothing was submitted.')
  await expect(page.locator('.cm-content .fd-badge')).toHaveCount(0)

  // The way to Settings, from the notice; a panel model and a judge saved there end the cause and the notice.
  await noticeAlert(page).getByRole('button', { name: 'Open Settings' }).click()
  const dialog = page.getByRole('dialog', { name: 'Settings' })
  await expect(dialog.getByRole('tab', { name: 'Models' })).toHaveAttribute('aria-selected', 'true')
  await dialog.getByRole('button', { name: 'Add a panel model' }).click()
  const form = dialog.getByRole('form', { name: 'New panel model' })
  await form.getByLabel('Name').fill('panel-a')
  await form.getByLabel('Provider').selectOption('openai-compatible')
  await form.getByLabel('Base URL').fill(fake.baseURL)
  await form.getByLabel('Model').fill('model-a')
  // The judge's form, opened while the panel model is still being saved, stays open once that save lands.
  let landPanel = (): void => {}
  const panelSaving = new Promise<void>((resolve) => (landPanel = resolve))
  await page.route('**/api/v1/settings', async (route) => {
    if (route.request().method() === 'PATCH') await panelSaving
    await route.fallback()
  })
  await form.getByRole('button', { name: 'Save' }).click()
  await dialog.getByRole('button', { name: 'Set the judge' }).click()
  const judge = dialog.getByRole('form', { name: 'Judge' })
  await expect(judge).toBeVisible()
  landPanel()
  await expect(dialog.getByRole('list', { name: 'Panel models' })).toContainText('panel-a')
  await expect(judge).toBeVisible()
  await judge.getByLabel('Base URL').fill(fake.baseURL)
  await judge.getByLabel('Model').fill('model-judge')
  await judge.getByRole('button', { name: 'Save' }).click()
  await expect(noticeAlert(page)).toBeEmpty()
  await page.keyboard.press('Escape')
  await expect(estimate).not.toContainText('cannot run')
  await expect(estimate).toContainText('enough for this check')
  expect(problems).toEqual([])
})

test('a mistyped word is spelling; the text stays put when a panel opens; the status is whole; one date style', async ({
  page,
  server,
}) => {
  await writeInEditor(page, server, ARTICLE)
  await expect(page.locator('.cm-lintRange.fd-lint-spelling', { hasText: 'teh' })).toHaveCount(1)
  await expect(page.locator('.cm-lintRange.fd-lint-grammar', { hasText: 'teh' })).toHaveCount(0)

  const firstLine = page.locator('.cm-content .cm-line').first()
  const before = await firstLine.boundingBox()
  const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
  await toolbar.getByRole('button', { name: 'Estimate' }).click()
  await expect(page.getByRole('complementary', { name: 'Estimate' })).toBeVisible()
  expect((await firstLine.boundingBox())?.x).toBe(before?.x)

  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  const words = page.locator('.progress-words')
  await expect(words).toHaveText('completed')
  // Not cut to an ellipsis: the words take the room they need.
  expect(await words.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true)

  await toolbar.getByRole('button', { name: 'History' }).click()
  const history = page.getByRole('complementary', { name: 'Check history' })
  const when = await history.locator('.history-entry .muted').first().textContent()
  // The day and the minute as the writer's locale writes them (en-US here: "Nov 28, 2026, 4:30 AM"), no seconds.
  expect(when).toMatch(/[A-Z][a-z]{2} \d{1,2}, 20\d\d, \d{1,2}:\d\d [AP]M/)
  expect(when).not.toMatch(/\d:\d\d:\d\d/)
})

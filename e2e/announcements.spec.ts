import type { Locator } from '@playwright/test'
import { expect, noticeAlert, openEditor, openFreshEditor, pageProblems, test } from './webServer'

/// Whether `region` is still the element `before` was: its text changed in place, not a new element.
const sameElement = async (region: Locator, before: unknown): Promise<boolean> =>
  region.evaluate((element, was) => element === was, before)

// A screen reader often misses a live region that appears together with its text: the regions are in the page,
// empty, before anything is said, and what is said changes only their content.
test('the notice and the estimate are said in live regions that were there before', async ({
  page,
  server,
}) => {
  const problems = pageProblems(page)
  await openFreshEditor(page, server)
  const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
  const notice = page.locator('.notice-region[role="status"]')
  const alert = noticeAlert(page)
  const estimate = page.getByRole('status', { name: 'Estimate status' })
  await expect(notice).toBeEmpty()
  await expect(alert).toBeEmpty()
  await expect(estimate).toBeEmpty()
  const [noticeBefore, alertBefore, estimateBefore] = await Promise.all(
    [notice, alert, estimate].map((region) => region.elementHandle()),
  )

  // Nothing to estimate: the notice says so in its region.
  await toolbar.getByRole('button', { name: 'Estimate' }).click()
  await expect(notice).toContainText('Write something first')
  expect(await sameElement(notice, noticeBefore)).toBe(true)
  await notice.getByRole('button', { name: 'Dismiss' }).click()
  await expect(notice).toBeEmpty()
  expect(await sameElement(notice, noticeBefore)).toBe(true)

  await page.getByRole('textbox', { name: 'Document' }).click()
  await page.keyboard.insertText('The Eiffel Tower is 330 metres tall. It was completed in 1889.')
  await toolbar.getByRole('button', { name: 'Estimate' }).click()
  await expect(estimate).toHaveText(
    '2 claims found: 2 credits. Balance 1,000 credits: enough for this check.',
  )
  expect(await sameElement(estimate, estimateBefore)).toBe(true)
  await expect(alert).toBeEmpty()
  expect(await sameElement(alert, alertBefore)).toBe(true)
  expect(problems).toEqual([])
})

test('a draft that cannot be saved is said in the alert that was there before', async ({ page, server }) => {
  const problems = pageProblems(page)
  await openEditor(page, server)
  const saved = page.getByRole('status', { name: 'Draft' })
  await expect(saved).toHaveText('Draft saved')
  const alert = page.locator('.documents-alert[role="alert"]')
  await expect(alert).toBeEmpty()
  const alertBefore = await alert.elementHandle()

  // The store cannot be reached: the next save fails.
  await page.route(/\/drafts\//, (route) =>
    route.request().method() === 'PATCH' ? route.abort() : route.continue(),
  )
  await page.getByRole('textbox', { name: 'Document' }).click()
  await page.keyboard.insertText('The bridge opened in 1871.')
  await expect(alert).toContainText('Not saved')
  expect(await sameElement(alert, alertBefore)).toBe(true)

  // Saved again: the alert is emptied in place.
  await page.unroute(/\/drafts\//)
  await page.keyboard.insertText(' It is 300 metres long.')
  await expect(saved).toHaveText('Draft saved')
  await expect(alert).toBeEmpty()
  expect(await sameElement(alert, alertBefore)).toBe(true)
  expect(problems).toEqual([])
})

import type { Page } from '@playwright/test'
import { expect, noticeAlert, pageProblems, test, writeInEditor } from './webServer'

const ARTICLE = [
  '# The tower',
  '',
  'The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World Fair in Paris.',
].join('\n')

/// Estimates with t1 and t2, then presses Check: the models cannot be reached.
async function checkOffline(page: Page): Promise<void> {
  const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  const notice = noticeAlert(page)
  await expect(notice).toContainText('cannot be reached')
  await expect(notice).toContainText('Nothing was charged')
}

test.describe('offline, then check later', () => {
  test.use({ models: { latencyMs: 50, offline: true } })

  test('offers to check when online, waits, and runs the check once the models answer', async ({
    page,
    server,
  }) => {
    const problems = pageProblems(page)
    await writeInEditor(page, server, ARTICLE)
    const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
    await toolbar.getByRole('button', { name: /t2/ }).click()
    await toolbar.getByRole('button', { name: 'Estimate' }).click()
    await expect(page.getByRole('complementary', { name: 'Estimate' })).toContainText(/\d+ claims? found/)

    // Offline: the notice says so and offers to queue; Cancel queues nothing.
    await checkOffline(page)
    await noticeAlert(page).getByRole('button', { name: 'Cancel' }).click()
    await expect(noticeAlert(page)).toBeEmpty()
    await expect(toolbar.getByRole('button', { name: /Waiting to check/ })).toHaveCount(0)

    // Queued, then cancelled from the list of waiting checks.
    await checkOffline(page)
    await page.getByRole('button', { name: 'Check when online' }).click()
    const waiting = toolbar.getByRole('button', { name: 'Waiting to check (1)' })
    await expect(waiting).toBeVisible()
    await waiting.click()
    const list = page.getByRole('list', { name: 'Waiting to check' })
    await expect(list).toContainText('The tower')
    await list.getByRole('button', { name: /^Cancel the check of/ }).click()
    await expect(page.locator('.notice')).toContainText('will not run')
    await expect(toolbar.getByRole('button', { name: /Waiting to check/ })).toHaveCount(0)

    // Queued again; connectivity returns and the check starts by itself.
    await checkOffline(page)
    await page.getByRole('button', { name: 'Check when online' }).click()
    await expect(toolbar.getByRole('button', { name: 'Waiting to check (1)' })).toBeVisible()
    await expect(page.locator('.balance')).toHaveText('1,000 credits')
    await server.online()
    await expect(page.locator('.notice')).toContainText('Your check of “The tower” started', {
      timeout: 30_000,
    })
    await expect(page.locator('.notice')).toContainText('started')
    const badges = page.locator('.cm-content .fd-badge')
    await expect(badges.filter({ hasText: 'supported' }).first()).toBeVisible({ timeout: 20_000 })
    await expect(page.getByRole('status', { name: 'Check status' })).toContainText('completed', {
      timeout: 30_000,
    })
    await expect(toolbar.getByRole('button', { name: /Waiting to check/ })).toHaveCount(0)
    await expect(page.locator('.balance')).not.toHaveText('1,000 credits')
    expect(problems).toEqual([])
  })
})

import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { manuscriptParts } from '../src/shared/manuscript'
import { Report, type PendingCheckList } from '../src/shared/schemas'
import { fileURLToPath } from 'node:url'
import { expect, fetchAsPage, noticeAlert, pageProblems, test, writeInEditor } from './webServer'

const DATA = fileURLToPath(
  new URL('../../shared/data/checkworthiness/claimbuster-train.jsonl', import.meta.url),
)
const WORDS = 100_000

/// A manuscript of about `words` words from the evaluation data's debate sentences: paragraphs of five, a
/// chapter heading every forty paragraphs. Its sentences, for the claims to be found in.
function manuscript(words: number): { text: string; sentences: string[] } {
  const sentences = readFileSync(DATA, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { text: string }).text.trim())
    .filter((sentence) => /^[A-Z].*[a-z0-9][.!?]$/.test(sentence) && !sentence.includes('  '))
  const paragraphs: string[] = []
  let count = 0
  for (let at = 0; count < words; at += 5) {
    if (paragraphs.length % 40 === 0) paragraphs.push(`## Chapter ${paragraphs.length / 40 + 1}`)
    const paragraph = Array.from({ length: 5 }, (_, k) => sentences[(at + k) % sentences.length]).join(' ')
    paragraphs.push(paragraph)
    count += paragraph.split(/\s+/).length
  }
  return { text: paragraphs.join('\n\n'), sentences }
}

/// Scrolls to each share of the text in `shares` and expects the claims shown there checked, each on the words
/// of one of `sentences`.
async function expectClaimsOnSentences(page: Page, sentences: string[], shares: number[]): Promise<void> {
  const scroller = page.locator('.cm-scroller')
  for (const share of shares) {
    await scroller.evaluate((element, at) => {
      element.scrollTop = at * element.scrollHeight
    }, share)
    const claims = page.locator('.cm-content .fd-claim')
    await expect(claims.first()).toBeVisible()
    await expect(page.locator('.cm-content .fd-claim.fd-stage-estimated')).toHaveCount(0)
    for (const claim of await claims.allTextContents())
      expect(
        sentences.some((sentence) => sentence.includes(claim)),
        claim,
      ).toBe(true)
  }
}

test('a 100,000-word manuscript is estimated and checked in parts, as one, on the right words', async ({
  page,
  server,
}) => {
  test.setTimeout(600_000)
  const problems = pageProblems(page)
  const { text, sentences } = manuscript(WORDS)
  expect(text.length).toBeGreaterThan(400_000)
  await writeInEditor(page, server, text)
  await fetchAsPage(page, '/api/v1/credits/grants', { method: 'POST', body: { amount: 1_000_000 } })
  const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
  const estimate = page.getByRole('complementary', { name: 'Estimate' })

  // One estimate for the whole manuscript.
  await toolbar.getByRole('button', { name: 'Estimate' }).click()
  await expect(estimate.locator('.estimate-lead')).toContainText(/claims found/, { timeout: 120_000 })
  const lead = (await estimate.locator('.estimate-lead').textContent()) ?? ''
  const claimCount = Number(/([\d,]+) claims found/.exec(lead)?.[1]?.replaceAll(',', ''))
  expect(claimCount).toBeGreaterThan(1000)
  await expect(estimate.locator('.estimate-total')).toHaveText(`${claimCount.toLocaleString('en')} credits`)

  // Checked with t1; the writer types on at the end while the verdicts land.
  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  const document = page.getByRole('textbox', { name: 'Document' })
  await document.press('Control+End')
  await page.keyboard.type(' The end.')
  await expect(page.locator('.cm-line').last()).toContainText('The end.')
  await expect(page.getByRole('status', { name: 'Check status' })).toContainText('completed', {
    timeout: 400_000,
  })
  await expect(page.getByRole('contentinfo')).toContainText(
    `${(1_001_000 - claimCount).toLocaleString('en')} credits`,
  )

  // Samples through the whole text: every claim shown is checked, and lies on the words of one sentence.
  await expectClaimsOnSentences(page, sentences, [0, 0.2, 0.45, 0.7, 0.99])

  // History shows the manuscript once.
  await toolbar.getByRole('button', { name: 'History' }).click()
  const history = page.getByRole('complementary', { name: 'History' })
  await expect(history.locator('.history-entry')).toHaveCount(1)
  expect(problems).toEqual([])
})

test.describe('a manuscript checked later, on a service that takes less than the default', () => {
  test.use({ models: { latencyMs: 0, offline: true, config: { limits: { maxTextChars: 20_000 } } } })

  test('waits to be checked once, in its parts, and is cancelled at once', async ({ page, server }) => {
    const problems = pageProblems(page)
    const { text } = manuscript(6_000)
    const parts = manuscriptParts(text, 20_000).length
    expect(parts).toBeGreaterThan(1)
    await writeInEditor(page, server, text)
    await fetchAsPage(page, '/api/v1/credits/grants', { method: 'POST', body: { amount: 100_000 } })
    const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
    await toolbar.getByRole('button', { name: /t2/ }).click()
    await toolbar.getByRole('button', { name: 'Estimate' }).click()
    await expect(
      page.getByRole('complementary', { name: 'Estimate' }).locator('.estimate-lead'),
    ).toContainText(/claims found/, { timeout: 60_000 })
    await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
    await expect(noticeAlert(page)).toContainText('cannot be reached')
    await page.getByRole('button', { name: 'Check when online' }).click()

    const waiting = toolbar.getByRole('button', { name: 'Waiting to check (1)' })
    await expect(waiting).toBeVisible()
    await waiting.click()
    const list = page.getByRole('list', { name: 'Waiting to check' })
    await expect(list.getByRole('listitem')).toHaveCount(1)
    await expect(list).toContainText(`in ${parts} parts`)
    await list.getByRole('button', { name: /^Cancel the check of/ }).click()
    await expect(page.locator('.notice')).toContainText('will not run')
    await expect(toolbar.getByRole('button', { name: /Waiting to check/ })).toHaveCount(0)
    const queued = await fetchAsPage<PendingCheckList>(page, '/api/v1/pending-checks')
    expect(queued.data).toEqual([
      expect.objectContaining({ status: 'cancelled', manuscript: expect.objectContaining({ parts }) }),
    ])
    expect(problems).toEqual([])
  })
})

test.describe('a manuscript on a service that takes less than the default', () => {
  test.skip(({ desktop }) => desktop, 'exports are downloads in the browser only (see export.spec.ts)')
  // Parts of at most 20,000 characters, as the service says (GET /me), not the 200,000 it takes by default.
  test.use({ models: { latencyMs: 0, config: { limits: { maxTextChars: 20_000 } } } })

  test('is one check in History after a reload, with its verdicts on the right words, and exports as one', async ({
    page,
    server,
  }) => {
    const problems = pageProblems(page)
    const { text, sentences } = manuscript(8_000)
    expect(text.length).toBeGreaterThan(40_000)
    await writeInEditor(page, server, text)
    const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
    await toolbar.getByRole('button', { name: 'Estimate' }).click()
    const estimate = page.getByRole('complementary', { name: 'Estimate' })
    await expect(estimate.locator('.estimate-lead')).toContainText(/claims found/, { timeout: 60_000 })
    const lead = (await estimate.locator('.estimate-lead').textContent()) ?? ''
    const claimCount = Number(/([\d,]+) claims found/.exec(lead)?.[1]?.replaceAll(',', ''))
    await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
    const status = page.getByRole('status', { name: 'Check status' })
    await expect(status).toContainText('completed', { timeout: 120_000 })

    // Reopened, the draft shows the manuscript's check: every part's verdicts on the words of its sentences.
    await page.reload()
    await expect(status).toContainText('completed')
    await expectClaimsOnSentences(page, sentences, [0, 0.5, 0.99])

    // History lists it once, with all its claims and parts.
    await toolbar.getByRole('button', { name: 'History' }).click()
    const history = page.getByRole('complementary', { name: 'Check history' })
    await expect(history.locator('.history-entry')).toHaveCount(1)
    const parts = manuscriptParts(text, 20_000).length
    expect(parts).toBeGreaterThan(2)
    await expect(history.locator('.history-entry')).toContainText(
      `${claimCount.toLocaleString('en')} claims · in ${parts} parts`,
    )
    await expect(history.locator('.history-entry')).toContainText('completed')

    // Its export is one report of the whole text.
    await toolbar.getByRole('button', { name: 'Export' }).click()
    const menu = page.getByRole('menu', { name: 'Export the report as' })
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      menu.getByRole('menuitem', { name: /^JSON/ }).click(),
    ])
    const report = Report.parse(JSON.parse(readFileSync(await json.path(), 'utf8')))
    expect(report.text).toBe(text)
    expect(report.claims).toHaveLength(claimCount)
    for (const claim of report.claims) expect(text.slice(claim.charStart, claim.charEnd)).toBe(claim.text)
    expect(problems).toEqual([])
  })
})

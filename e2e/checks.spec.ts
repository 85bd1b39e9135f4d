import type { Page } from '@playwright/test'
import { PAGE_KEY_HEADER, PAGE_KEY_ITEM } from '../src/shared/browserSession'
import { VOCABULARY } from '../src/shared/vocabulary'
import { Relay } from '../test/main/engine/checks/pending/relay'
import {
  asWebServer,
  estimateAndCheck,
  expect,
  noticeAlert,
  outputFile as screenshot,
  pageProblems,
  test,
  writeInEditor,
} from './webServer'

const ARTICLE = [
  '# The tower',
  '',
  'The Eiffel Tower is 330 metres talll. It was completed in 1889 for the World Fair in Paris.',
  '',
  'Gustave Eiffel’s company designed and built the tower. Around seven million people visit it every yaer.',
].join('\n')

/// Turns on t2 (with t1), estimates, checks, and waits for the check to complete.
async function checkWithPanel(page: Page): Promise<void> {
  await page.getByRole('toolbar', { name: 'Fact-checking' }).getByRole('button', { name: /t2/ }).click()
  await estimateAndCheck(page)
}

/// Text of the claim marks in the editor, in order.
const claimTexts = (page: Page): Promise<string[]> =>
  page.locator('.cm-content .fd-claim').evaluateAll((marks) => marks.map((mark) => mark.textContent ?? ''))

/// A `#rrggbb` colour as the browser computes it, `rgb(r, g, b)`.
const rgb = (hex: string): string =>
  `rgb(${[1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)).join(', ')})`

test('estimates, checks with t1, keeps ranges while typing and opens a claim', async ({ page, server }) => {
  const problems = pageProblems(page)
  await writeInEditor(page, server, ARTICLE)

  const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
  await expect(toolbar.getByRole('button', { name: /t1/ })).toHaveAttribute('aria-pressed', 'true')
  // The last tier stays on, and says why.
  await toolbar.getByRole('button', { name: /t1/ }).click()
  await expect(toolbar.getByRole('button', { name: /t1/ })).toHaveAttribute('aria-pressed', 'true')
  await expect(page.locator('.notice')).toContainText('at least one tier')
  await toolbar.getByRole('button', { name: 'Estimate' }).click()
  const estimate = page.getByRole('complementary', { name: 'Estimate' })
  await expect(estimate).toContainText(/\d+ claims? found/)
  await expect(estimate).toContainText('enough for this check')
  const highlighted = await claimTexts(page)
  expect(highlighted.length).toBeGreaterThan(0)
  expect(highlighted).toContain('The Eiffel Tower is 330 metres talll.')
  const count = highlighted.length
  await expect(estimate.locator('.estimate-total')).toHaveText(`${count} credit${count === 1 ? '' : 's'}`)
  await page.screenshot({ path: screenshot('estimate.png') })

  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  const badges = page.locator('.cm-content .fd-badge')
  await expect(page.locator('.cm-content .fd-claim:not(.fd-stage-estimated)')).toHaveCount(count)
  // Typing at the top while the check runs and after: every range stays on its sentence.
  await page.keyboard.press('Control+Home')
  await page.keyboard.type('Draft. ')
  await expect(page.getByRole('status', { name: 'Check status' })).toContainText('completed')
  // A t1-only check badges only the claims with findings: the clean one keeps its range, without a badge.
  const clean = page.locator('.cm-content .fd-claim.fd-stage-clean')
  await expect(clean).toHaveCount(1)
  await expect(badges).toHaveCount(count - 1)
  await expect(badges.filter({ hasText: 'no issues' })).toHaveCount(0)
  // A badge and its claim's underline take their verdict's colour from the vocabulary (the light page here).
  await expect(page.locator('.cm-content .fd-badge.fd-stage-issues').first()).toHaveCSS(
    'color',
    rgb(VOCABULARY.issues.colour.light),
  )
  await expect(page.locator('.cm-content .fd-claim.fd-stage-issues').first()).toHaveCSS(
    'text-decoration-color',
    rgb(VOCABULARY.issues.colour.light),
  )
  expect(await claimTexts(page)).toEqual(highlighted)
  // The toolbar pictures the ended check's verdicts as a bar, its parts in the vocabulary's colours.
  const bar = toolbar.getByRole('img', { name: /^Verdicts: / })
  await expect(bar).toHaveAttribute(
    'aria-label',
    `Verdicts: Spelling or grammar issues ${count - 1}, No issues 1`,
  )
  await expect(bar.locator('rect.fd-stage-issues')).toHaveCSS('fill', rgb(VOCABULARY.issues.colour.light))
  await expect(page.getByRole('contentinfo')).toContainText(`${1000 - count} credits`)
  // The t1 finding inside the last claim is marked where the typo is.
  await expect(page.locator('.cm-content .fd-issue', { hasText: 'yaer' })).toHaveCount(1)
  await page.screenshot({ path: screenshot('checked.png') })

  // Clicking a claim's text (without selecting) opens its detail, as its badge does: the clean one's too.
  const claimPanel = page.getByRole('complementary', { name: 'Claim' })
  await clean.click()
  await expect(claimPanel).toContainText((await clean.textContent()) ?? '')
  await expect(claimPanel.getByRole('region', { name: 'Tier t1' })).toContainText('no issues')
  await expect(claimPanel.locator('.verdict-clean')).toHaveCSS('color', rgb(VOCABULARY.clean.colour.light))
  await page.keyboard.press('Escape')

  // Editing a checked claim marks it stale.
  const tower = page.locator('.cm-content .fd-claim', { hasText: 'The Eiffel Tower' })
  await tower.click({ position: { x: 40, y: 8 } })
  await page.keyboard.type('X')
  await expect(page.locator('.cm-content .fd-badge.fd-stale')).toHaveCount(1)
  await page.keyboard.press('Control+z')
  await expect(page.locator('.cm-content .fd-badge.fd-stale')).toHaveCount(0)

  // Ctrl+Shift+K opens the claim at the cursor, and never deletes the line (CodeMirror's own binding).
  const editor = page.getByRole('textbox', { name: 'Document' })
  const panel = page.getByRole('complementary', { name: 'Claim' })
  const written = await editor.textContent()
  await page.keyboard.press('Control+Shift+K')
  await expect(panel).toContainText('The Eiffel Tower is 330 metres talll.')
  expect(await editor.textContent()).toBe(written)
  // Escape in the text closes the panel; opened again, Escape inside it closes it and gives the text the keys.
  await page.keyboard.press('Escape')
  await expect(panel).toHaveCount(0)
  await page.keyboard.press('Control+Shift+K')
  await panel.getByRole('button', { name: 'Deep research…' }).focus()
  await page.keyboard.press('Escape')
  await expect(panel).toHaveCount(0)
  await expect(editor).toBeFocused()

  // A badge is no tab stop of its own, and is named by its claim's first words. Activated without a mouse
  // (a screen reader's click, or Enter once focused) it opens its claim and never edits the text.
  const towerBadge = editor.getByRole('button', { name: /^Claim “The Eiffel Tower is 330 metres talll\.”: / })
  await expect(towerBadge).toHaveAttribute('tabindex', '-1')
  await towerBadge.dispatchEvent('click')
  await expect(panel).toContainText('The Eiffel Tower is 330 metres talll.')
  await page.keyboard.press('Escape')
  await towerBadge.focus()
  await page.keyboard.press('Enter')
  await expect(panel).toContainText('The Eiffel Tower is 330 metres talll.')
  expect(await editor.textContent()).toBe(written)
  // Closed by its button, the panel gives the keys back to the text.
  await panel.getByRole('button', { name: 'Close panel' }).click()
  await expect(editor).toBeFocused()

  await badges.last().click()
  await expect(panel.getByRole('region', { name: 'Tier t1' })).toContainText('issues')
  await expect(panel).toContainText('yaer')
  await page.screenshot({ path: screenshot('claim-panel.png') })
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.screenshot({ path: screenshot('checked-dark.png') })

  // The suggested correction shows what it changes, and Apply changes only that, in one undoable edit: the
  // claim stays, marked as edited since its check.
  const correction = panel.locator('.correction')
  await expect(correction.locator('del')).toHaveText('yaer')
  await expect(correction.locator('ins')).toHaveText('year')
  await panel.getByRole('button', { name: 'Apply' }).click()
  await expect(editor).toContainText('visit it every year.')
  await expect(page.locator('.cm-content .fd-badge')).toHaveCount(count - 1)
  await expect(page.locator('.cm-content .fd-claim.fd-stale')).toContainText('visit it every year.')
  await expect(correction.getByRole('status')).toHaveText('Applied. Undo')
  await page.keyboard.press('Control+z')
  await expect(editor).toContainText('visit it every yaer.')
  await expect(correction.getByRole('button', { name: 'Apply' })).toBeVisible()
  await correction.getByRole('button', { name: 'Apply' }).click()
  await correction.getByRole('button', { name: 'Undo' }).click()
  await expect(editor).toContainText('visit it every yaer.')
  await expect(page.locator('.cm-content .fd-badge.fd-stale')).toHaveCount(0)
  expect(problems).toEqual([])
})

test('says why nothing is submitted when the balance is short', async ({ page, server }) => {
  const long = Array.from(
    { length: 120 },
    (_, i) => `The bridge number ${i} was opened in ${1900 + i}.`,
  ).join(' ')
  await writeInEditor(page, server, long)
  const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
  await toolbar.getByRole('button', { name: /t3/ }).click()
  await toolbar.getByRole('button', { name: 'Estimate' }).click()
  const estimate = page.getByRole('complementary', { name: 'Estimate' })
  await expect(estimate).toContainText('not enough')
  // A long list of claims shows its first hundred until asked for all.
  await expect(estimate.locator('.claim-list li')).toHaveCount(100)
  await estimate.getByRole('button', { name: 'Show all 120 claims' }).click()
  await expect(estimate.locator('.claim-list li')).toHaveCount(120)
  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  await expect(noticeAlert(page)).toContainText('Not enough credits')
  await expect(noticeAlert(page)).toContainText('Nothing was submitted')
  await expect(page.locator('.cm-content .fd-badge')).toHaveCount(0)
  await expect(page.getByRole('contentinfo')).toContainText('1,000 credits')
})

test.describe('with a model panel', () => {
  test.use({ models: { latencyMs: 700 } })

  test('watches t2 votes land, cancels a check for a refund and edits its details', async ({
    page,
    server,
  }) => {
    await writeInEditor(page, server, ARTICLE)
    const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
    await toolbar.getByRole('button', { name: /t2/ }).click() // t2 with t1
    await expect(toolbar.getByRole('button', { name: /t2/ })).toHaveAttribute('aria-pressed', 'true')
    await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
    await expect(page.locator('.notice')).toContainText('Press Check again')
    await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
    const badges = page.locator('.cm-content .fd-badge')
    await expect(badges.filter({ hasText: /voting/ }).first()).toBeVisible()
    await page.screenshot({ path: screenshot('voting.png') })
    await expect(badges.filter({ hasText: 'supported' }).first()).toBeVisible({ timeout: 20_000 })
    await expect(page.getByRole('status', { name: 'Check status' })).toContainText('completed', {
      timeout: 30_000,
    })
    // t1 and t2 on four claims: 4 × (1 + 4) credits.
    await expect(page.locator('.balance')).toHaveText('980 credits')
    await badges.first().click()
    const panel = page.getByRole('complementary', { name: 'Claim' })
    await expect(panel.getByRole('table', { name: 'Votes' })).toContainText('panel-a')
    await page.screenshot({ path: screenshot('claim-votes.png') })

    // A second check, cancelled while it runs: the refund shows and the balance comes back.
    await page.getByRole('textbox', { name: 'Document' }).press('Control+End')
    await page.keyboard.insertText(' The river Seine is 777 kilometres long.')
    await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
    await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
    await expect(toolbar.getByRole('button', { name: 'Cancel' })).toBeEnabled()
    // While it runs, Estimate is off and the Check shortcut says why, keeping the running check in view.
    await expect(toolbar.getByRole('button', { name: 'Estimate' })).toBeDisabled()
    await page.getByRole('textbox', { name: 'Document' }).press('Control+Shift+Enter')
    await expect(page.locator('.notice')).toContainText('A check is running')
    await expect(toolbar.getByRole('button', { name: 'Cancel' })).toBeEnabled()
    await toolbar.getByRole('button', { name: 'Cancel' }).click()
    await expect(page.locator('.notice')).toContainText(/Check cancelled: [1-9]\d* credits refunded/)
    await expect(page.locator('.balance')).toHaveText('980 credits')
    await expect(badges.filter({ hasText: 'not checked' }).first()).toBeVisible()

    await toolbar.getByRole('button', { name: 'History' }).click()
    const history = page.getByRole('complementary', { name: 'Check history' })
    await expect(history.locator('.history-entry')).toHaveCount(2)
    await expect(history.locator('.history-entry').first()).toContainText('cancelled')
    await expect(history.locator('.history-entry').first()).toContainText(/refunded [1-9]/)
    // The details form takes the focus, Escape closes it (not the panel), and the focus goes back to Edit details.
    const editDetails = history.getByRole('button', { name: 'Edit details' }).first()
    await editDetails.click()
    await expect(history.getByLabel('Name')).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(editDetails).toBeFocused()
    await editDetails.click()
    await history.getByLabel('Name').fill('Tower piece')
    await history.getByLabel('Author').fill('A. Writer')
    await history.getByRole('button', { name: 'Save' }).click()
    await expect(editDetails).toBeFocused()
    await expect(history.locator('.history-entry').first()).toContainText('Tower piece')
    await expect(history.locator('.history-entry').first()).toContainText('By A. Writer')
    await page.screenshot({ path: screenshot('history.png') })

    // Reopened, the draft shows its last check with that check's tiers on, not the default t1 alone.
    await page.reload()
    await expect(page.getByRole('status', { name: 'Check status' })).toContainText('cancelled')
    await expect(toolbar.getByRole('button', { name: /t2/ })).toHaveAttribute('aria-pressed', 'true')
    await expect(toolbar.getByRole('button', { name: /t1/ })).toHaveAttribute('aria-pressed', 'true')
  })
})

test.describe('with a judge that writes its correction in plain words', () => {
  test.use({
    models: {
      latencyMs: 0,
      behaviours: {
        // A panel split three ways: it debates, no majority comes of it, and the judge decides and writes the
        // correction.
        'model-b': { overrides: { verdict: 'misleading' } },
        'model-c': { overrides: { verdict: 'refuted' } },
        'model-judge': {
          overrides: { verdict: 'refuted', correction: 'The Eiffel Tower is 300 feet tall.' },
        },
      },
    },
  })

  test("Apply changes the words and keeps the writer's Markdown", async ({ page, server }) => {
    const problems = pageProblems(page)
    await writeInEditor(page, server, 'The **Eiffel Tower** is 330 feet tall.')
    await checkWithPanel(page)
    await page.locator('.cm-content .fd-badge').first().click()
    const correction = page
      .getByRole('complementary', { name: 'Claim' })
      .getByRole('region', { name: 'Tier t2' })
      .locator('.correction')
    // Only the number is struck out: the bold stays.
    await expect(correction.locator('del')).toHaveText(['330'])
    await expect(correction.locator('ins')).toHaveText(['300'])
    await correction.getByRole('button', { name: 'Apply' }).click()
    await expect(page.getByRole('textbox', { name: 'Document' })).toContainText(
      'The **Eiffel Tower** is 300 feet tall.',
    )
    await expect(correction.getByRole('status')).toHaveText('Applied. Undo')
    expect(problems).toEqual([])
  })
})

test.describe('with a resolver that finds a claim’s subject and its facts', () => {
  const statement = 'The Eiffel Tower was finished in 1889 and is 330 metres tall.'
  test.use({
    models: {
      latencyMs: 0,
      behaviours: {
        'model-judge': {
          overrides: { verdict: 'supported', confidence: 0.9 },
          resolve: ({ claim }) =>
            claim.startsWith('It ')
              ? {
                  statement,
                  parts: ['The Eiffel Tower was finished in 1889.', 'The Eiffel Tower is 330 metres tall.'],
                }
              : { statement: claim },
        },
      },
    },
  })

  test('the claim panel says what a claim was checked as, and the verdict on each of its facts', async ({
    page,
    server,
  }) => {
    await writeInEditor(
      page,
      server,
      'The Eiffel Tower stands in Paris. It was finished in 1889 and is 330 metres tall.',
    )
    await checkWithPanel(page)
    const panel = page.getByRole('complementary', { name: 'Claim' })
    await page.locator('.cm-content .fd-badge').first().click()
    // A claim checked as written says nothing more.
    await expect(panel.locator('.claim-text')).toHaveText('The Eiffel Tower stands in Paris.')
    await expect(panel.locator('.checked-as')).toHaveCount(0)
    await page.locator('.cm-content .fd-badge').nth(1).click()
    await expect(panel.locator('.checked-as')).toHaveText(`Checked as: ${statement}`)
    const parts = panel.getByRole('region', { name: 'Tier t2' }).getByRole('list', { name: 'Parts' })
    // Spelling is checked on the writer's words, not part by part.
    await expect(
      panel.getByRole('region', { name: 'Tier t1' }).getByRole('list', { name: 'Parts' }),
    ).toHaveCount(0)
    await expect(parts.getByRole('listitem')).toHaveText([
      'supported The Eiffel Tower was finished in 1889.',
      'supported The Eiffel Tower is 330 metres tall.',
    ])
    await page.screenshot({ path: screenshot('claim-checked-as.png') })
  })
})

test.describe('with a model panel, in a browser whose connection breaks', () => {
  test.skip(({ desktop }) => desktop, 'the desktop app hears its engine through IPC, not over the network')
  // The page reaches the server on the relay's port, which the server answers as one of its names.
  test.use({ models: { latencyMs: 700, config: { server: { allowedHosts: ['127.0.0.1'] } } } })

  test('a check that goes on while the connection is down lands whole once it is back', async ({
    page,
    server,
  }) => {
    const web = asWebServer(server)
    // The page reaches the server through a relay that the test can cut, as a network does.
    const relay = await Relay.reserve()
    await relay.open(web.origin)
    try {
      await page.goto(relay.url(`/#token=${web.token}`))
      await expect(page.getByRole('contentinfo')).toContainText('1,000 credits')
      await page.getByRole('textbox', { name: 'Document' }).click()
      await page.keyboard.insertText(ARTICLE)
      const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
      await toolbar.getByRole('button', { name: /t2/ }).click()
      await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
      await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
      const badges = page.locator('.cm-content .fd-badge')
      await expect(badges.filter({ hasText: /voting/ }).first()).toBeVisible()

      // Cut while the votes come in; the check ends on the server meanwhile.
      await relay.close()
      const session = (await page.context().cookies()).find((cookie) => cookie.name === 'factdesk_session')
      const pageKey = await page.evaluate((item) => localStorage.getItem(item), PAGE_KEY_ITEM)
      const latest = async (): Promise<string> => {
        const response = await fetch(`${web.origin}/api/v1/checks?limit=1`, {
          headers: { Cookie: `factdesk_session=${session?.value}`, [PAGE_KEY_HEADER]: pageKey ?? '' },
        })
        return ((await response.json()) as { data: { status: string }[] }).data[0]?.status ?? 'none'
      }
      await expect.poll(latest, { timeout: 30_000 }).toBe('completed')
      await expect(page.getByRole('status', { name: 'Check status' })).not.toContainText('completed')

      // Back: the stream reconnects and is sent what it missed, every vote and the end.
      await relay.open(web.origin)
      await expect(page.getByRole('status', { name: 'Check status' })).toContainText('completed', {
        timeout: 20_000,
      })
      await expect(badges).toHaveCount(4)
      await expect(badges.filter({ hasText: 'supported' })).toHaveCount(4)
      await expect(page.locator('.balance')).toHaveText('980 credits')
    } finally {
      await relay.close()
    }
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { PAGE_KEY_ITEM } from '../src/shared/browserSession'
import {
  estimateAndCheck,
  expect,
  fetchAsPage,
  openEditor,
  outputFile as screenshot,
  startWeb,
  test,
  viaPreload,
  writeInEditor,
  type Factdesk,
} from './webServer'

const ARTICLE = [
  '# The tower',
  '',
  'The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World Fair in Paris.',
  '',
  'Paris is the capital of France.',
].join('\n')

/// The editor's text as the writer sees it: its lines, without badges or the placeholder.
const editorText = (page: Page): Promise<string> =>
  page.locator('.cm-content').evaluate((content) =>
    [...content.querySelectorAll('.cm-line')]
      .map((line) => {
        const copy = line.cloneNode(true) as HTMLElement
        for (const extra of copy.querySelectorAll('.fd-badge, .fd-badge-space, .cm-placeholder'))
          extra.remove()
        return copy.textContent ?? ''
      })
      .join('\n'),
  )

/// The drafts of the test's Factdesk as another client sees them: over the REST API with the page's session, or in
/// the desktop app through its preload, past the editor's own state.
const listDrafts = (page: Page, server: Factdesk) =>
  server.desktop
    ? viaPreload(page, 'listDrafts')
    : fetchAsPage<{ data: { id: string; lastCheckId: string | null; preview: string }[] }>(
        page,
        '/api/v1/drafts',
      )

/// Forgets the page's own copy of the text (everything it keeps in its storage but its session key), so that a
/// reload shows what the store holds.
const forgetPageCopy = (page: Page) =>
  page.evaluate((sessionKey) => {
    for (const key of Object.keys(localStorage)) if (key !== sessionKey) localStorage.removeItem(key)
  }, PAGE_KEY_ITEM)

test.describe('drafts', () => {
  test.describe(() => {
    test.skip(
      ({ desktop }) => desktop,
      'kills and restarts factdesk web under the page; the desktop app has no server',
    )

    test('typing on saves once every 5 seconds, not again at each keystroke after a save', async ({
      page,
      server,
    }) => {
      await writeInEditor(page, server, '')
      const saves: number[] = []
      page.on('request', (request) => {
        if (request.method() === 'PATCH' && /\/drafts\//.test(request.url())) saves.push(Date.now())
      })
      // Each save takes a while, as on a busy machine, so that keys land while it is on its way.
      await page.route(/\/drafts\//, async (route) => {
        if (route.request().method() === 'PATCH') await new Promise((resolve) => setTimeout(resolve, 400))
        await route.continue()
      })
      const started = Date.now()
      // About 7.5 seconds of steady typing: the longest wait (5 s) saves once while it goes on.
      await page.keyboard.type('The bridge was opened in 1871 by the mayor. '.repeat(3), { delay: 55 })
      const typing = saves.filter((at) => at - started < 7000)
      expect(typing).toHaveLength(1)
    })

    test('nothing typed is lost when the server is killed between keystrokes', async ({ page }) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-e2e-drafts-'))
      let server = await startWeb(dataDir)
      try {
        await page.goto(server.link)
        const saved = page.getByRole('status', { name: 'Draft' })
        await expect(saved).toHaveText('Draft saved')
        await page.getByRole('textbox', { name: 'Document' }).click()
        await page.keyboard.type('Saved before the crash.')
        await expect(saved).toHaveText('Draft saved')
        await expect(page).toHaveTitle('Saved before the crash. • — Factdesk')

        // Typed, and the server killed before the autosave's pause is over: the store never got these keys. Without
        // the page's copy, what the autosave may lose is what was typed in the last second before the kill (after
        // the last pause; at most the last 5 seconds of non-stop typing); with it, nothing.
        await page.keyboard.type(' Typed after it.')
        await server.kill()
        await expect(saved).toContainText('Not saved')
        // Only the failure is announced (the saving and the saved are shown, not spoken).
        await expect(saved).toHaveAttribute('aria-live', 'off')
        await expect(page.getByRole('alert').filter({ hasText: 'Not saved' })).toHaveCount(1)

        // The same folder, the same address (the page's copy belongs to its origin).
        server = await startWeb(dataDir, Number(new URL(server.origin).port))
        await page.goto(server.origin)
        await expect(saved).toHaveText('Draft saved')
        expect(await editorText(page)).toBe('Saved before the crash. Typed after it.')

        // The store has it all now: without the page's copy, a reload shows the same text.
        await forgetPageCopy(page)
        await page.reload()
        await expect(saved).toHaveText('Draft saved')
        await expect.poll(() => editorText(page)).toBe('Saved before the crash. Typed after it.')
      } finally {
        await page.context().close()
        await server.close()
        rmSync(dataDir, { recursive: true, force: true })
      }
    })

    test('reopening the draft shown keeps what was typed just before', async ({ page, server }) => {
      await writeInEditor(page, server, 'The bridge opened in 1871.')
      const saved = page.getByRole('status', { name: 'Draft' })
      await expect(saved).toHaveText('Draft saved')
      // The next save is slow, as on a busy machine: the draft is opened again while it is on its way.
      await page.route(/\/drafts\//, async (route) => {
        if (route.request().method() === 'PATCH') await new Promise((resolve) => setTimeout(resolve, 1500))
        await route.continue()
      })
      const saving = page.waitForRequest((request) => request.method() === 'PATCH')
      await page.keyboard.type(' It is 300 metres long.')
      await saving
      await page.getByText('Recent', { exact: true }).click()
      await page
        .getByRole('list', { name: 'Recent drafts' })
        .getByRole('button', { name: /The bridge/ })
        .click()
      await expect(saved).toHaveText('Draft saved')
      await expect.poll(() => editorText(page)).toBe('The bridge opened in 1871. It is 300 metres long.')
      // And the store holds what the editor shows (not only the page's own copy).
      await forgetPageCopy(page)
      await page.reload()
      await expect.poll(() => editorText(page)).toBe('The bridge opened in 1871. It is 300 metres long.')
    })
  })

  test('a text too long for a draft says so in words, and saves again once shortened', async ({
    page,
    server,
  }) => {
    await writeInEditor(page, server, 'Kept.')
    const saved = page.getByRole('status', { name: 'Draft' })
    await expect(saved).toHaveText('Draft saved')
    // One character over the limit, at the end of the text.
    await page.keyboard.insertText(`\n\n${'Line of text. '.repeat(71_428)}xx`)
    await expect(saved).toHaveText(
      'Not saved: The text holds 1,000,001 characters; a draft holds at most 1,000,000.',
    )
    await page.keyboard.press('Backspace')
    await expect(saved).toHaveText('Draft saved', { timeout: 20_000 })
  })

  test("a reopened draft shows its last check's verdicts on the right words after an edit elsewhere", async ({
    page,
    server,
  }) => {
    await writeInEditor(page, server, ARTICLE)
    await estimateAndCheck(page)
    await expect(page.getByRole('status', { name: 'Draft' })).toHaveText('Draft saved')

    // Another client of the same server (in the desktop app: the engine, called past the editor) rewrites the
    // draft: a new opening, one claim deleted, one reworded.
    const edited = ARTICLE.replace('# The tower', '# The tower\n\nA new first paragraph.')
      .replace(' It was completed in 1889 for the World Fair in Paris.', '')
      .replace('330 metres', '330 m')
    await expect
      .poll(async () => (await listDrafts(page, server)).data[0]?.lastCheckId ?? null)
      .not.toBeNull()
    const id = (await listDrafts(page, server)).data[0]?.id ?? ''
    if (server.desktop) await viaPreload(page, 'saveDraft', id, { text: edited })
    else await fetchAsPage(page, `/api/v1/drafts/${id}`, { method: 'PATCH', body: { text: edited } })

    await page.reload()
    await expect.poll(() => editorText(page)).toBe(edited)
    const claims = page.locator('.cm-content .fd-claim')
    await expect(claims).toHaveCount(2)
    await expect(claims.filter({ hasText: 'Paris is the capital of France.' })).toHaveClass(/fd-stage-clean/)
    // Reworded since its check: placed on the new words, and marked stale.
    await expect(claims.filter({ hasText: 'The Eiffel Tower is 330 m tall.' })).toHaveClass(/fd-stale/)
    // Its spelling finding was about "metres", which is no longer there: not put on other words.
    await expect(page.locator('.cm-content .fd-issue')).toHaveCount(0)
    const detached = page.getByRole('navigation', { name: 'Document' }).locator('details.documents-detached')
    await expect(detached).toContainText('1 checked claim no longer in the text')
    await detached.locator('summary').click()
    await expect(detached.getByRole('list', { name: 'Detached claims' })).toContainText(
      'It was completed in 1889 for the World Fair in Paris.',
    )
    await page.screenshot({ path: screenshot('drafts.png') })
  })

  test('a check of the history opens in a new draft with its verdicts, the draft it came from kept as it is', async ({
    page,
    server,
  }) => {
    await writeInEditor(page, server, ARTICLE)
    await estimateAndCheck(page)
    const saved = page.getByRole('status', { name: 'Draft' })
    await expect(saved).toHaveText('Draft saved')
    // The writer rewrites the draft since: its check no longer matches the text.
    const document = page.getByRole('textbox', { name: 'Document' })
    await document.press('ControlOrMeta+a')
    await page.keyboard.insertText('Something else entirely.')
    await expect(saved).toHaveText('Draft saved')
    const checkId = (await listDrafts(page, server)).data[0]?.lastCheckId

    await page
      .getByRole('toolbar', { name: 'Fact-checking' })
      .getByRole('button', { name: 'History' })
      .click()
    await page
      .getByRole('complementary', { name: 'Check history' })
      .getByRole('button', { name: 'Open in a new draft' })
      .click()
    await expect.poll(() => editorText(page)).toBe(ARTICLE)
    const claims = page.locator('.cm-content .fd-claim')
    await expect(claims).toHaveCount(3)
    await expect(claims.filter({ hasText: 'Paris is the capital of France.' })).toHaveClass(/fd-stage-clean/)
    await expect(page.locator('.cm-content .fd-claim.fd-stale')).toHaveCount(0)
    await expect(page.getByRole('status', { name: 'Check status' })).toContainText('completed')
    // Undo does not reach back into the draft shown before.
    await document.press('ControlOrMeta+z')
    expect(await editorText(page)).toBe(ARTICLE)
    // A new draft tied to that check, and the rewritten one still there, unchanged.
    const drafts = (await listDrafts(page, server)).data
    expect(drafts).toHaveLength(2)
    expect(drafts[0]?.lastCheckId).toBe(checkId)
    expect(drafts[1]?.lastCheckId).toBe(checkId)
    expect(drafts.map((draft) => draft.preview)).toEqual(['The tower', 'Something else entirely.'])
  })

  test('opens a Markdown file from the page and lists recent drafts', async ({ page, server }) => {
    await openEditor(page, server)
    await expect(page.getByRole('status', { name: 'Draft' })).toHaveText('Draft saved')
    await page.getByLabel('File to open').setInputFiles({
      name: 'notes.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Notes\r\n\r\nThe Seine flows through Paris.\r\n'),
    })
    await expect(page.getByRole('navigation', { name: 'Document' })).toContainText('notes.md')
    await expect(page).toHaveTitle('notes.md — Factdesk')
    await expect.poll(() => editorText(page)).toBe('# Notes\n\nThe Seine flows through Paris.\n')
    await page.keyboard.press('Control+End')
    await page.keyboard.type(' More.')
    await expect(page).toHaveTitle('notes.md • — Factdesk')

    await page.getByText('Recent', { exact: true }).click()
    const recent = page.getByRole('list', { name: 'Recent drafts' })
    await expect(recent.getByRole('button')).toHaveCount(2)
    // Each draft shows its first words.
    await expect(recent.getByRole('button', { name: /notes\.md/ })).toHaveAccessibleName(
      /^notes\.md, Notes, changed since saved, /,
    )
    // Escape closes the list and leaves the keys on Recent.
    await recent.getByRole('button', { name: /notes\.md/ }).focus()
    await page.keyboard.press('Escape')
    await expect(recent).toBeHidden()
    await expect(page.locator('.documents-recent > summary')).toBeFocused()
    await page.getByText('Recent', { exact: true }).click()
    await recent.getByRole('button', { name: /Untitled/ }).click()
    await expect.poll(() => editorText(page)).toBe('')
    await page.getByText('Recent', { exact: true }).click()
    await recent.getByRole('button', { name: /notes\.md/ }).click()
    await expect.poll(() => editorText(page)).toBe('# Notes\n\nThe Seine flows through Paris.\n More.')

    // A file over 32 MB is refused by its size, in words, before it is read or sent.
    await page.getByLabel('File to open').setInputFiles({
      name: 'Scans.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: Buffer.alloc(33 * 1024 * 1024),
    })
    await expect(page.locator('.notice')).toHaveText(
      /"Scans\.docx" is 33\.0 MB; a file to open can be at most 32 MB\./,
    )
    await expect.poll(() => editorText(page)).toBe('# Notes\n\nThe Seine flows through Paris.\n More.')
  })
})

import type { Page } from '@playwright/test'
import { expect, openEditor, outputFile as output, pageProblems, savedSettings, test } from './webServer'

// Harper's WebAssembly (16 MB) is fetched and compiled in the worker before the first marks appear.
const FIRST_LINT_MS = 60_000

/// Hovers the lint mark over `text` and waits for its tooltip.
async function hoverMark(page: Page, text: string) {
  await page.locator('.cm-lintRange', { hasText: text }).first().hover()
  const tooltip = page.locator('.cm-tooltip-lint')
  await expect(tooltip).toBeVisible()
  return tooltip
}

test('write text, see spelling marks and apply a fix', async ({ page, server }) => {
  const problems = pageProblems(page, { console: true })
  await openEditor(page, server)
  const editor = page.getByRole('textbox', { name: 'Document' })
  await editor.click()
  await page.keyboard.type(
    'Factdesk checks spelling as you write: a mistyped sentance is underlined at once, on any acount.\n\n' +
      'Code such as `npm instal teh` and links like https://example.com/teh are left alone.\n\n' +
      'Grammar too: this is an test of it.\n\nAs Adaeze Okafor wrote, names are left alone and typos are markd.',
  )

  // A misspelling is underlined and its hover says why; code is left alone.
  const misspelled = page.locator('.cm-lintRange.fd-lint-spelling', { hasText: 'sentance' })
  await expect(misspelled).toHaveCount(1, { timeout: FIRST_LINT_MS })
  await expect(page.locator('.cm-lintRange', { hasText: /teh|instal/ })).toHaveCount(0)
  await expect(page.locator('.cm-lintRange.fd-lint-grammar', { hasText: 'an' })).toHaveCount(1)
  // Names mid-sentence are not typos, here as in t1's findings; the typo beside them is.
  await expect(page.locator('.cm-lintRange.fd-lint-spelling', { hasText: 'markd' })).toHaveCount(1)
  await expect(page.locator('.cm-lintRange', { hasText: /Adaeze|Okafor/ })).toHaveCount(0)
  await page.screenshot({ path: output('spelling-marks.png') })
  let tooltip = await hoverMark(page, 'sentance')
  await expect(tooltip).toContainText('sentance')
  await expect(tooltip).toContainText('SpellCheck')
  await page.screenshot({ path: output('spelling.png') })

  // The quick fix replaces the word, and the mark goes.
  await tooltip.locator('.cm-diagnosticAction', { hasText: /^sentence$/ }).click()
  await expect(editor).toContainText('a mistyped sentence is underlined')
  await expect(page.locator('.cm-lintRange', { hasText: 'sentence' })).toHaveCount(0)

  // A word added to the dictionary is no longer marked, and is kept in the app's settings.
  tooltip = await hoverMark(page, 'Factdesk')
  await tooltip.locator('.cm-diagnosticAction', { hasText: 'Add to dictionary' }).click()
  await expect(page.locator('.cm-lintRange', { hasText: 'Factdesk' })).toHaveCount(0)
  // So is a word Harper would split ("acount" → "a count"): a spelling mark too.
  tooltip = await hoverMark(page, 'acount')
  await expect(tooltip).toContainText('SplitWords')
  await expect(page.locator('.cm-lintRange.fd-lint-spelling', { hasText: 'acount' })).toHaveCount(1)
  await tooltip.locator('.cm-diagnosticAction', { hasText: 'Add to dictionary' }).click()
  await expect(page.locator('.cm-lintRange', { hasText: 'acount' })).toHaveCount(0)
  const settings = await savedSettings(page, server)
  expect([...settings.writing.dictionary].sort()).toEqual(['Factdesk', 'acount'])

  // A rule ignored in this document leaves its findings unmarked, even new ones; other rules still mark.
  tooltip = await hoverMark(page, 'an')
  await tooltip.locator('.cm-diagnosticAction', { hasText: 'Ignore rule in this document' }).click()
  await expect(page.locator('.cm-lintRange.fd-lint-grammar')).toHaveCount(0)
  await page.keyboard.press('Control+End')
  await page.keyboard.type(' It was an mistake to write recieve.')
  await expect(page.locator('.cm-lintRange', { hasText: 'recieve' })).toHaveCount(1)
  await expect(page.locator('.cm-lintRange.fd-lint-grammar')).toHaveCount(0)

  // From the keyboard, the findings and their fixes are listed in a panel.
  await page.keyboard.press('Control+Shift+M')
  const panel = page.locator('.cm-panel-lint')
  await expect(panel).toContainText('recieve')
  await page.screenshot({ path: output('spelling-panel.png') })
  await panel
    .getByRole('option')
    .filter({ hasText: 'recieve' })
    .getByRole('button', { name: /receive/ })
    .click()
  await expect(editor).toContainText('It was an mistake to write receive.')

  // After a reload the dictionary still holds: the name is not marked, a misspelling is.
  await page.reload()
  await expect(editor).toContainText('It was an mistake to write receive.') // the draft came back
  await editor.click()
  await page.keyboard.press('Control+A')
  await page.keyboard.press('Delete')
  await page.keyboard.type('Factdesk writes a sentance in colour.')
  await expect(page.locator('.cm-lintRange', { hasText: 'sentance' })).toHaveCount(1, {
    timeout: FIRST_LINT_MS,
  })
  await expect(page.locator('.cm-lintRange', { hasText: 'Factdesk' })).toHaveCount(0)
  await expect(page.locator('.cm-lintRange', { hasText: 'colour' })).toHaveCount(1)

  // What changes in Settings reaches the editor when the dialog closes: a word taken out of the dictionary is
  // marked again, and British spelling takes "colour".
  await page.keyboard.press('Control+,')
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('tab', { name: 'Writing' }).click()
  // The focus goes where the removed word's × was: to the next word's, then, with no word left, to Spelling.
  await dialog.getByRole('button', { name: 'Remove Factdesk from the dictionary' }).click()
  await expect(dialog.getByRole('button', { name: 'Remove acount from the dictionary' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(dialog.getByText('No words yet')).toBeVisible()
  await expect(dialog.getByLabel('Spelling')).toBeFocused()
  await dialog.getByLabel('Spelling').selectOption('british')
  await expect(dialog.getByLabel('Spelling')).toBeEnabled()
  // How many claims a check finds is set here too.
  await dialog.getByLabel('Find claims').selectOption('more')
  await expect(dialog.getByLabel('Find claims')).toBeEnabled()
  await dialog.getByRole('button', { name: 'Close settings' }).click()
  await expect(editor).toBeFocused()
  await expect(page.locator('.cm-lintRange', { hasText: 'Factdesk' })).toHaveCount(1)
  await expect(page.locator('.cm-lintRange', { hasText: 'colour' })).toHaveCount(0)
  await expect(page.locator('.cm-lintRange', { hasText: 'sentance' })).toHaveCount(1)
  // Saved: the dialog opened again reads it back.
  await page.keyboard.press('Control+,')
  await dialog.getByRole('tab', { name: 'Writing' }).click()
  await expect(dialog.getByLabel('Find claims')).toHaveValue('more')
  await dialog.getByRole('button', { name: 'Close settings' }).click()

  expect(problems).toEqual([])
})

import { estimateAndCheck, expect, pageProblems, test, writeInEditor } from './webServer'

// The panel splits three ways (refuted, misleading, supported), so the judge decides, and it says unverifiable
// (issue 31): two of three models found a problem, so the claim's badge is marked as needing attention whatever
// its verdict, and its panel says why.
test.describe('with a panel most of which finds a problem the judge does not', () => {
  test.use({
    models: {
      latencyMs: 0,
      behaviours: {
        'model-a': { overrides: { verdict: 'refuted', detail: null } },
        'model-b': { overrides: { verdict: 'misleading', detail: 'partly_true' } },
        'model-judge': { overrides: { verdict: 'unverifiable', detail: 'no_evidence', correction: null } },
      },
    },
  })

  test('the claim is marked as needing attention, and its panel says why', async ({ page, server }) => {
    const problems = pageProblems(page)
    await writeInEditor(page, server, 'The Eiffel Tower was completed in 1789.')
    await page.getByRole('toolbar', { name: 'Fact-checking' }).getByRole('button', { name: /t2/ }).click()
    await estimateAndCheck(page)
    const why = '2 of 3 t2 models refuted it; t2 found it unverifiable: check by hand.'
    const badge = page.locator('.cm-content .fd-badge.fd-attention')
    await expect(badge).toHaveCount(1)
    await expect(badge).toHaveAttribute('title', new RegExp(`^unverifiable — .* — Needs attention: ${why}$`))
    // No vote said unverifiable: no agreement to speak of.
    await expect(badge).not.toHaveAttribute('title', /agreement/)
    await badge.click()
    const attention = page
      .getByRole('complementary', { name: 'Claim' })
      .getByRole('region', { name: 'Needs attention' })
    await expect(attention.locator('.why')).toHaveText(why)
    expect(problems).toEqual([])
  })
})

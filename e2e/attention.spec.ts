import { estimateAndCheck, expect, pageProblems, test, writeInEditor } from './webServer'

// Two of three panel models refute the claim and the judge does not (issue 31): the claim's badge is marked as
// needing attention whatever its verdict, and its panel says why.
test.describe('with a panel whose majority refutes what the judge does not', () => {
  test.use({
    models: {
      latencyMs: 0,
      behaviours: {
        'model-a': { overrides: { verdict: 'refuted', detail: null } },
        'model-b': { overrides: { verdict: 'refuted', detail: null } },
        'model-judge': { overrides: { verdict: 'unverifiable', detail: 'no_evidence', correction: null } },
      },
    },
  })

  test('the claim is marked as needing attention, and its panel says why', async ({ page, server }) => {
    const problems = pageProblems(page)
    await writeInEditor(page, server, 'The Eiffel Tower was completed in 1789.')
    await page.getByRole('toolbar', { name: 'Fact-checking' }).getByRole('button', { name: /t2/ }).click()
    await estimateAndCheck(page)
    const badge = page.locator('.cm-content .fd-badge.fd-attention')
    await expect(badge).toHaveCount(1)
    await expect(badge).toHaveAttribute('title', /Needs attention: .*refuted it/)
    await badge.click()
    const attention = page
      .getByRole('complementary', { name: 'Claim' })
      .getByRole('region', { name: 'Needs attention' })
    await expect(attention).toContainText('refuted it')
    expect(problems).toEqual([])
  })
})

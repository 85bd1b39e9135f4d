import type { RecordedRequest } from '../test/helpers/fakeOpenAI'
import { DATA_CLOSE, DATA_OPEN } from '../src/main/engine/tiers/t2/prompts'
import { CAPITAL_PLAN, CLAIM, serveCapitalArticles } from '../test/main/engine/research/capital'
import { expect, expectFocusKept, outputFile as output, pageProblems, test, writeInEditor } from './webServer'

// Bold as writers mark a paragraph's subject: the claim starts after the opening ** (a claim never starts with a
// mark), and the side panel shows it without the closing one.
const ARTICLE = '**Ottawa** is the capital of Canada. It sits on the Ottawa River.'

/// The JSON a request carries between its data markers.
function dataOf(request: RecordedRequest): {
  passages?: { id: string; text: string }[]
  quotes?: { id: string; quote: string }[]
} {
  const start = request.user.indexOf(`${DATA_OPEN}\n`) + DATA_OPEN.length + 1
  return JSON.parse(request.user.slice(start, request.user.lastIndexOf(`\n${DATA_CLOSE}`)))
}

/// A model that answers each step of deep research from what it is given: its map cites one sentence of each
/// article the search found.
function researcher(request: RecordedRequest): unknown {
  switch (request.body.response_format?.json_schema?.name) {
    case 'relevant_passages':
      return { passages: ['P1'] }
    case 'research_plan':
      return CAPITAL_PLAN
    case 'argument_map': {
      const passages = dataOf(request).passages ?? []
      const find = (start: string): string => passages.find((p) => p.text.startsWith(start))?.id ?? 'P1'
      return {
        arguments: [
          {
            kind: 'proof',
            text: 'The encyclopedia names Ottawa as the capital of Canada.',
            citations: [
              { passage: find('Ottawa is the capital'), quote: 'Ottawa is the capital city of Canada.' },
              {
                passage: find('Ottawa is the capital'),
                quote: 'chosen as the capital by Queen Victoria in 1857.',
              },
            ],
          },
          {
            kind: 'dissent',
            text: 'Toronto was a capital before Ottawa.',
            citations: [
              {
                passage: find('Toronto'),
                quote: 'was the capital of the Province of Canada for several periods.',
              },
            ],
          },
        ],
      }
    }
    case 'stances':
      // Ottawa's sentences confirm the claim; Toronto's past does not settle it.
      return {
        stances: (dataOf(request).quotes ?? []).map((q) => ({
          quote: q.id,
          reasoning: 'What it says.',
          stance: q.quote.includes('Province') ? 'neutral' : 'supports',
        })),
      }
    case 'map_vote':
      return {
        verdict: 'supported',
        detail: null,
        confidence: 0.9,
        rationale: 'The proof is sourced; the dissent is history.',
      }
    case 'research_finding':
      return {
        verdict: 'supported',
        detail: null,
        confidence: 0.85,
        summary:
          'Ottawa has been the capital since Queen Victoria chose it in 1857; Toronto was one earlier.',
      }
    default:
      return {}
  }
}

test.describe('deep research', () => {
  test.use({
    models: {
      latencyMs: 400,
      answer: researcher,
      wiki: serveCapitalArticles,
    },
  })

  test('runs deep research on a claim and walks its argument map by keyboard', async ({ page, server }) => {
    const problems = pageProblems(page)
    // Tall enough for the whole argument map beside the finding.
    await page.setViewportSize({ width: 1280, height: 1000 })
    await writeInEditor(page, server, ARTICLE)

    // A t1 check gives the claims their ids. Its badges take the room held for them since the estimate: the
    // text after the first claim does not move.
    const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
    await toolbar.getByRole('button', { name: 'Estimate' }).click()
    const marks = page.locator('.cm-content .fd-claim')
    await expect(marks.nth(1)).toHaveText('It sits on the Ottawa River.')
    // The side panel shows the claims as the text reads, without the writer's Markdown marks.
    const estimate = page.getByRole('complementary', { name: 'Estimate' })
    await expect(estimate.locator('.claim-list li').first()).toHaveText(CLAIM)
    // Where the second claim sits from the first (the editor recentres when the side panel closes).
    const gap = async (): Promise<number[]> => {
      const [first, second] = [await marks.nth(0).boundingBox(), await marks.nth(1).boundingBox()]
      return [(second?.x ?? 0) - (first?.x ?? 0), (second?.y ?? 0) - (first?.y ?? 0)]
    }
    const before = await gap()
    await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
    await expect(page.locator('.cm-content .fd-badge')).toHaveCount(2)
    expect(await gap()).toEqual(before)
    await expect(page.getByRole('status', { name: 'Check status' })).toContainText('completed', {
      timeout: 30_000,
    })
    // Clean claims of a t1-only check lose their badge once checked; the claim opens from its text.
    const balance = Number((await page.locator('.balance').innerText()).replace(/\D/g, ''))
    await marks.nth(0).click()

    const claim = page.getByRole('complementary', { name: 'Claim' })
    await expect(claim.locator('.claim-text')).toHaveText(CLAIM)
    await claim.getByRole('button', { name: 'Deep research…' }).click()
    const panel = page.getByRole('complementary', { name: 'Deep research' })
    const confirm = panel.getByRole('dialog', { name: 'Confirm deep research' })
    await expect(confirm).toContainText('40 credits, flat')
    await expect(confirm).toContainText(`${balance.toLocaleString('en-US')} credits`)
    await page.screenshot({ path: output('research-confirm.png') })
    // The dialog takes the focus: Enter confirms.
    await expect(confirm.getByRole('button', { name: 'Research for 40 credits' })).toBeFocused()
    await page.keyboard.press('Enter')
    // The button that asked is gone with the claim's panel: the focus stays in the side panel.
    await expect(panel).toBeFocused()

    // Progress: the steps list with the current step, then the finding.
    const steps = panel.getByRole('list', { name: 'Research steps' })
    await expect(steps.locator('[aria-current="step"]')).toHaveCount(1)
    await page.screenshot({ path: output('research-progress.png') })
    await expect(page.locator('.balance')).toHaveText(`${(balance - 40).toLocaleString('en-US')} credits`)
    await expect(panel.getByRole('status').first()).toContainText('Research completed', { timeout: 30_000 })
    await expect(panel.getByRole('status').first()).toContainText(/[1-9]\d* sources? read/)
    // Once the finding is in, the steps fold under the status line.
    await expect(steps).toBeHidden()
    const summary = panel.locator('summary', { hasText: 'Research completed' })
    await summary.click()
    await expect(steps.locator('.step-done')).toHaveCount(6)
    await summary.click()

    const finding = panel.getByRole('region', { name: 'Finding' })
    await expect(finding).toContainText('supported')
    await expect(finding).toContainText('Confidence 85%')
    await expect(finding).toContainText('Queen Victoria')
    await expect(panel.getByRole('table', { name: 'Panel votes on the map' })).toContainText('panel-a')

    const map = panel.getByRole('tree', { name: 'Argument map' })
    const root = map.getByRole('treeitem', { name: `Claim: ${CLAIM}` })
    await expect(root).toHaveAttribute('aria-level', '1')
    const proof = map.getByRole('treeitem', { name: /^supports: Proof:/ })
    const dissent = map.getByRole('treeitem', { name: /^attacks: Dissent:/ })
    await expect(proof).toHaveAttribute('aria-level', '2')
    await expect(dissent).toHaveAttribute('aria-level', '2')
    const evidence = map.getByRole('treeitem', { name: /^supports: Evidence:/ })
    await expect(evidence).toHaveCount(3)
    await expect(evidence.first()).toContainText('Ottawa is the capital city of Canada.')
    await expect(evidence.first()).toContainText('supports the claim')
    await expect(evidence.last()).toContainText('does not settle the claim')
    await expect(evidence.first()).toContainText('127.0.0.1')
    await page.screenshot({ path: output('research.png') })

    // Each evidence names its source; the map is one tab stop, its source buttons none.
    await expect(evidence.first()).toHaveAccessibleName(/\. Source: .+ \(127\.0\.0\.1\), supports the claim$/)
    await expect(map.getByRole('button')).toHaveCount(3)
    await root.focus()
    await page.keyboard.press('Tab')
    await expect(map.locator(':focus')).toHaveCount(0)
    await page.keyboard.press('Shift+Tab')
    await expect(root).toBeFocused()

    // The keyboard walks the tree: down to the proof, close it, on to the dissent, into its evidence.
    await page.keyboard.press('ArrowDown')
    await expect(proof).toBeFocused()
    await page.keyboard.press('ArrowLeft')
    await expect(proof).toHaveAttribute('aria-expanded', 'false')
    await expect(evidence).toHaveCount(1)
    await page.keyboard.press('ArrowDown')
    await expect(dissent).toBeFocused()
    await page.keyboard.press('ArrowRight')
    const dissentEvidence = dissent.getByRole('treeitem')
    await expect(dissentEvidence).toBeFocused()
    await expect(dissentEvidence).toContainText('Province of Canada')
    // Enter on evidence asks before its source opens, showing the whole URL.
    await page.keyboard.press('Enter')
    const ask = panel.getByRole('alertdialog', { name: 'Open link' })
    await expect(ask).toContainText('/w/index.php?title=Toronto')
    // The question keeps the focus until it is answered: Tab goes round its two buttons.
    await expectFocusKept(page, ask, ask.getByRole('button', { name: 'Cancel' }))
    await page.keyboard.press('ArrowLeft')
    await expect(dissent).toBeFocused()
    await page.keyboard.press('Home')
    await expect(root).toBeFocused()
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    await expect(proof).toBeFocused()
    await expect(proof).toHaveAttribute('aria-expanded', 'true')
    await page.screenshot({ path: output('research-keyboard.png') })
    expect(problems).toEqual([])
  })

  test('keeps the focus in the panel when research asked from the text starts', async ({ page, server }) => {
    await writeInEditor(page, server, ARTICLE)
    await page
      .getByRole('toolbar', { name: 'Fact-checking' })
      .getByRole('button', { name: 'Estimate' })
      .click()
    await page.locator('.cm-content .fd-claim').first().click()
    await page.keyboard.press('Control+Shift+D')
    const panel = page.getByRole('complementary', { name: 'Deep research' })
    await expect(panel.getByRole('button', { name: 'Research for 40 credits' })).toBeFocused()
    await page.keyboard.press('Enter')
    // The steps appear and are read out in the panel, which keeps the keys.
    await expect(panel.getByRole('list', { name: 'Research steps' })).toBeVisible()
    await expect(panel).toBeFocused()
    await expect(panel.getByRole('status').first()).toContainText('Research completed', { timeout: 30_000 })
    await expect(panel).toBeFocused()
  })
})

test.describe('deep research priced above the balance', () => {
  test.use({ models: { latencyMs: 0, config: { pricing: { research: 1500 } } } })

  test('explains a short balance and sends nothing', async ({ page, server }) => {
    await writeInEditor(page, server, ARTICLE)
    // The shortcut on a selection: the price against the balance, and no way to start.
    await page.keyboard.press('Control+a')
    await page.keyboard.press('Control+Shift+D')
    const confirm = page.getByRole('dialog', { name: 'Confirm deep research' })
    await expect(confirm).toContainText('1,500 credits, flat')
    await expect(confirm).toContainText('Not enough credits: 500 more credits needed. Nothing will be sent.')
    await expect(confirm.getByRole('button', { name: 'Research for 1,500 credits' })).toBeDisabled()
    await page.screenshot({ path: output('research-short.png') })
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(page.getByRole('complementary', { name: 'Deep research' })).toContainText('Choose a claim')
    await expect(page.getByRole('textbox', { name: 'Document' })).toBeFocused()
    await expect(page.locator('.balance')).toHaveText('1,000 credits')

    // With no selection and no estimate, the shortcut takes the sentence at the cursor.
    await page.getByRole('textbox', { name: 'Document' }).click()
    await page.keyboard.press('Control+End')
    await page.keyboard.press('Control+Shift+D')
    const target = page.getByRole('complementary', { name: 'Deep research' }).locator('.claim-text')
    await expect(target).toHaveText('It sits on the Ottawa River.')
    await expect(confirm).toContainText('1,500 credits, flat')
  })
})

test.describe('claim badges with a slow judge', () => {
  test.use({
    // Two of the three votes land together (two requests at a time), the third 1.5 s later; the panel is split
    // three ways, so it debates one round before the judge.
    models: {
      latencyMs: 1500,
      behaviours: {
        'model-b': { latencyMs: 1500, overrides: { verdict: 'misleading', confidence: 0.9 } },
        'model-c': { latencyMs: 1500, overrides: { verdict: 'refuted', confidence: 0.9 } },
        'model-judge': { latencyMs: 4000, overrides: { verdict: 'supported', confidence: 0.9 } },
      },
    },
  })

  test('count the votes out of the panel, then show it deciding', async ({ page, server }) => {
    await writeInEditor(page, server, 'Ottawa is the capital of Canada.')
    const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
    await toolbar.getByRole('button', { name: /t2/ }).click()
    await toolbar.getByRole('button', { name: 'Estimate' }).click()
    await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
    const badge = page.locator('.cm-content .fd-badge')
    await expect(badge).toHaveAccessibleName(
      'Claim “Ottawa is the capital of Canada.”: voting 2/3. Open details',
      { timeout: 10_000 },
    )
    // Reloaded while the panel votes, the draft's check comes back as it stands, its votes still counted out of
    // the panel, and goes on from there.
    await page.reload()
    await expect(badge).toHaveAccessibleName(
      /^Claim “Ottawa is the capital of Canada\.”: (voting 2\/3|deciding, needs attention)\. Open details$/,
    )
    // Two of the three votes found it misleading or refuted: it needs attention whatever the judge decides.
    await expect(badge).toHaveAccessibleName(
      'Claim “Ottawa is the capital of Canada.”: deciding, needs attention. Open details',
      { timeout: 10_000 },
    )
    await page.screenshot({ path: output('judging.png') })
    await expect(badge).toHaveAccessibleName(
      'Claim “Ottawa is the capital of Canada.”: supported, needs attention. Open details',
      { timeout: 20_000 },
    )
  })
})

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { chromiumPdf, oneAtATime } from '../../../../src/main/engine/exports/pdf'
import { toHtml } from '../../../../src/main/engine/exports/html'
import { ApiError } from '../../../../src/shared/errors'
import { fixtureReport, pdfText } from './fixture'

describe('chromiumPdf', () => {
  it('prints without running script or making a request, whatever the page asks for', async () => {
    let requests = 0
    const listener = createServer((_request, response) => {
      requests += 1
      response.end('body { color: red }')
    })
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`
    try {
      const bytes = await chromiumPdf(
        `<!doctype html><html><head><link rel="stylesheet" href="${origin}/style.css">` +
          `<style>@import url("${origin}/more.css"); body { background: url("${origin}/bg.png") }</style></head>` +
          `<body><p id="words">Printed words</p><img src="${origin}/image.png">` +
          `<script>document.getElementById('words').textContent = 'Script ran'</script></body></html>`,
      )
      expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-')
      const text = pdfText(bytes)
      expect(text).toContain('Printed words')
      expect(text).not.toContain('Script ran')
      expect(requests).toBe(0)
    } finally {
      await new Promise((resolve) => listener.close(resolve))
    }
  }, 60_000)

  it('prints a report whole: a long address in the facts wraps instead of running off the page', async () => {
    const report = fixtureReport()
    const sourceUrl = `https://example.com/${'a'.repeat(300)}`
    const bytes = await chromiumPdf(toHtml({ ...report, check: { ...report.check, sourceUrl } }))
    const text = pdfText(bytes)
    expect(text.replace(/\s+/g, '')).toContain(sourceUrl)
    // Each page says which it is of how many.
    expect(text).toMatch(/^\s*1 ?\/ ?\d+\s*$/m)
  }, 60_000)

  it('says which Chromium did not start and what to set, in words the app and the CLI show', async () => {
    process.env.FACTDESK_CHROMIUM = '/nonexistent/chromium'
    try {
      const failure = chromiumPdf('<p>x</p>')
      await expect(failure).rejects.toBeInstanceOf(ApiError)
      await expect(failure).rejects.toThrow(
        /did not start from \/nonexistent\/chromium: install it, or set FACTDESK_CHROMIUM/,
      )
    } finally {
      delete process.env.FACTDESK_CHROMIUM
    }
  })

  it('prints one page at a time, in the order asked, a failed print not stopping the next', async () => {
    let running = 0
    let most = 0
    const printed: string[] = []
    const printer = oneAtATime(async (html) => {
      running++
      most = Math.max(most, running)
      await new Promise((resolve) => setTimeout(resolve, 20))
      running--
      if (html === 'bad') throw new Error('no page')
      printed.push(html)
      return new Uint8Array()
    })
    const results = await Promise.allSettled(['a', 'bad', 'b', 'c'].map((html) => printer(html)))
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ])
    expect(printed).toEqual(['a', 'b', 'c'])
    expect(most).toBe(1)
  })
})

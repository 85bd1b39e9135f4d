import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { asWebServer, expect, openEditor, test } from './webServer'

/// Another program's local page on this computer (a dev server, another app), on a port of its own: the browser
/// sends it the `factdesk_session` cookie, as cookies ignore the port. It records the Cookie header it is sent.
async function startOtherLocalServer(): Promise<{ url: string; cookies: string[]; server: Server }> {
  const cookies: string[] = []
  const server = createServer((request, response) => {
    if (request.headers.cookie) cookies.push(request.headers.cookie)
    response.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Other app</title>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, cookies, server }
}

/// Every route of the API that needs signing in, from its OpenAPI document: a route added later is tried too
/// (the document itself, `security: []`, is open to all).
async function everyRoute(origin: string): Promise<{ method: string; path: string }[]> {
  const document = (await (await fetch(`${origin}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { security?: unknown[] }>>
  }
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) =>
      operation.security?.length === 0
        ? []
        : [
            {
              method: method.toUpperCase(),
              // Any id will do: a request is authenticated before its id is looked up.
              path: `/api/v1${path.replace(/\{[^}]+\}/g, 'x_1')}`,
            },
          ],
    ),
  )
}

/// What a body could ask of the routes that matter most: a write token, a million credits.
const BODY: Record<string, unknown> = {
  '/api/v1/tokens': { scope: 'write', name: 'stolen' },
  '/api/v1/credits/grants': { amount: 1_000_000 },
}

test.describe('the browser session', () => {
  test.skip(({ desktop }) => desktop, 'the desktop app has no browser session')

  test('another local server that receives the cookie cannot use it on any route', async ({
    page,
    server,
  }) => {
    const web = asWebServer(server)
    await openEditor(page, web)
    await expect(page.getByRole('contentinfo')).toContainText('1,000 credits')

    const other = await startOtherLocalServer()
    try {
      const visit = await page.context().newPage()
      await visit.goto(other.url)
      await visit.close()
      const stolen = other.cookies.join('; ')
      expect(stolen).toMatch(/factdesk_session=fdk_/)

      const routes = await everyRoute(web.origin)
      expect(routes.length).toBeGreaterThan(30)
      expect(routes).toContainEqual({ method: 'POST', path: '/api/v1/credits/grants' })
      // Whatever it forges, short of the page's key, which only the page's origin can read.
      const forgeries: Record<string, string>[] = [
        { Origin: web.origin, Referer: `${web.origin}/`, 'Sec-Fetch-Site': 'same-origin' },
        { Origin: web.origin, 'X-Factdesk-Page-Key': stolen.replace(/^.*factdesk_session=([^;]+).*$/, '$1') },
        { Origin: web.origin, 'X-Factdesk-Page-Key': `fdk_${'A'.repeat(43)}` },
        { 'X-Requested-With': 'XMLHttpRequest', 'X-Factdesk-Page-Key': '' },
      ]
      const answered: string[] = []
      for (const { method, path } of routes) {
        for (const forged of forgeries) {
          const withBody = method !== 'GET' && method !== 'HEAD'
          const response = await fetch(web.origin + path, {
            method,
            headers: {
              Cookie: stolen,
              ...forged,
              ...(withBody ? { 'Content-Type': 'application/json' } : {}),
            },
            ...(withBody ? { body: JSON.stringify(BODY[path] ?? {}) } : {}),
          })
          // An event stream that opened would never end: what it says is its status.
          const isJson = (response.headers.get('Content-Type') ?? '').startsWith('application/json')
          const envelope = isJson ? ((await response.json()) as { error?: { code?: string } }) : null
          if (!isJson) await response.body?.cancel()
          answered.push(`${method} ${path} ${response.status} ${envelope?.error?.code}`)
        }
      }
      expect(answered.filter((line) => !line.endsWith(' 401 unauthorized'))).toEqual([])
    } finally {
      await new Promise((resolve) => other.server.close(resolve))
    }

    // Nothing was granted meanwhile; the page itself goes on working after a reload, and in a new tab (which has
    // no link), on its own event stream too.
    await page.reload()
    await expect(page.getByRole('contentinfo')).toContainText('1,000 credits')
    const tab = await page.context().newPage()
    const stream = tab.waitForResponse((response) => response.url().endsWith('/api/v1/events'))
    await tab.goto(web.origin)
    await expect(tab.getByRole('contentinfo')).toContainText('1,000 credits')
    expect((await stream).status()).toBe(200)
    await tab.getByRole('textbox', { name: 'Document' }).click()
    await tab.keyboard.insertText('The Eiffel Tower is in Paris.')
    // The first Check shows the price, the second submits.
    const check = tab
      .getByRole('toolbar', { name: 'Fact-checking' })
      .getByRole('button', { name: 'Check', exact: true })
    await check.click()
    await expect(tab.getByRole('complementary', { name: 'Estimate' })).toContainText('1 claim found')
    await check.click()
    await expect(tab.getByRole('status', { name: 'Check status' })).toContainText('completed')
  })
})

import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { PAGE_KEY_HEADER } from '../../../../src/shared/browserSession'
import type { ConfigInput } from '../../../../src/shared/config'
import { mountWeb } from '../../../../src/main/server/web'
import { startServer, tempDir, type TestServer } from '../../../helpers/server'

/// A test server in browser mode, and the owner's session: the cookie and page key `factdesk web` trades its
/// link for.
export interface OwnerServer extends TestServer {
  /// The headers that sign a request in as the browser session: its cookie and the page's key.
  ownerHeaders: Record<string, string>
  /// Calls the API as the browser session (the owner), same-origin like the page.
  owner(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>
}

export async function startOwnerServer(
  options: { config?: ConfigInput; dataDir?: string; ollamaOrigin?: string } = {},
): Promise<OwnerServer> {
  const rendererDir = join(tempDir(), 'renderer')
  mkdirSync(rendererDir)
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Factdesk</title>')
  let oneTimeToken = ''
  const server = await startServer({
    ...options,
    extend: (app, engine) => (oneTimeToken = mountWeb(app, engine, rendererDir)),
  })
  const signIn = await fetch(`${server.origin}/auth/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: oneTimeToken }),
  })
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? ''
  if (signIn.status !== 200 || cookie === '') throw new Error(`no session: ${signIn.status}`)
  const { pageKey } = (await signIn.json()) as { pageKey: string }
  const ownerHeaders = { Cookie: cookie, [PAGE_KEY_HEADER]: pageKey }
  return {
    ...server,
    ownerHeaders,
    async owner(method, path, body) {
      const headers: Record<string, string> = { ...ownerHeaders }
      if (body !== undefined) headers['Content-Type'] = 'application/json'
      const response = await fetch(server.api + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      return { status: response.status, json: text ? JSON.parse(text) : null }
    },
  }
}

/// A fake Ollama on 127.0.0.1: `GET /api/tags` lists `models`.
export async function startFakeOllama(models: string[]): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/api/tags') {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end(JSON.stringify({ models: models.map((name) => ({ name, model: name, size: 1 })) }))
    } else res.writeHead(404).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

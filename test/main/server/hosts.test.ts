import { mkdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Config } from '../../../src/shared/config'
import { hostCheck } from '../../../src/main/server/hosts'
import { localServerSwitch } from '../../../src/main/server/localServer'
import { mountWeb } from '../../../src/main/server/web'
import { closedPort } from '../engine/settings/session'
import { expectEnvelope, startServer, tempDir, type TestServer } from '../../helpers/server'

/// A GET over real HTTP with the `Host` header given (fetch refuses to send one of its own).
function getWithHost(
  origin: string,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any }> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers: { ...headers, Host: host } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: body ? JSON.parse(body) : null }))
    })
    req.on('error', reject)
    req.end()
  })
}

/// What a server answers to `text` sent as is over a socket, until it closes the connection.
function rawExchange(origin: string, text: string): Promise<string> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text))
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => (answer += chunk))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
  })
}

let server: TestServer
let port = ''
beforeAll(async () => {
  const rendererDir = join(tempDir(), 'renderer')
  mkdirSync(rendererDir)
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Factdesk</title>')
  server = await startServer({
    config: { server: { allowedHosts: ['Factdesk.Example.org'] } },
    extend: (app, engine) => void mountWeb(app, engine, rendererDir),
  })
  port = new URL(server.origin).port
})
afterAll(() => server.close())

describe('the Host a server answers', () => {
  it('answers its own address and localhost with its port, and the allowed names on any port', async () => {
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      'factdesk.example.org',
      'factdesk.example.org:443',
    ]) {
      const me = await getWithHost(server.origin, '/api/v1/me', host, {
        Authorization: `Bearer ${server.read}`,
      })
      expect(me.status, host).toBe(200)
    }
  })

  it('refuses any other name as 421 misdirected_request, on every route, before authentication', async () => {
    const forged = [
      'attacker.example',
      `attacker.example:${port}`,
      `127.0.0.1:${Number(port) + 1}`,
      'localhost',
      `localhost.attacker.example:${port}`,
      `factdesk.example.org.attacker.example`,
      `127.0.0.1:${port}@attacker.example`,
    ]
    for (const host of forged) {
      for (const path of ['/api/v1/me', '/api/v1/openapi.json', '/', '/index.html', '/missing']) {
        const answer = await getWithHost(server.origin, path, host, {
          Authorization: `Bearer ${server.read}`,
        })
        expect(answer.status, `${host} ${path}`).toBe(421)
        expectEnvelope(answer.json, 'misdirected_request')
      }
    }
  })

  it('refuses a request without a Host', async () => {
    for (const version of ['1.0', '1.1']) {
      const answer = await rawExchange(
        server.origin,
        `GET /api/v1/openapi.json HTTP/${version}\r\nConnection: close\r\n\r\n`,
      )
      expect(answer).toMatch(/^HTTP\/1\.1 421 Misdirected Request\r\n/)
      expectEnvelope(JSON.parse(answer.split('\r\n\r\n')[1] ?? ''), 'misdirected_request')
    }
  })

  it('holds for the desktop app’s local REST server too', async () => {
    const local = localServerSwitch(server.engine)
    try {
      const localPort = await closedPort()
      const { address } = await local.set({ enabled: true, port: localPort })
      const origin = new URL(address ?? '').origin
      const auth = { Authorization: `Bearer ${server.read}` }
      expect((await getWithHost(origin, '/api/v1/me', `localhost:${localPort}`, auth)).status).toBe(200)
      const rebound = await getWithHost(origin, '/api/v1/me', `attacker.example:${localPort}`, auth)
      expect(rebound.status).toBe(421)
      expectEnvelope(rebound.json, 'misdirected_request')
    } finally {
      await local.close()
    }
  })

  it('takes host names only in server.allowedHosts', () => {
    for (const name of ['factdesk.example.org:443', 'https://factdesk.example.org', '*.example.org', '']) {
      const parsed = Config.safeParse({ server: { allowedHosts: [name] } })
      expect(parsed.success, name).toBe(false)
      expect(parsed.error?.issues[0]?.path).toEqual(['server', 'allowedHosts', 0])
    }
  })

  it('on every address of this computer when listening on all of them, IPv6 in brackets', () => {
    const any = hostCheck('0.0.0.0', 8787, [])
    expect(any('127.0.0.1:8787')).toBe(true)
    expect(any('[::1]:8787')).toBe(true)
    expect(any('attacker.example:8787')).toBe(false)
    const six = hostCheck('::1', 80, [])
    expect(six('[::1]')).toBe(true)
    expect(six('[::1]:80')).toBe(true)
    expect(six('[::2]:80')).toBe(false)
  })
})

describe('a request Node cannot read', () => {
  it('with headers over 16 KB is 431 with the error envelope, and the connection closed', async () => {
    const answer = await rawExchange(
      server.origin,
      `GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
    )
    const [head = '', body = ''] = answer.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/)
    expect(head).toMatch(/\r\nContent-Type: application\/json\r\n/)
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/)
    expect(expectEnvelope(JSON.parse(body), 'request_header_fields_too_large').message).toContain('16 KB')
  })

  it('that is not HTTP is 400 with the error envelope', async () => {
    const answer = await rawExchange(server.origin, 'HELLO THERE\r\n\r\n')
    const [head = '', body = ''] = answer.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expectEnvelope(JSON.parse(body), 'bad_request')
  })
})

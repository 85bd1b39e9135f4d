import { mkdirSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { connect } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Config } from '../../../src/shared/config'
import { hostCheck } from '../../../src/main/server/hosts'
import { localServerSwitch } from '../../../src/main/server/localServer'
import { mountWeb } from '../../../src/main/server/web'
import { closedPort } from '../../helpers/ports'
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
      // Spellings of an answered host that are not its own: upper case, short and numeric forms, a trailing dot.
      `LOCALHOST:${port}`,
      `Localhost:${port}`,
      `127.1:${port}`,
      `2130706433:${port}`,
      `0x7f000001:${port}`,
      `127.0.0.1.:${port}`,
      `localhost.:${port}`,
      'FACTDESK.EXAMPLE.ORG',
      'factdesk.example.org.',
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

  it('refuses a Host that is not a host and port as 400 bad_request, with the envelope', async () => {
    for (const host of [
      `127.0.0.1:${port}@attacker.example`,
      `127.0.0.1:0${port}`,
      'local host',
      `[::1:${port}`,
      `127.0.0.1:${port}:1`,
      'localhost/x',
    ]) {
      const answer = await getWithHost(server.origin, '/api/v1/openapi.json', host)
      expect(answer.status, host).toBe(400)
      expect(expectEnvelope(answer.json, 'bad_request').message, host).toMatch(/Host/)
    }
  })

  it('judges a request target in absolute form by its host, as the Host header', async () => {
    const exchange = (target: string, host: string) =>
      rawExchange(server.origin, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
    const forged = await exchange('http://attacker.example/api/v1/openapi.json', `127.0.0.1:${port}`)
    expect(forged).toMatch(/^HTTP\/1\.1 421 /)
    expectEnvelope(JSON.parse(forged.split('\r\n\r\n')[1] ?? ''), 'misdirected_request')
    for (const target of [
      `http://LOCALHOST:${port}/api/v1/openapi.json`,
      `http://127.1:${port}/api/v1/openapi.json`,
    ]) {
      expect(await exchange(target, `127.0.0.1:${port}`), target).toMatch(/^HTTP\/1\.1 421 /)
    }
    const withUser = await exchange(`http://user@127.0.0.1:${port}/api/v1/openapi.json`, `127.0.0.1:${port}`)
    expect(withUser).toMatch(/^HTTP\/1\.1 400 /)
    // The target's own host answered: the Host header is not what is judged.
    const own = await exchange(`http://127.0.0.1:${port}/api/v1/openapi.json`, 'attacker.example')
    expect(own).toMatch(/^HTTP\/1\.1 200 /)
  })

  it('refuses targets that are not a path, and a backslash in the path, as 400 with the envelope', async () => {
    for (const [method, target] of [
      ['GET', '/api/v1\\me'],
      ['GET', '/api\\v1/openapi.json'],
      ['OPTIONS', '*'],
      ['GET', 'api/v1/me'],
      ['GET', 'HTTP://127.0.0.1/api/v1/me'],
    ] as const) {
      const answer = await rawExchange(
        server.origin,
        `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
      )
      const [head = '', body = ''] = answer.split('\r\n\r\n')
      expect(head, target).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
      expect(head, target).toMatch(/\r\nContent-Type: application\/json\r\n/)
      expectEnvelope(JSON.parse(body), 'bad_request')
    }
    // A backslash in the query is only a character.
    const query = await getWithHost(server.origin, '/api/v1/openapi.json?a=\\', `127.0.0.1:${port}`)
    expect(query.status).toBe(200)
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
    expect(any('127.0.0.1:8787')).toBe('answered')
    expect(any('[::1]:8787')).toBe('answered')
    expect(any('attacker.example:8787')).toBe('misdirected')
    const six = hostCheck('::1', 80, [])
    expect(six('[::1]')).toBe('answered')
    expect(six('[::1]:80')).toBe('answered')
    expect(six('[::2]:80')).toBe('misdirected')
    expect(six('[0:0:0:0:0:0:0:1]:80')).toBe('misdirected')
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

  it('with headers over 16 KB on a connection kept alive after an answer is 431 with the envelope too', async () => {
    const { hostname } = new URL(server.origin)
    const answers: string[] = []
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.write(`GET /api/v1/openapi.json HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
      )
      let answer = ''
      socket.setEncoding('utf8')
      socket.on('data', (chunk: string) => {
        answer += chunk
        const [head = '', body = ''] = answer.split('\r\n\r\n')
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? -1)
        if (answers.length === 0 && Buffer.byteLength(body) === length) {
          answers.push(answer)
          answer = ''
          socket.write(
            `GET /api/v1/openapi.json HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
          )
        }
      })
      socket.on('close', () => {
        answers.push(answer)
        resolve()
      })
      socket.on('error', reject)
    })
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/)
    const [head = '', body = ''] = (answers[1] ?? '').split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/)
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/)
    expectEnvelope(JSON.parse(body), 'request_header_fields_too_large')
  })

  it('that is not HTTP is 400 with the error envelope', async () => {
    const answer = await rawExchange(server.origin, 'HELLO THERE\r\n\r\n')
    const [head = '', body = ''] = answer.split('\r\n\r\n')
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expectEnvelope(JSON.parse(body), 'bad_request')
  })
})

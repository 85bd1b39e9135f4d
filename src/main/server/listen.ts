import { createServer, maxHeaderSize, STATUS_CODES, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { getRequestListener } from '@hono/node-server'
import type { Hono } from 'hono'
import { ApiError } from '../../shared/errors'
import { hostCheck, type HostVerdict } from './hosts'

/// How long a stop waits for the answers in flight before it cuts their connections.
const CLOSE_GRACE_MS = 10_000

/// A running HTTP server.
export interface Listening {
  /// Origin the server answers on, e.g. `http://127.0.0.1:8787`.
  origin: string
  /// Stops taking requests, ends the answers that never end by themselves (event streams, on the signal the app
  /// was made with), lets the others finish for up to 10 s, then closes every connection.
  close(): Promise<void>
}

/// Starts serving the app that `makeApp` makes on host:port (port 0 picks a free one) and resolves once it
/// accepts connections. `stopping` is aborted when `close` begins. Only requests whose `Host` is this server's
/// (see `hostCheck`) reach the app; the others, and requests Node cannot read, get the error envelope too.
export function listen(
  makeApp: (stopping: AbortSignal) => Hono,
  host: string,
  port: number,
  allowedHosts: readonly string[],
): Promise<Listening> {
  const stopping = new AbortController()
  // What @hono/node-server refuses itself (a request it cannot turn into a URL) gets the envelope too.
  const answer = getRequestListener(makeApp(stopping.signal).fetch, {
    errorHandler: (error) => {
      const refusal =
        error instanceof Error && error.name === 'RequestError'
          ? new ApiError('bad_request', 'The request is not valid HTTP.')
          : new ApiError('internal_error', 'Something went wrong on our side.')
      return Response.json(refusal.toEnvelope(), { status: refusal.status })
    },
  })
  // Known once the server listens (port 0), which is before it takes a request.
  let answers: (host: string | undefined) => HostVerdict = () => 'misdirected'
  const answering = new Set<ServerResponse>()
  // Idle keep-alive connections, and ones a browser opened ahead and never used, would hold the close open: once
  // no answer is in flight, every connection left is closed.
  let settle = (): void => undefined
  // A request without a Host is refused below with the envelope, not by Node with a bare 400.
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    answering.add(response)
    response.once('close', () => {
      answering.delete(response)
      settle()
    })
    // Before the app, which reads the URL from the Host header or the request target.
    const refusal = refusalOf(request.url ?? '', request.headers.host, answers)
    if (!refusal) return void answer(request, response)
    request.resume()
    const body = JSON.stringify(refusal.toEnvelope())
    response.writeHead(refusal.status, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
    })
    response.end(body)
  })
  return new Promise((resolve, reject) => {
    server.listen(port, host, () => {
      const info = server.address() as AddressInfo
      answers = hostCheck(info.address, info.port, allowedHosts)
      const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address
      resolve({
        origin: `http://${shownHost}:${info.port}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done())
            stopping.abort()
            settle = () => {
              server.closeIdleConnections()
              if (answering.size === 0) server.closeAllConnections()
            }
            settle()
            setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref()
          }),
      })
    })
    server.on('clientError', answerUnreadable)
    server.once('error', reject)
  })
}

/// Why a request may not reach the app, or null when it may. Its target is a path (origin form) or an absolute
/// URL (absolute form, as sent to a proxy), whose host then stands for the `Host` header (RFC 9112, 3.2.2) and is
/// judged the same way; anything else (`*`, a bare authority) and a backslash in the path, which URL parsers read
/// as a slash, are refused.
function refusalOf(
  target: string,
  host: string | undefined,
  answers: (host: string | undefined) => HostVerdict,
): ApiError | null {
  const absolute = /^https?:\/\/([^/?#]*)/.exec(target)
  const path = absolute ? target.slice(absolute[0].length) : target
  if ((!absolute && !target.startsWith('/')) || /^[^?]*\\/.test(path)) {
    return new ApiError('bad_request', 'The request target must be a path such as /api/v1/me.')
  }
  switch (answers(absolute ? absolute[1] : host)) {
    case 'answered':
      return null
    case 'malformed':
      return new ApiError('bad_request', 'The Host is not a host name or address with a port.')
    case 'misdirected':
      return new ApiError(
        'misdirected_request',
        'This server does not answer to that host name: add it to server.allowedHosts in the configuration.',
      )
  }
}

/// A request Node cannot read gets the error envelope, as every other refusal, instead of Node's bare status
/// line: headers over its limit are 431, anything else (a request cut off or not HTTP) 400. Also on a connection
/// kept alive after earlier answers, unless an answer has begun on it (the refusal would land inside it).
function answerUnreadable(error: NodeJS.ErrnoException, socket: Socket): void {
  // Node's own test (the response it is writing on the socket), as its default answer makes it.
  const answering = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
  if (socket.writable && !answering?.headersSent) {
    const refusal =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? new ApiError(
            'request_header_fields_too_large',
            `The request's headers are larger than ${maxHeaderSize / 1024} KB.`,
          )
        : new ApiError('bad_request', 'The request is not valid HTTP.')
    const body = JSON.stringify(refusal.toEnvelope())
    socket.write(
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    )
  }
  socket.destroy(error)
}

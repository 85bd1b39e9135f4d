import { connect, createServer, type Server, type Socket } from 'node:net'
import { closedPort } from '../../../../helpers/ports'

/// A port on 127.0.0.1 that refuses connections (a provider that cannot be reached) until `open` forwards it to
/// a server that runs ("connectivity returns"). Configs can name the port before anything listens on it.
export class Relay {
  private server: Server | null = null
  private readonly sockets = new Set<Socket>()

  private constructor(readonly port: number) {}

  /// A relay on a port that nothing listens on (`closedPort`), closed.
  static async reserve(): Promise<Relay> {
    return new Relay(await closedPort())
  }

  /// `http://127.0.0.1:PORT` + `path`.
  url(path = ''): string {
    return `http://127.0.0.1:${this.port}${path}`
  }

  /// Starts forwarding connections to `target` (a URL on 127.0.0.1).
  async open(target: string): Promise<void> {
    const targetPort = Number(new URL(target).port)
    const server = createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1')
      for (const socket of [client, upstream]) {
        this.sockets.add(socket)
        socket.on('close', () => this.sockets.delete(socket))
        socket.on('error', () => {
          client.destroy()
          upstream.destroy()
        })
      }
      client.pipe(upstream).pipe(client)
    })
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve))
    this.server = server
  }

  /// Stops forwarding: the port refuses connections again.
  async close(): Promise<void> {
    const server = this.server
    this.server = null
    for (const socket of this.sockets) socket.destroy()
    if (server) await new Promise((resolve) => server.close(resolve))
  }
}

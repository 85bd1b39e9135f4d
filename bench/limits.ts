import { request } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { startServer, type TestServer } from '../test/helpers/server'
import { sample, summarise, withTarget, type Figure } from './measure'

const RUNS = 3
const HUGE_IMPORT_BYTES = 40 * 1024 * 1024
const IMPORTS_AT_ONCE = 4
const NESTED_BYTES = 5.8 * 1024 * 1024
const MiB = 1024 * 1024

/// Free work must not cost the server memory or its event loop (issue 33). The growth of the process's resident
/// memory while `IMPORTS_AT_ONCE` clients each send `POST /drafts/import` a 40 MB body (refused by its length),
/// and the longest the event loop is held while the server refuses a 5.8 MB body of nested arrays.
export async function limitBenchmarks(): Promise<Figure[]> {
  const server = await startServer()
  try {
    const memory = await sample(RUNS, async () => {
      global.gc?.()
      const before = process.memoryUsage().rss
      let peak = before
      const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
      const statuses = await Promise.all(
        Array.from({ length: IMPORTS_AT_ONCE }, () => send(server, '/drafts/import', HUGE_IMPORT_BYTES, '[')),
      )
      clearInterval(watch)
      // Each is refused: by its length (413), or as one import too many at once (429).
      if (statuses.some((status) => status !== 413 && status !== 429)) {
        throw new Error(`imports answered ${statuses.join(', ')}`)
      }
      return (peak - before) / MiB
    })
    const held = await sample(RUNS, async () => {
      const delay = monitorEventLoopDelay({ resolution: 1 })
      delay.enable()
      const status = await send(server, '/checks/estimate', NESTED_BYTES, '[')
      delay.disable()
      if (status !== 400) throw new Error(`the nested body answered ${status}`)
      return delay.max / 1e6
    })
    return [
      withTarget(
        summarise(
          `resident memory growth during ${IMPORTS_AT_ONCE} imports of 40 MB bodies at once`,
          'MiB',
          memory,
        ),
        '≤',
        20,
      ),
      withTarget(
        summarise('longest event-loop hold refusing a 5.8 MB body of nested arrays', 'ms', held),
        '≤',
        100,
      ),
    ]
  } finally {
    await server.close()
  }
}

/// POSTs `bytes` of `fill` (one reused chunk) as JSON with its Content-Length, and answers the status, which may
/// come before the body has been sent.
function send(server: TestServer, path: string, bytes: number, fill: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, fill)
    const sent = request(`${server.api}${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${server.write}`,
        'Content-Type': 'application/json',
        'Content-Length': bytes,
      },
    })
    let left = bytes
    let answered = false
    sent.on('response', (response) => {
      answered = true
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    sent.on('error', (error: NodeJS.ErrnoException) => {
      if (!answered && error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error)
    })
    const more = (): void => {
      while (left > 0 && !answered && !sent.destroyed) {
        const part = left >= chunk.length ? chunk : chunk.subarray(0, left)
        left -= part.length
        if (!sent.write(part)) return void sent.once('drain', more)
      }
      if (left === 0) sent.end()
    }
    more()
  })
}

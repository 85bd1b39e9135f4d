// Ports on 127.0.0.1 that nothing listens on, for a provider that cannot be reached or a process a test starts
// on a port of its choosing.
//
// A port taken with `listen(0)` and given back is the system's next choice for every other `listen(0)` (the test's
// own servers, the fakes, PostgreSQL's cluster): a provider meant to be unreachable became reachable, when the
// test's server was given its port. These come from below the ephemeral ports (Linux 32768 and up, macOS and
// Windows 49152 and up), which no `listen(0)` and no outgoing connection is given.
import { createServer } from 'node:net'

const FIRST = 20_000
const COUNT = 12_000
/// Where this process takes its next port: a random start, so that test files running at once seldom meet,
/// then one after another.
let next = Math.floor(Math.random() * COUNT)

/// A port on 127.0.0.1 that nothing listens on now, nor will be given to anyone else's `listen(0)`.
export async function closedPort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = FIRST + (next++ % COUNT)
    const server = createServer()
    const free = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false))
      server.listen(port, '127.0.0.1', () => resolve(true))
    })
    if (free) {
      await new Promise((resolve) => server.close(resolve))
      return port
    }
  }
  throw new Error(`no free port on 127.0.0.1 between ${FIRST} and ${FIRST + COUNT}`)
}

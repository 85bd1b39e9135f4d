import { afterEach } from 'vitest'

/// Closes after each test, one after the other, what `started` lists: the servers and fakes the test started
/// (one it never got to start is undefined and passed over).
export function closeAfterEach(started: () => Array<{ close(): unknown } | undefined>): void {
  afterEach(async () => {
    for (const each of started()) await each?.close()
  })
}

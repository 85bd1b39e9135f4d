import { afterEach } from 'vitest'

/// Closes after each test, one after the other, what `started` lists: the servers and fakes the test started
/// (one it never got to start is undefined and passed over). Then `forget`, where given, clears the variables
/// that held them, so that a later test that starts fewer does not close them again.
export function closeAfterEach(
  started: () => Array<{ close(): unknown } | null | undefined>,
  forget?: () => void,
): void {
  afterEach(async () => {
    for (const each of started()) await each?.close()
    forget?.()
  })
}

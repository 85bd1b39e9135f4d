// One temporary folder for the whole run: every data folder, export and child process's file that a test
// makes under the system's temporary directory lands in it (TMPDIR is inherited by the test workers and
// the processes they start), and it is removed when the run ends, so runs leave nothing behind. The PostgreSQL
// cluster a test file may have started there (helpers/postgres.ts) is stopped first.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stopTestCluster } from './helpers/postgres'

export default function setup(): () => void {
  // Each project of the run (vitest.config.ts: on SQLite, on PostgreSQL) sets up in turn: the first makes the
  // folder, the others use it, and the first's teardown, the last to run, removes it.
  if (process.env.FACTDESK_TEST_ROOT) return () => undefined
  const previous = process.env.TMPDIR
  const root = mkdtempSync(join(tmpdir(), 'factdesk-tests-'))
  process.env.TMPDIR = root
  process.env.FACTDESK_TEST_ROOT = root
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    delete process.env.FACTDESK_TEST_ROOT
    stopTestCluster(root)
    rmSync(root, { recursive: true, force: true })
  }
}

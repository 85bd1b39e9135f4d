#!/usr/bin/env -S MALLOC_TRIM_THRESHOLD_=131072 node --max-semi-space-size=2
// The `factdesk` command: runs the built CLI (npm run build writes it). V8 sizes the young generation only when
// Node starts (v8.setFlagsFromString comes too late), so the line above caps it: V8's default let `serve`'s grow to
// tens of MB in its first checks and keep them resident, for no faster answers (CHANGELOG, 2026-11-26). It also fixes
// glibc's trim threshold (Linux; the C library reads it only at start): freeing one large buffer (Harper's 16 MB
// binary, read at start) otherwise raised it to 32 MB, and about 25 MB that the threads had freed stayed resident.
// npm's command shims pass both on Windows too; `node bin/factdesk.js` runs without them.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url))
if (!existsSync(cli)) {
  console.error('factdesk: not built yet: run "npm run build" in the Factdesk folder first.')
  process.exit(1)
}
await import(cli)

#!/usr/bin/env node
// The `factdesk` command: runs the built CLI (npm run build writes it).
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const cli = fileURLToPath(new URL('../out/main/cli.js', import.meta.url))
if (!existsSync(cli)) {
  console.error('factdesk: not built yet: run "npm run build" in the Factdesk folder first.')
  process.exit(1)
}
await import(cli)

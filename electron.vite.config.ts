import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'
import { META_CONTENT_SECURITY_POLICY } from './src/shared/csp'

/// Puts the page's Content-Security-Policy in the built index.html. Only at build time: in development the
/// React refresh preamble is an inline script, which the shell's (relaxed, development-only) header allows.
const contentSecurityPolicyMeta = (): Plugin => ({
  name: 'factdesk-csp-meta',
  apply: 'build',
  transformIndexHtml: () => [
    {
      tag: 'meta',
      attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CONTENT_SECURITY_POLICY },
      injectTo: 'head-prepend',
    },
  ],
})

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // The desktop shell and the headless CLI share one engine bundle.
        // t1-worker: the spelling checker's worker thread, started from out/main/t1-worker.js; claims-worker: a
        // thread of the claim extraction pool (out/main/claims-worker.js); exports-worker: a thread of the export
        // pool (out/main/exports-worker.js).
        input: {
          index: resolve('src/main/index.ts'),
          cli: resolve('src/main/cli/index.ts'),
          't1-worker': resolve('src/main/engine/tiers/t1/worker.ts'),
          'claims-worker': resolve('src/main/engine/claims/worker.ts'),
          'exports-worker': resolve('src/main/engine/exports/worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot be an ES module: emit CommonJS as index.cjs.
      rollupOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react(), contentSecurityPolicyMeta()],
    build: { minify: true, rollupOptions: { input: resolve('src/renderer/index.html') } },
    // The spelling checker's worker (editor/lint.worker.ts) is a module: harper.js splits into chunks.
    worker: { format: 'es' },
    // Pre-bundled for the dev server, harper.js would look for its WebAssembly beside the bundle, where it is not.
    optimizeDeps: { exclude: ['harper.js'] },
  },
})

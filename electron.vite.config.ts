import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // The desktop shell and the headless CLI share one engine bundle.
        // t1-worker: the spelling checker's worker thread, started from out/main/t1-worker.js.
        input: {
          index: resolve('src/main/index.ts'),
          cli: resolve('src/main/cli/index.ts'),
          't1-worker': resolve('src/main/engine/tiers/t1/worker.ts'),
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
    plugins: [react()],
    build: { rollupOptions: { input: resolve('src/renderer/index.html') } },
  },
})

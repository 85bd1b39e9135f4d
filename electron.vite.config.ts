import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        // The desktop shell and the headless CLI share one engine bundle.
        input: { index: resolve('src/main/index.ts'), cli: resolve('src/main/cli/index.ts') },
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

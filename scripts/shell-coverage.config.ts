import { defineConfig, mergeConfig } from 'vitest/config'
import base from '../vitest.config'

/// The unit tests' configuration, in worker processes (where NODE_V8_COVERAGE applies) that write it per file.
export default mergeConfig(
  base,
  defineConfig({ test: { pool: 'forks', setupFiles: ['scripts/shell-coverage.setup.ts'] } }),
)

import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

const electronOnlyInShell = {
  paths: [
    {
      name: 'electron',
      message: "Only src/main/index.ts, src/main/desktop/ and src/preload/ may import 'electron'.",
    },
  ],
}

/// The editor may import CodeMirror, Lezer, src/shared and its own files, and whatever `also` matches.
const editorOnly = (also) => ({
  ...electronOnlyInShell,
  patterns: [
    {
      regex: `^(?!@codemirror/|@lezer/|\\./|\\.\\./\\.\\./\\.\\./shared/${also ? `|${also}` : ''})`,
      message:
        'src/renderer/src/editor is CodeMirror only: it imports @codemirror/*, @lezer/*, src/shared and itself.',
    },
  ],
})

export default tseslint.config(
  {
    ignores: [
      'out/',
      'dist/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'e2e/output/',
      'bench/results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The layering rule (architecture.md): imports point only towards the more general layer.
  {
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...electronOnlyInShell,
          patterns: [
            {
              group: ['node:*', '../main/*', '../renderer/*', '../preload/*'],
              message: 'src/shared is the contract: no Node, no other layer.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/main/engine/**', 'src/main/server/**', 'src/main/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...electronOnlyInShell,
          patterns: [
            {
              group: ['**/desktop/*', '**/renderer/*', '**/preload/*'],
              message: 'The engine, server and CLI never reach into the shell or the page.',
            },
          ],
        },
      ],
    },
  },
  {
    // src/main/engine/files/ (reading and writing the writer's files) is the engine's too.
    files: ['src/main/engine/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...electronOnlyInShell,
          patterns: [
            {
              group: ['**/server/*', '**/cli/*', '**/desktop/*', '**/renderer/*', 'hono', '@hono/*'],
              message: 'The engine knows nothing of HTTP, the CLI or the shell.',
            },
          ],
        },
      ],
    },
  },
  {
    // The client of a remote Factdesk service: the engine's interface and the contract, nothing of the shell.
    files: ['src/main/remote/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...electronOnlyInShell,
          patterns: [
            {
              group: [
                '**/server/*',
                '**/cli/*',
                '**/desktop/*',
                '**/renderer/*',
                '**/preload/*',
                'hono',
                '@hono/*',
              ],
              message:
                'The remote service client stands on the engine and src/shared: no server, CLI, shell or page.',
            },
          ],
        },
      ],
    },
  },
  {
    // A sandboxed preload loads no Node modules and no main-process code: it hands src/shared's API to the page.
    files: ['src/preload/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', '**/main/*', '**/renderer/*'],
              message: 'The preload imports electron and src/shared only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          ...electronOnlyInShell,
          patterns: [
            {
              group: ['node:*', '**/main/*', '**/preload/*'],
              message: 'The renderer imports src/shared only and talks through a bridge.',
            },
          ],
        },
      ],
    },
  },
  // The editor's floor (docs/architecture.md): CodeMirror extensions that import CodeMirror, Lezer, src/shared and
  // each other only; the page's state and components reach them, never the other way. The spelling worker alone
  // also loads Harper: it is the other half of the editor's lint source, run off the main thread.
  {
    files: ['src/renderer/src/editor/**'],
    rules: {
      'no-restricted-imports': ['error', editorOnly()],
    },
  },
  {
    files: ['src/renderer/src/editor/lint.worker.ts'],
    rules: {
      'no-restricted-imports': ['error', editorOnly('harper\\.js(?:/|$)')],
    },
  },
  // The renderer's stores stay readable: an action or a store's setup longer than a screen is split.
  {
    files: ['src/renderer/src/state/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  // Tests read untyped JSON from real HTTP replies.
  {
    files: ['test/**', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
)

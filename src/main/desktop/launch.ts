import { extname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { OPENABLE } from '../engine/files/formats'

// What the app's command line asks, read without Electron. Not strict: Chromium's and Electron's switches share
// the command line.
const OPTIONS = { config: { type: 'string' } } as const

/// V8's flags for the app's processes, as `factdesk serve` runs (bin/factdesk.js): a young generation of 2 MB
/// semi-spaces, which kept `serve` tens of MB smaller for no slower answers. V8 sizes it only as a process starts,
/// so the main process takes it from its launch (`npm start`, the Linux packages' `executableArgs`) and every
/// process it starts after, the window's page included, from `app.commandLine.appendSwitch('js-flags', …)`.
export const JS_FLAGS = '--max-semi-space-size=2'

/// The configuration file of `--config FILE` on the app's command line, as the CLI takes it: JSON, never a secret
/// (keys come from `apiKeyEnv` or Settings).
export function configFile(args: string[]): string | undefined {
  const { values } = parseArgs({ args, options: OPTIONS, strict: false, allowPositionals: true })
  if (values.config === true || values.config === '') throw new Error('--config needs a file: --config FILE')
  return typeof values.config === 'string' ? values.config : undefined
}

/// The file a command line asks Factdesk to open ("Open with", a file dropped on its icon): the last argument
/// naming a Markdown, text or Word file, from `cwd`, the folder of the process that was asked. `argv` is the whole
/// command line, the executable first (and, in development, the app's path, which is no such file).
export function fileToOpen(argv: readonly string[], cwd: string): string | null {
  const { positionals } = parseArgs({
    args: argv.slice(1),
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
  })
  const file = positionals.findLast((arg) => OPENABLE.includes(extname(arg).toLowerCase()))
  return file === undefined ? null : resolve(cwd, file)
}

/// The files the system asks to open, held until the window can take them (macOS sends `open-file` before the
/// app is ready, and a second instance's command line may come during the start) and then handed over in order.
export class FilesToOpen {
  private readonly waiting: string[] = []
  private open: ((path: string) => void) | null = null

  add(path: string | null): void {
    if (path === null) return
    if (this.open) this.open(path)
    else this.waiting.push(path)
  }

  /// From now on each file goes to `open`, the ones waiting first.
  openWith(open: (path: string) => void): void {
    this.open = open
    for (const path of this.waiting.splice(0)) open(path)
  }
}

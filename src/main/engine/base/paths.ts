import { mkdirSync } from 'node:fs'
import { homedir } from 'node:os'
import { isAbsolute, join } from 'node:path'

/// The desktop app's data folder (Electron's `userData` for an app named Factdesk), which the CLI uses too
/// unless `--data-dir` or `FACTDESK_DATA_DIR` says otherwise.
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.FACTDESK_DATA_DIR) return env.FACTDESK_DATA_DIR
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Factdesk')
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Factdesk')
  // The XDG base directory specification: an unset, empty or relative XDG_CONFIG_HOME means ~/.config.
  const xdgConfig = env.XDG_CONFIG_HOME
  return join(xdgConfig && isAbsolute(xdgConfig) ? xdgConfig : join(homedir(), '.config'), 'Factdesk')
}

/// A data folder that cannot be made or used, in words.
export class DataFolderError extends Error {
  override name = 'DataFolderError'
}

/// Makes the data folder, which only its owner may read, or says in words why it cannot be made.
export function makeDataFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why =
      code === 'EEXIST' || code === 'ENOTDIR'
        ? 'a file is in the way'
        : code === 'EACCES' || code === 'EPERM'
          ? 'there is no permission to create it'
          : code === 'EROFS'
            ? 'the disk is read-only'
            : code === 'ENOSPC'
              ? 'the disk is full'
              : (error as Error).message
    throw new DataFolderError(`The data folder ${dir} cannot be used: ${why}.`)
  }
}

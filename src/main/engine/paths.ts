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

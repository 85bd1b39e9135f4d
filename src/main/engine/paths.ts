import { homedir } from 'node:os'
import { join } from 'node:path'

/// The desktop app's data folder (Electron's `userData` for an app named Factdesk), which the CLI uses too
/// unless `--data-dir` or `FACTDESK_DATA_DIR` says otherwise.
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.FACTDESK_DATA_DIR) return env.FACTDESK_DATA_DIR
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Factdesk')
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Factdesk')
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Factdesk')
}

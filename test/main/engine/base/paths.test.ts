import { homedir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultDataDir } from '../../../../src/main/engine/base/paths'

describe("the desktop app's data folder", () => {
  const config = join(homedir(), '.config', 'Factdesk')

  it('follows FACTDESK_DATA_DIR, then XDG_CONFIG_HOME on Linux', () => {
    expect(defaultDataDir({ FACTDESK_DATA_DIR: '/srv/factdesk' }, 'linux')).toBe('/srv/factdesk')
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/home/ada/conf' }, 'linux')).toBe('/home/ada/conf/Factdesk')
    expect(defaultDataDir({}, 'linux')).toBe(config)
  })

  it('takes an empty or relative XDG_CONFIG_HOME for unset, as the XDG specification says', () => {
    expect(defaultDataDir({ XDG_CONFIG_HOME: '' }, 'linux')).toBe(config)
    expect(defaultDataDir({ XDG_CONFIG_HOME: 'conf' }, 'linux')).toBe(config)
    expect(defaultDataDir({ FACTDESK_DATA_DIR: '', XDG_CONFIG_HOME: '' }, 'linux')).toBe(config)
  })
})

import { readFileSync } from 'node:fs'
import { Config } from '../../../shared/config'

/// The configuration file is missing, not JSON, or not valid; the message says which member and why.
export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

/// Reads and validates the configuration file; no file means every default.
export function loadConfig(file?: string): Config {
  if (!file) return Config.parse({})
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new ConfigError(`Cannot read the config file ${file}: ${(error as Error).message}`)
  }
  let json: unknown
  try {
    // A leading byte-order mark (editors on Windows write one) is not part of the JSON.
    json = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    throw new ConfigError(`The config file ${file} is not valid JSON: ${(error as Error).message}`)
  }
  return parseConfig(json, `The config file ${file}`)
}

/// Validates a configuration value, naming each wrong member.
export function parseConfig(value: unknown, source = 'The configuration'): Config {
  const result = Config.safeParse(value)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => {
    const member = issue.path.length > 0 ? issue.path.join('.') : '(top level)'
    return `  ${member}: ${issue.message}`
  })
  throw new ConfigError(`${source} is not valid:\n${problems.join('\n')}`)
}

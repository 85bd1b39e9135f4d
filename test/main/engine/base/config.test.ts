import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../../src/main/engine/base/config'
import { tempDir } from '../../../helpers/server'

const write = (content: string): string => {
  const file = join(tempDir(), 'factdesk.json')
  writeFileSync(file, content)
  return file
}

describe('the config file', () => {
  it('no file means every default', () => {
    const config = loadConfig()
    expect(config.pricing).toEqual({ t1: 1, t2: 4, t3: 10, research: 40 })
    expect(config.limits.maxTextChars).toBe(200_000)
    expect(config.webhooks).toEqual({
      allowLocalTargets: false,
      retryDelaysSeconds: [10, 30, 60, 120, 300, 600, 1200],
    })
    expect(config.web.allowLocalTargets).toBe(false)
    expect(config.models).toEqual({ panel: [], judge: null, verifier: null, majority: 2 / 3, resolver: null })
    expect(config.research).toEqual({ maxSearches: 3 })
  })

  it('takes a MiniCheck verifier, and refuses a verifier of another kind or too many searches', () => {
    const verifier = { id: 'minicheck', provider: 'ollama', model: 'bespoke-minicheck', kind: 'minicheck' }
    expect(loadConfig(write(JSON.stringify({ models: { verifier } }))).models.verifier).toEqual(verifier)
    const general = { ...verifier, kind: undefined }
    expect(loadConfig(write(JSON.stringify({ models: { verifier: general } }))).models.verifier?.kind).toBe(
      'llm',
    )
    expect(() =>
      loadConfig(write(JSON.stringify({ models: { verifier: { ...verifier, kind: 'oracle' } } }))),
    ).toThrow(/models\.verifier\.kind/)
    expect(() => loadConfig(write(JSON.stringify({ research: { maxSearches: 11 } })))).toThrow(
      /research\.maxSearches/,
    )
  })

  it('reads the example of api-decisions.md', () => {
    const config = loadConfig(
      write(
        JSON.stringify({
          models: {
            panel: [
              {
                id: 'panel-a',
                provider: 'openai-compatible',
                baseURL: 'http://127.0.0.1:11434/v1',
                model: 'llama3.1:8b',
                apiKeyEnv: 'OLLAMA_KEY',
              },
            ],
            judge: { id: 'judge', provider: 'openai', model: 'gpt-5-mini', apiKeyEnv: 'OPENAI_API_KEY' },
          },
          search: { provider: 'wikipedia', baseURL: 'https://en.wikipedia.org/w/api.php' },
          web: { allowLocalTargets: false },
          webhooks: { allowLocalTargets: false, retryDelaysSeconds: [10, 30, 60, 120, 300, 600, 1200] },
          pricing: { t1: 1, t2: 4, t3: 10, research: 40 },
          limits: { maxTextChars: 200000 },
        }),
      ),
    )
    expect(config.models.panel[0]?.model).toBe('llama3.1:8b')
    expect(config.models.judge?.provider).toBe('openai')
  })

  it('partial members keep the other defaults', () => {
    const config = loadConfig(write('{"pricing":{"t2":7}}'))
    expect(config.pricing).toEqual({ t1: 1, t2: 7, t3: 10, research: 40 })
  })

  it('names the member and the reason of every problem', () => {
    const file = write(
      JSON.stringify({
        models: { panel: [{ id: 'a', provider: 'acme', model: 'm' }] },
        pricing: { t1: -1 },
        limits: { maxTextChars: 'lots' },
        apiKey: 'sk-secret',
      }),
    )
    expect(() => loadConfig(file)).toThrow(ConfigError)
    try {
      loadConfig(file)
    } catch (error) {
      const message = (error as Error).message
      expect(message).toContain(file)
      expect(message).toMatch(/models\.panel\.0\.provider: .*expected one of/)
      expect(message).toMatch(/pricing\.t1: .*>=0/)
      expect(message).toMatch(/limits\.maxTextChars: .*expected number/)
      expect(message).toMatch(/\(top level\): Unrecognized key: "apiKey"/)
      expect(message).not.toContain('sk-secret')
    }
  })

  it('refuses waits a timer cannot keep and webhook retries that are no date', () => {
    const file = write(
      JSON.stringify({
        models: { requestTimeoutMs: 2 ** 31, retryDelayMs: 600_000 },
        search: { timeoutMs: 86_400_000 },
        webhooks: { retryDelaysSeconds: [10, 1e12] },
      }),
    )
    expect(() => loadConfig(file)).toThrow(ConfigError)
    const message = (() => {
      try {
        loadConfig(file)
        return ''
      } catch (error) {
        return (error as Error).message
      }
    })()
    expect(message).toMatch(/models\.requestTimeoutMs: .*<=3600000/)
    expect(message).toMatch(/models\.retryDelayMs: .*<=60000/)
    expect(message).toMatch(/search\.timeoutMs: .*<=300000/)
    expect(message).toMatch(/webhooks\.retryDelaysSeconds\.1: .*<=604800/)
    const longest = { models: { requestTimeoutMs: 3_600_000 }, webhooks: { retryDelaysSeconds: [604_800] } }
    expect(loadConfig(write(JSON.stringify(longest))).models.requestTimeoutMs).toBe(3_600_000)
  })

  it('says when the file is missing or not JSON', () => {
    expect(() => loadConfig('/nonexistent/factdesk.json')).toThrow(
      /Cannot read the config file \/nonexistent\/factdesk.json/,
    )
    expect(() => loadConfig(write('{ "models": '))).toThrow(/is not valid JSON/)
  })

  it('refuses duplicate panel ids and a key put in the file instead of an environment variable name', () => {
    const panel = [
      { id: 'a', provider: 'openai', model: 'x' },
      { id: 'a', provider: 'openai', model: 'y' },
    ]
    expect(() => loadConfig(write(JSON.stringify({ models: { panel } })))).toThrow(
      /models\.panel: model ids must be unique/,
    )
    const keyed = { models: { judge: { id: 'j', provider: 'openai', model: 'x', apiKeyEnv: 'sk-live-123' } } }
    expect(() => loadConfig(write(JSON.stringify(keyed)))).toThrow(
      /models\.judge\.apiKeyEnv: must be the name of an environment variable/,
    )
  })
})

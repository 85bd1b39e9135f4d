import { performance } from 'node:perf_hooks'
import { z } from 'zod'
import { everyModel, sameAddress, type Config, type ModelConfig } from '../../../shared/config'
import type {
  ModelTest,
  ModelTestRequest,
  OllamaDetection,
  SearchTest,
  SearchTestRequest,
} from '../../../shared/schemas'
import { apiKeys, type ApiKeys, type Env } from '../base/keys'
import { Limiters, ModelClient, modelHandle } from '../models'
import type { Principal } from '../checks/access'
import { NO_POLICY, Web } from '../web'
import { modelConfig } from './saved'

/// What the probes read of the settings: the configuration in force, its keys, and the rules on what the
/// form may name.
export interface ProbedSettings {
  readonly keys: ApiKeys
  effective(): Config
  requireKeyVariables(field: string, names: (string | null | undefined)[]): void
  requirePublicSearch(field: string, baseURL: string): Promise<void>
}

export interface ProbeOptions {
  /// Where a local Ollama answers (tests point it at a fake).
  ollamaOrigin?: string
  env?: Env
}

const DEFAULT_OLLAMA_ORIGIN = 'http://127.0.0.1:11434'
/// How long a test request or the Ollama probe may take.
const TEST_TIMEOUT_MS = 20_000
const PROBE_TIMEOUT_MS = 3_000
/// What a search provider is asked when tested.
const SEARCH_TEST_QUERY = 'fact-checking'

/// The answer a connection test asks for: as small as a structured answer can be.
const Pong = z.object({ ok: z.boolean() })
const OllamaTags = z.object({ models: z.array(z.object({ name: z.string() })) })

/// The settings' connection tests, of the owner only: a model and a search provider as entered in the form
/// (before they are saved), and the models a local Ollama has. Each answers what happened in words.
export class ConnectionProbes {
  constructor(
    private readonly settings: ProbedSettings,
    private readonly options: ProbeOptions,
  ) {}

  /// One small structured request to the model as entered (its key: the one given, else the saved one while
  /// the provider and address are those it was saved for, else its environment variable): ok with the time it
  /// took, or what went wrong in words.
  async testModel(principal: Principal, input: ModelTestRequest): Promise<ModelTest> {
    this.settings.requireKeyVariables('apiKeyEnv', [input.apiKeyEnv])
    const config = modelConfig(input)
    const saved = everyModel(this.settings.effective().models).find((model) => model.id === config.id)
    const keys = this.testKeys(input.apiKey, saved !== undefined && sameAddress(saved, config))
    const client = new ModelClient(
      {
        requestTimeoutMs: TEST_TIMEOUT_MS,
        maxRetries: 0,
        retryDelayMs: 1000,
        concurrencyPerProvider: 1,
      },
      // A test is not held up behind the checks' requests to the same provider.
      new Limiters(1),
    )
    const started = performance.now()
    try {
      await client.generate(modelHandle(config, 'Settings > Models', keys), {
        system: 'You answer connection tests.',
        prompt: 'Answer with {"ok": true}.',
        schema: Pong,
        name: 'connection_test',
        signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
      })
    } catch (error) {
      return { ok: false, latencyMs: null, message: testFailure(error, config) }
    }
    const latencyMs = Math.round(performance.now() - started)
    return { ok: true, latencyMs, message: `${config.model} answered in ${latencyMs} ms.` }
  }

  /// One search through the provider as entered (its key: the one given, else the saved one while the provider
  /// and address are those it was saved for, else its environment variable), under the same address rules and
  /// time cap as t3's: ok with the time it took and the first results, or what went wrong in words.
  async testSearch(principal: Principal, input: SearchTestRequest): Promise<SearchTest> {
    this.settings.requireKeyVariables('apiKeyEnv', [input.apiKeyEnv])
    await this.settings.requirePublicSearch('baseURL', input.baseURL)
    const config = this.settings.effective()
    const keys = this.testKeys(input.apiKey, sameAddress(config.search, input))
    const search = { ...config.search, provider: input.provider, baseURL: input.baseURL }
    if (input.apiKeyEnv !== undefined) search.apiKeyEnv = input.apiKeyEnv ?? undefined
    // The provider as it answers: no source policy between it and the test.
    const web = new Web({ search, web: config.web, sources: NO_POLICY }, {}, keys)
    const started = performance.now()
    try {
      const found = await web.search(SEARCH_TEST_QUERY, 3, AbortSignal.timeout(TEST_TIMEOUT_MS))
      const latencyMs = Math.round(performance.now() - started)
      const results = found.map(({ title, url }) => ({ title, url }))
      const message =
        results.length === 0
          ? `It answered in ${latencyMs} ms but found nothing for "${SEARCH_TEST_QUERY}".`
          : `${results.length} result${results.length === 1 ? '' : 's'} for "${SEARCH_TEST_QUERY}" in ${latencyMs} ms, ` +
            `the first "${results[0]?.title}".`
      return { ok: true, latencyMs, message, results }
    } catch (error) {
      return { ok: false, latencyMs: null, message: reason(error), results: [] }
    }
  }

  /// Asks a local Ollama for the models it has pulled (`GET /api/tags`).
  async detectOllama(): Promise<OllamaDetection> {
    const origin = this.options.ollamaOrigin ?? DEFAULT_OLLAMA_ORIGIN
    const baseURL = `${origin}/v1`
    try {
      const response = await fetch(`${origin}/api/tags`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
      if (!response.ok) throw new Error(`it answered HTTP ${response.status}`)
      const tags = OllamaTags.parse(await response.json())
      const models = tags.models.map((model) => model.name).sort()
      return {
        running: true,
        baseURL,
        models,
        message:
          models.length === 0
            ? 'Ollama runs but has no models yet: pull one, e.g. `ollama pull llama3.1:8b`.'
            : `Ollama runs with ${models.length} model${models.length === 1 ? '' : 's'}.`,
      }
    } catch (error) {
      const why = reason(error)
      return {
        running: false,
        baseURL,
        models: [],
        message: /ECONNREFUSED/.test(why)
          ? `No Ollama is running on this computer (nothing answers at ${origin}). Start it with \`ollama serve\`.`
          : `No Ollama answers at ${origin} (${why}). Start it with \`ollama serve\`.`,
      }
    }
  }

  /// The keys a connection test uses: the one the form gives (null: none), else the saved ones while the test
  /// asks the provider and address they were saved for, else only the environment's.
  private testKeys(given: string | null | undefined, savedFor: boolean): ApiKeys {
    if (given !== undefined) return { model: () => given ?? undefined, search: () => given ?? undefined }
    return savedFor ? this.settings.keys : apiKeys(null, this.options.env)
  }
}

/// Why a request failed, in words: the underlying cause's message (a refused connection, say) when it has one.
export const reason = (error: unknown): string =>
  error instanceof Error
    ? error.name === 'TimeoutError'
      ? 'no answer'
      : (error.cause instanceof Error ? error.cause.message : '') || error.message
    : String(error)

/// What a failed connection test means, in words, with the provider's own message after it.
function testFailure(error: unknown, model: ModelConfig): string {
  const detail = reason(error)
  const status = /HTTP (\d{3})/.exec(detail)?.[1]
  if (status === '401' || status === '403') return `The key was refused. ${detail}`
  if (status === '404') return `The model "${model.model}" or the base URL is not known there. ${detail}`
  if (status === undefined && /request failed|ECONNREFUSED|ENOTFOUND|fetch failed/i.test(detail)) {
    return `The server cannot be reached. ${detail}`
  }
  return detail
}

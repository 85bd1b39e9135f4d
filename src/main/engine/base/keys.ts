/// The environment API keys are read from when the app has none saved (the process environment).
export type Env = Readonly<Record<string, string | undefined>>

/// Keys saved in the app's encrypted store, by name (`modelKeyName(id)`, or `SEARCH_KEY`), decrypted on reading.
export interface SavedKeys {
  read(name: string): string | undefined
}

/// The saved key of a model, by the model's id.
export const modelKeyName = (modelId: string): string => `model:${modelId}`
/// The saved key of the search provider.
export const SEARCH_KEY = 'search'

/// Where the engine's parts get their API keys: the app's store first, then the environment variable the
/// configuration names (`apiKeyEnv`). Undefined when neither has one.
export interface ApiKeys {
  model(modelId: string, apiKeyEnv: string | undefined): string | undefined
  search(apiKeyEnv: string | undefined): string | undefined
}

/// The one function that resolves a key: the saved one named `name`, else the variable `apiKeyEnv` of `env`.
export function resolveKey(
  saved: SavedKeys | null,
  name: string,
  apiKeyEnv: string | undefined,
  env: Env,
): string | undefined {
  return saved?.read(name) ?? ((apiKeyEnv !== undefined && env[apiKeyEnv]) || undefined)
}

/// Keys from `saved` (none in the CLI and in tests that need none) and from `env`.
export function apiKeys(saved: SavedKeys | null = null, env: Env = process.env): ApiKeys {
  return {
    model: (modelId, apiKeyEnv) => resolveKey(saved, modelKeyName(modelId), apiKeyEnv, env),
    search: (apiKeyEnv) => resolveKey(saved, SEARCH_KEY, apiKeyEnv, env),
  }
}

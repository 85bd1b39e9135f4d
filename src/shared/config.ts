import { z } from 'zod'
import { DEFAULT_PRICES } from './pricing'

/// The engine's configuration file (api-decisions.md, "Headless server and configuration"). Every member is
/// optional; secrets are never in the file, only the name of the environment variable that holds them.

export const ModelConfig = z.strictObject({
  id: z.string().min(1),
  provider: z.enum(['openai', 'anthropic', 'google', 'ollama', 'openai-compatible']),
  baseURL: z.url({ protocol: /^https?$/ }).optional(),
  model: z.string().min(1),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable')
    .optional(),
})
export type ModelConfig = z.infer<typeof ModelConfig>

const delays = z.array(z.number().int().positive()).min(1)

export const Config = z.strictObject({
  models: z
    .strictObject({
      panel: z
        .array(ModelConfig)
        .default([])
        .refine((panel) => new Set(panel.map((m) => m.id)).size === panel.length, 'model ids must be unique'),
      judge: ModelConfig.nullable().default(null),
      // How models are called; absent members take the defaults of src/main/engine/models (README).
      /// Claims of one check sent to a panel model in one request.
      batchSize: z.number().int().min(1).max(16).optional(),
      /// Time allowed for one request before it is abandoned and retried.
      requestTimeoutMs: z.number().int().positive().optional(),
      /// Retries of a request after a 429, a 5xx, a timeout or a lost connection.
      maxRetries: z.number().int().min(0).max(10).optional(),
      /// First backoff delay; doubled each retry, with jitter. A Retry-After header wins.
      retryDelayMs: z.number().int().positive().optional(),
      /// Requests in flight at once to one provider (one base URL).
      concurrencyPerProvider: z.number().int().positive().optional(),
    })
    .prefault({}),
  search: z
    .strictObject({
      provider: z.enum(['wikipedia', 'brave', 'tavily', 'searxng']).default('wikipedia'),
      baseURL: z.url({ protocol: /^https?$/ }).default('https://en.wikipedia.org/w/api.php'),
      apiKeyEnv: z.string().optional(),
    })
    .prefault({}),
  web: z.strictObject({ allowLocalTargets: z.boolean().default(false) }).prefault({}),
  webhooks: z
    .strictObject({
      allowLocalTargets: z.boolean().default(false),
      retryDelaysSeconds: delays.default([10, 30, 60, 120, 300, 600, 1200]),
    })
    .prefault({}),
  pricing: z
    .strictObject({
      t1: z.number().int().nonnegative().default(DEFAULT_PRICES.t1),
      t2: z.number().int().nonnegative().default(DEFAULT_PRICES.t2),
      t3: z.number().int().nonnegative().default(DEFAULT_PRICES.t3),
      research: z.number().int().nonnegative().default(DEFAULT_PRICES.research),
    })
    .prefault({}),
  limits: z.strictObject({ maxTextChars: z.number().int().positive().default(200_000) }).prefault({}),
})
export type Config = z.infer<typeof Config>
export type ConfigInput = z.input<typeof Config>

import { z } from 'zod'
import { DEFAULT_PRICES } from './pricing'
import { MAX_FILE_BYTES, ModelProvider, SourcePolicyInput } from './schemas'

/// The engine's configuration file (api-decisions.md, "Headless server and configuration"). Every member is
/// optional; secrets are never in the file, only the name of the environment variable that holds them.

export const ModelConfig = z.strictObject({
  id: z.string().min(1),
  provider: ModelProvider,
  baseURL: z.url({ protocol: /^https?$/ }).optional(),
  model: z.string().min(1),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable')
    .optional(),
  /// What the provider charges for the model, in dollars per million tokens in and out: the verification
  /// eval's cost column (the engine itself does not read it).
  price: z
    .strictObject({ inputPerMTok: z.number().nonnegative(), outputPerMTok: z.number().nonnegative() })
    .optional(),
})
export type ModelConfig = z.infer<typeof ModelConfig>

/// The model that judges how each verified quote bears on its claim (supports, refutes, neutral). `kind`
/// "minicheck" is a model that answers a plain "Document: … Claim: …" with Yes or No (Ollama's
/// bespoke-minicheck): Yes reads as supports, No as neutral, since it cannot say refutes.
export const VerifierConfig = ModelConfig.extend({
  kind: z.enum(['llm', 'minicheck']).default('llm'),
})
export type VerifierConfig = z.infer<typeof VerifierConfig>

/// The panel's models, then the judge, then the resolver when it is another model.
export const everyModel = <T>(models: {
  panel: readonly T[]
  judge?: T | null | undefined
  resolver?: T | null | undefined
}): T[] => [
  ...models.panel,
  ...(models.judge ? [models.judge] : []),
  ...(models.resolver ? [models.resolver] : []),
]

/// Whether two models or search providers are asked at the same place (no base URL and an empty one alike:
/// the provider's default). A saved key is sent only there.
export const sameAddress = (
  a: { provider: string; baseURL?: string | null | undefined },
  b: { provider: string; baseURL?: string | null | undefined },
): boolean => a.provider === b.provider && (a.baseURL?.trim() || null) === (b.baseURL?.trim() || null)

/// A webhook's retry delays: at most a week each, so that the next attempt is a date (a delay in the billions of
/// seconds is no date), and at most 20 retries.
const delays = z
  .array(
    z
      .number()
      .int()
      .positive()
      .max(7 * 24 * 3600),
  )
  .min(1)
  .max(20)

/// Waits in milliseconds are capped where they stop making sense: far below the longest a timer can wait
/// (2^31 − 1 ms, about 24.8 days; a longer one fires at once), even when the engine adds them up.
const waitMs = (max: number) => z.number().int().positive().max(max)
const HOUR_MS = 3_600_000

/// The public endpoint of each search provider (SearXNG has none: `search.baseURL` names the instance).
export const SEARCH_BASE_URLS = {
  wikipedia: 'https://en.wikipedia.org/w/api.php',
  brave: 'https://api.search.brave.com/res/v1/web/search',
  tavily: 'https://api.tavily.com/search',
  searxng: '',
} as const

/// Whether `text` is a PostgreSQL URL as libpq and node-postgres read it: `postgres://` or `postgresql://`, then
/// user, password, host, port, database and parameters, each optional.
export const isDatabaseUrl = (text: string): boolean =>
  /^postgres(?:ql)?:\/\//i.test(text) && URL.canParse(text)

/// A team server's PostgreSQL database, e.g. "postgres://factdesk@db.example.org:5432/factdesk".
export const DatabaseUrl = z
  .string()
  .refine(
    isDatabaseUrl,
    'must be a PostgreSQL URL, such as "postgres://factdesk@db.example.org:5432/factdesk"',
  )

export const Config = z.strictObject({
  /// The team server's PostgreSQL database, for the `factdesk` commands (`--database` and FACTDESK_DATABASE_URL
  /// win over it); absent means the data folder's SQLite. The desktop app does not read it.
  database: DatabaseUrl.optional(),
  models: z
    .strictObject({
      panel: z
        .array(ModelConfig)
        .default([])
        .refine((panel) => new Set(panel.map((m) => m.id)).size === panel.length, 'model ids must be unique'),
      judge: ModelConfig.nullable().default(null),
      /// Judges the stance of t3's verified quotes; absent means the judge.
      verifier: VerifierConfig.nullable().default(null),
      /// The share of a split panel's final votes (after its debate) that decides without the judge: more than
      /// half; 1 leaves every split to the judge.
      majority: z
        .number()
        .gt(0.5)
        .max(1)
        .default(2 / 3),
      /// Rewrites claims as self-contained statements before they are checked; absent means the judge.
      resolver: ModelConfig.nullable().default(null),
      // How models are called; absent members take the defaults of src/main/engine/models (docs/configuration.md).
      /// Claims of one check sent to a panel model in one request.
      batchSize: z.number().int().min(1).max(16).optional(),
      /// How long a batch waits for more claims before it is sent part-full.
      batchWindowMs: z.number().int().min(0).max(10_000).optional(),
      /// Time allowed for one request before it is abandoned and retried.
      requestTimeoutMs: waitMs(HOUR_MS).optional(),
      /// Retries of a request after a 429, a 5xx, a timeout or a lost connection.
      maxRetries: z.number().int().min(0).max(10).optional(),
      /// First backoff delay; doubled each retry, with jitter. A Retry-After header wins.
      retryDelayMs: waitMs(60_000).optional(),
      /// Requests in flight at once to one provider (one base URL).
      concurrencyPerProvider: z.number().int().positive().optional(),
    })
    .prefault({}),
  search: z
    .strictObject({
      provider: z.enum(['wikipedia', 'brave', 'tavily', 'searxng']).default('wikipedia'),
      /// The provider's endpoint; absent means its public one (SearXNG has none: the instance is yours).
      baseURL: z.url({ protocol: /^https?$/ }).optional(),
      apiKeyEnv: z.string().optional(),
      /// Requests to the provider per second at most; absent means the provider's own default.
      requestsPerSecond: z.number().positive().max(100).optional(),
      /// Time allowed for one search request.
      timeoutMs: waitMs(300_000).default(10_000),
    })
    .refine((search) => search.baseURL !== undefined || search.provider !== 'searxng', {
      path: ['baseURL'],
      message: 'SearXNG needs the address of your instance, e.g. "https://searx.example.org"',
    })
    .transform((search) => ({ ...search, baseURL: search.baseURL ?? SEARCH_BASE_URLS[search.provider] }))
    .prefault({}),
  research: z
    .strictObject({
      /// Searches t3 makes at most per claim: each after the model read the results so far and asked for more.
      maxSearches: z.number().int().min(1).max(10).default(3),
    })
    .prefault({}),
  /// Who publishes the checks' verdicts: the author of the `claimreview` export's reviews.
  publisher: z
    .strictObject({
      name: z.string().trim().min(1).optional(),
      url: z.url({ protocol: /^https?$/ }).optional(),
    })
    .prefault({}),
  /// The source policy of every organization that saved none of its own in Settings.
  sources: SourcePolicyInput.transform((policy) => ({
    prefer: policy.prefer ?? [],
    only: policy.only ?? [],
    never: policy.never ?? [],
  })).prefault({}),
  web: z
    .strictObject({
      allowLocalTargets: z.boolean().default(false),
      /// How long a fetched page is reused, by every claim that needs it.
      sourceCacheSeconds: z.number().int().nonnegative().default(3600),
    })
    .prefault({}),
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
  server: z
    .strictObject({
      /// Further names `serve` and `web` answer to, on any port (a reverse proxy's name): besides these, only
      /// the address they listen on and `localhost`, with their port.
      allowedHosts: z
        .array(
          z
            .string()
            .regex(/^[A-Za-z0-9.-]+$/, 'must be a host name, such as "factdesk.example.org", without a port')
            .transform((name) => name.toLowerCase()),
        )
        .default([]),
    })
    .prefault({}),
  /// Free work has limits (api-decisions.md, "Limits on free work"): each organization's, with defaults a single
  /// writer never meets. A store quota refused is 413 `payload_too_large`, a rate 429 `rate_limited`.
  limits: z
    .strictObject({
      maxTextChars: z.number().int().positive().default(200_000),
      /// Claim extractions an organization may ask for in a minute: estimates, and checks and pending checks of a
      /// text; more are refused (429) until the minute has passed.
      estimatesPerMinute: z.number().int().positive().default(60),
      /// How long an estimate may wait to be submitted before its stored text and claims are deleted.
      estimateHours: z
        .number()
        .positive()
        .max(24 * 365)
        .default(24),
      /// Estimates an organization keeps unsubmitted: past it, a new one expires the oldest.
      keptEstimates: z.number().int().positive().default(100),
      /// Drafts an organization keeps.
      drafts: z.number().int().positive().default(5_000),
      /// The size of all an organization's drafts' texts together, in bytes of UTF-8.
      draftBytes: z
        .number()
        .int()
        .positive()
        .default(128 * 1024 * 1024),
      /// New drafts (made, imported or opened from a file) an organization may make in a minute.
      draftsPerMinute: z.number().int().positive().default(60),
      /// Checks an organization may have waiting to run when online at once.
      pendingChecks: z.number().int().positive().default(200),
      /// The largest file `POST /drafts/import` takes, in bytes.
      importBytes: z
        .number()
        .int()
        .positive()
        .max(MAX_FILE_BYTES)
        .default(8 * 1024 * 1024),
      /// Imports an organization may have in flight at once, on each replica of a team server: the limit guards the
      /// process's memory, which holds a file while it is read.
      importsAtOnce: z.number().int().positive().max(100).default(2),
    })
    .prefault({}),
})
export type Config = z.infer<typeof Config>
export type ConfigInput = z.input<typeof Config>

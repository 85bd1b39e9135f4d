import { z } from 'zod'
import { EXPORT_FORMAT_IDS } from './exportFormats'
import { siteName } from './sources'

/// The contract: every resource of the service as a zod schema. The REST server validates and documents
/// with these, the IPC layer validates with them, and the renderer types itself from them.

// U+0000 (the database driver cuts text there) and half of a surrogate pair (no character; UTF-8 has no form
// for it), found by UTF-16 unit.
// eslint-disable-next-line no-control-regex -- U+0000 is what it looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/// Why a text cannot be stored as it is, in words with the offset (UTF-16 units) of the first character at
/// fault, or null when it can. Drafts are the exception: they keep whatever the writer typed.
export function unstorableCharacter(text: string): string | null {
  const found = UNSTORABLE.exec(text)
  if (!found) return null
  const unit = text.charCodeAt(found.index)
  const what = unit === 0 ? 'U+0000' : `an unpaired surrogate U+${unit.toString(16).toUpperCase()}`
  return `holds ${what} at offset ${found.index}`
}

/// A string the API stores: one with U+0000 or an unpaired surrogate is refused, naming the offset.
const storable = <T extends z.ZodType<string>>(schema: T): T =>
  schema.superRefine((value, context) => {
    const problem = unstorableCharacter(value)
    if (problem) context.addIssue({ code: 'custom', message: problem })
  })
const storedText = storable(z.string())

/// A tier of checking: t1 spelling and grammar, t2 model fact-check, t3 live web research.
export const Tier = z.enum(['t1', 't2', 't3']).meta({ id: 'Tier' })
export type Tier = z.infer<typeof Tier>
export const TIERS = Tier.options

/// Verdict of a model, a judge or deep research.
export const Verdict = z.enum(['supported', 'refuted', 'misleading', 'unverifiable']).meta({ id: 'Verdict' })
export type Verdict = z.infer<typeof Verdict>

/// Verdict of the spelling and grammar checker.
export const SpellingVerdict = z.enum(['clean', 'issues']).meta({ id: 'SpellingVerdict' })

export const Scope = z.enum(['read', 'write']).meta({ id: 'Scope' })
export type Scope = z.infer<typeof Scope>

export const CheckStatus = z
  .enum(['queued', 'running', 'completed', 'failed', 'cancelled'])
  .meta({ id: 'CheckStatus' })
export type CheckStatus = z.infer<typeof CheckStatus>

export const ResearchStatus = z
  .enum(['queued', 'running', 'completed', 'failed'])
  .meta({ id: 'ResearchStatus' })
export type ResearchStatus = z.infer<typeof ResearchStatus>

/// The steps of a deep research run, in order; progress updates name the one that just ended.
export const ResearchStep = z
  .enum(['plan', 'search-support', 'search-contradiction', 'map', 'votes', 'verdict'])
  .meta({ id: 'ResearchStep' })
export type ResearchStep = z.infer<typeof ResearchStep>

const timestamp = z
  .string()
  .meta({ description: 'ISO-8601 UTC timestamp', example: '2026-01-01T00:00:00.000Z' })
const unit = z.number().min(0).max(1)

/// How a cited quote bears on the claim it is cited for, as a verifier judged it.
export const Stance = z.enum(['supports', 'refutes', 'neutral']).meta({ id: 'Stance' })
export type Stance = z.infer<typeof Stance>

export const Citation = z
  .object({
    url: z.string(),
    title: z.string(),
    quote: z.string(),
    retrievedAt: timestamp,
    /// The page's own publication date, when it declares one.
    publishedAt: timestamp.nullable(),
    /// How the quote bears on the claim; null where it was not judged (a citation stored before stances).
    stance: Stance.nullable(),
    /// The page is on a site the organization's source policy prefers (a trusted source), as it stood when the
    /// citation was stored.
    preferred: z.boolean(),
  })
  .meta({ id: 'Citation' })
export type Citation = z.infer<typeof Citation>

/// Where t3 and deep research may look (api-decisions, "Source policy"): sites to rank first, the only sites to
/// search and cite (none: every site), sites never to search or cite. A site covers its subdomains; `never`
/// wins over the other two.
export const SourcePolicy = z
  .object({ prefer: z.array(z.string()), only: z.array(z.string()), never: z.array(z.string()) })
  .meta({ id: 'SourcePolicy' })
export type SourcePolicy = z.infer<typeof SourcePolicy>

/// A site as the configuration file or Settings names it (see `siteName`), written as the policy keeps it.
const sites = z
  .array(
    z
      .string()
      .max(300)
      .refine((site) => siteName(site) !== null, 'must be a domain such as "example.org", or an IP address')
      .overwrite((site) => siteName(site) ?? site),
  )
  .max(1000)
  .overwrite((list) => [...new Set(list)])

/// A source policy as written: each list optional (absent: empty, or in a Settings patch, unchanged).
export const SourcePolicyInput = z
  .strictObject({ prefer: sites.optional(), only: sites.optional(), never: sites.optional() })
  .meta({ id: 'SourcePolicyInput' })

/// Which kind of `misleading` (partly true, or true but missing context that changes its meaning) or of
/// `unverifiable` (not checkable: opinion, prediction, private; or checkable but no evidence found) a verdict is.
export const VerdictDetail = z
  .enum(['partly_true', 'missing_context', 'not_checkable', 'no_evidence'])
  .meta({ id: 'VerdictDetail' })
export type VerdictDetail = z.infer<typeof VerdictDetail>

/// Input and output tokens of a model request.
export const TokenUsage = z
  .object({ inputTokens: z.int().nonnegative(), outputTokens: z.int().nonnegative() })
  .meta({ id: 'TokenUsage' })
export type TokenUsage = z.infer<typeof TokenUsage>

export const Evaluation = z
  .object({
    tier: Tier,
    model: z.string(),
    verdict: z.union([Verdict, SpellingVerdict]),
    confidence: unit,
    rationale: z.string(),
    citations: z.array(Citation),
    createdAt: timestamp,
    /// True when the vote was reused from the vote cache (same claim text and model within 24 hours).
    cached: z.boolean(),
    /// Tokens the vote cost, when a model was asked and reported them (a batched request's share).
    usage: TokenUsage.nullable(),
    /// Which kind of misleading or unverifiable the vote says the claim is; null for the other verdicts.
    detail: VerdictDetail.nullable(),
    /// 1, or 2 for a vote cast again after seeing the other panelists' anonymised reasons (a debate round).
    round: z.int().min(1).max(2),
  })
  .meta({ id: 'Evaluation' })
export type Evaluation = z.infer<typeof Evaluation>

/// A step of a model tier that could not be done as designed and what was done instead, so that a verdict says
/// what it stands on: the claim checked as its own words with the sentences around it (the resolver failed, or
/// its statement dropped what the claim says), the evidence chosen by its words (the model named no passage it
/// was shown), a search step's top results read (the model named none), the quotes not judged for their stance,
/// the panel's majority deciding where the judge's answer could not be used.
export const Fallback = z
  .enum([
    'statement_unresolved',
    'statement_rejected',
    'evidence_ranked_by_words',
    'search_top_results',
    'quotes_not_stance_checked',
    'judge_unusable',
  ])
  .meta({ id: 'Fallback' })
export type Fallback = z.infer<typeof Fallback>

export const Consensus = z
  .object({
    verdict: z.union([Verdict, SpellingVerdict]),
    confidence: unit,
    agreement: unit,
    reasoning: z.string(),
    citations: z.array(Citation),
    correction: z.string().nullable(),
    decidedAt: timestamp,
    /// Which kind of misleading or unverifiable the verdict is; null for the other verdicts and for t1.
    detail: VerdictDetail.nullable(),
    /// True only when a citation was verified verbatim and judged to bear on the claim (t1 and t2: false).
    sourced: z.boolean(),
    /// The number of distinct sites the consensus cites.
    sources: z.int().nonnegative(),
    /// Who decided: the judge, a unanimous panel without it, or a clear majority of the panel after its debate;
    /// null for t1, and for a claim no model was asked about (its statement still leans on a pronoun).
    decidedBy: z.enum(['judge', 'panel', 'majority']).nullable(),
    /// How often a verdict given with this confidence was right, by the calibration map fitted for these models
    /// (`npm run eval -- verification --calibrate`); null without one, and for t1.
    calibratedConfidence: unit.nullable(),
    /// The steps that fell back on the way to this verdict (empty when every step was done as designed).
    fallbacks: z.array(Fallback),
  })
  .meta({ id: 'Consensus' })
export type Consensus = z.infer<typeof Consensus>

/// A spelling or grammar finding, with offsets into the submitted text.
export const TextIssue = z
  .object({
    charStart: z.int(),
    charEnd: z.int(),
    message: z.string(),
    suggestions: z.array(z.string()),
    rule: z.string(),
  })
  .meta({ id: 'TextIssue' })
export type TextIssue = z.infer<typeof TextIssue>

/// A claim as quoted by an estimate: offsets are UTF-16 indices, end exclusive. `carriedFrom` is the check a
/// re-check keeps its verdicts from (its text and the context either side unchanged since), else null.
export const EstimatedClaim = z
  .object({
    claimId: z.string(),
    text: z.string(),
    charStart: z.int(),
    charEnd: z.int(),
    carriedFrom: z.string().nullable(),
  })
  .meta({ id: 'EstimatedClaim' })
export type EstimatedClaim = z.infer<typeof EstimatedClaim>

/// One fact of a claim that states several, checked on its own.
export const ClaimPart = z
  .object({ statement: z.string(), consensus: z.partialRecord(Tier, Consensus) })
  .meta({ id: 'ClaimPart' })
export type ClaimPart = z.infer<typeof ClaimPart>

export const Claim = EstimatedClaim.extend({
  /// The self-contained sentence actually checked (pronouns, partial names and relative times resolved from
  /// the document); null until a model tier has resolved it.
  statement: z.string().nullable(),
  /// For a claim that states several facts, one entry per fact; the claim's own consensus aggregates them.
  parts: z.array(ClaimPart).nullable(),
  evaluations: z.array(Evaluation),
  consensus: z.partialRecord(Tier, Consensus),
  issues: z.array(TextIssue),
}).meta({ id: 'Claim' })
export type Claim = z.infer<typeof Claim>

export const TierCounts = z.partialRecord(Tier, z.int())

/// The delivery of a check's webhook event: `waiting` until the check ends; `pending` while attempts go on;
/// `delivered` once acknowledged; `failed` when the retry schedule ran out; `skipped` when the check ended
/// without an event (cancelled). `log` holds every attempt with the receiver's status code or the error.
export const WebhookDelivery = z
  .object({
    status: z.enum(['waiting', 'pending', 'delivered', 'failed', 'skipped']),
    eventId: z.string().nullable(),
    attempts: z.int(),
    lastAttemptAt: timestamp.nullable(),
    nextAttemptAt: timestamp.nullable(),
    log: z.array(
      z.object({
        attempt: z.int(),
        attemptedAt: timestamp,
        statusCode: z.int().nullable(),
        error: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'WebhookDelivery' })
export type WebhookDelivery = z.infer<typeof WebhookDelivery>

/// A check's id as the engine makes it (`chk_` and base32 of its time and random bits).
export const CHECK_ID = /^chk_[0-9a-z]{1,64}$/

/// A manuscript's id, made by its client (`mns_` and a random part): the id of the manuscript's check too.
export const MANUSCRIPT_ID = /^mns_[A-Za-z0-9_-]{1,100}$/

/// Extension: the manuscript a check is one part of (a text longer than `limits.maxTextChars`, checked in parts).
/// A part's check has its `part`, 1 to `parts`; the manuscript's own check (its `id`, combining them) has none.
export const CheckManuscript = z
  .object({
    id: z.string().regex(MANUSCRIPT_ID),
    part: z.int().min(1).optional(),
    parts: z.int().min(2).max(1000),
  })
  .meta({ id: 'CheckManuscript' })
export type CheckManuscript = z.infer<typeof CheckManuscript>

export const Check = z
  .object({
    id: z.string(),
    status: CheckStatus,
    name: z.string().nullable(),
    author: z.string().nullable(),
    sourceUrl: z.string().nullable(),
    callbackUrl: z.string().nullable(),
    tiers: z.array(Tier),
    documentId: z.string(),
    claimCount: z.int(),
    credits: z.object({ charged: z.int(), refunded: z.int() }),
    progress: z.object({ claimsDone: TierCounts }),
    createdAt: timestamp,
    updatedAt: timestamp,
    completedAt: timestamp.nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    /// Null when the check has no `callbackUrl`.
    webhook: WebhookDelivery.nullable(),
    /// Extension: only on the checks of a manuscript checked in parts.
    manuscript: CheckManuscript.optional(),
  })
  .meta({ id: 'Check' })
export type Check = z.infer<typeof Check>

export const CheckList = z
  .object({ data: z.array(Check), nextCursor: z.string().nullable() })
  .meta({ id: 'CheckList' })
export type CheckList = z.infer<typeof CheckList>

export const Report = z
  .object({
    check: Check,
    text: z.string(),
    claims: z.array(Claim),
    summary: z.object({
      claimCount: z.int(),
      done: TierCounts,
      verdicts: z.record(z.string(), z.int()),
      /// Model tokens the check spent: panel votes and judges.
      tokens: z.object({ input: z.int(), output: z.int() }),
    }),
    /// Extension: the panel models that vote on each claim, per tier with a panel (t2, t3), so that a claim's
    /// progress reads "votes landed out of panel size".
    panel: TierCounts.meta({
      description: 'Extension: models voting on each claim per tier with a panel (t2, t3)',
      example: { t2: 3 },
    }),
    /// Extension: the source policy the check's t3 followed, as it stood when the check was submitted; null for
    /// a check without t3.
    sources: SourcePolicy.nullable(),
  })
  .meta({ id: 'Report' })
export type Report = z.infer<typeof Report>

/// One schema.org ClaimReview of the `claimreview` export (JSON-LD, for publishing a check's verdicts where
/// search engines read them): a decided claim's verdict as a rating on a scale of `worstRating` to `bestRating`.
export const ClaimReview = z
  .object({
    '@context': z.literal('https://schema.org'),
    '@type': z.literal('ClaimReview'),
    /// The claim's words, without their Markdown marks.
    claimReviewed: z.string(),
    reviewRating: z.object({
      '@type': z.literal('Rating'),
      ratingValue: z.int(),
      bestRating: z.int(),
      worstRating: z.int(),
      /// The verdict in words, e.g. "Misleading: partly true".
      alternateName: z.string(),
    }),
    itemReviewed: z.object({
      '@type': z.literal('Claim'),
      /// Where the claim appears: the check's source, when it has one.
      appearance: z.object({ '@type': z.literal('CreativeWork'), url: z.string() }).optional(),
    }),
    author: z.object({ '@type': z.literal('Organization'), name: z.string(), url: z.string().optional() }),
    /// When the check completed.
    datePublished: timestamp.optional(),
    /// The claim in the check's source (a text fragment of its words), when the check has a source.
    url: z.string().optional(),
  })
  .meta({ id: 'ClaimReview' })
export type ClaimReview = z.infer<typeof ClaimReview>

/// The formats a check's annotated report exports to (an extension), one per row of `EXPORT_FORMATS`.
export const ExportFormat = z.enum(EXPORT_FORMAT_IDS).meta({ id: 'ExportFormat' })
export type ExportFormat = z.infer<typeof ExportFormat>

/// Which claims an export notes one by one (a Word comment, a note, a footnote each): those that need it
/// (`needed`, the default: a claim nothing confirmed, with no spelling finding and needing no attention, is only
/// listed at the end) or `all` of them.
export const ExportComments = z.enum(['needed', 'all']).meta({
  id: 'ExportComments',
  description:
    'Which claims get a comment or note of their own: `needed` (the default) lists the claims nothing could ' +
    'confirm at the end instead, `all` notes every claim',
})
export type ExportComments = z.infer<typeof ExportComments>

export const PriceList = z
  .object({ t1: z.int(), t2: z.int(), t3: z.int(), research: z.int() })
  .meta({ id: 'PriceList' })
export type PriceList = z.infer<typeof PriceList>

export const Quote = z
  .object({
    total: z.int(),
    unitPrices: TierCounts,
    breakdown: z.array(z.object({ tier: Tier, claims: z.int(), unitPrice: z.int(), subtotal: z.int() })),
  })
  .meta({ id: 'Quote' })
export type Quote = z.infer<typeof Quote>

/// A requested tier that cannot run as the service is configured (t2 and t3 without language models), and why,
/// with what makes it run.
export const UnavailableTier = z.object({ tier: Tier, reason: z.string() }).meta({ id: 'UnavailableTier' })
export type UnavailableTier = z.infer<typeof UnavailableTier>

/// `sufficient` speaks of credits only; `unavailable` names the requested tiers a check would be refused for.
export const Estimate = z
  .object({
    documentId: z.string(),
    claimCount: z.int(),
    claims: z.array(EstimatedClaim),
    credits: Quote,
    balance: z.int(),
    sufficient: z.boolean(),
    unavailable: z.array(UnavailableTier),
  })
  .meta({ id: 'Estimate' })
export type Estimate = z.infer<typeof Estimate>

export const ArgumentNode = z
  .object({
    id: z.string(),
    kind: z.enum(['claim', 'proof', 'dissent', 'evidence']),
    text: z.string(),
    sources: z.array(Citation),
  })
  .meta({ id: 'ArgumentNode' })

export const Research = z
  .object({
    id: z.string(),
    status: ResearchStatus,
    claimId: z.string().nullable(),
    text: z.string(),
    credits: z.object({ charged: z.int(), refunded: z.int() }),
    result: z
      .object({
        verdict: Verdict,
        /// Which kind of misleading or unverifiable the finding is, as for a tier's verdict; null otherwise.
        detail: VerdictDetail.nullable(),
        confidence: unit,
        summary: z.string(),
        votes: z.array(
          z.object({
            model: z.string(),
            verdict: Verdict,
            detail: VerdictDetail.nullable(),
            confidence: unit,
            rationale: z.string(),
          }),
        ),
        argumentMap: z.object({
          nodes: z.array(ArgumentNode),
          edges: z.array(
            z.object({ from: z.string(), to: z.string(), relation: z.enum(['supports', 'attacks']) }),
          ),
        }),
        sources: z.array(Citation),
      })
      .nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    completedAt: timestamp.nullable(),
  })
  .meta({ id: 'Research' })
export type Research = z.infer<typeof Research>

/// The organization's recent deep research runs, newest first: what each cost and how it ended.
export const ResearchList = z.object({ data: z.array(Research) }).meta({ id: 'ResearchList' })
export type ResearchList = z.infer<typeof ResearchList>

export const Credits = z.object({ balance: z.int(), prices: PriceList }).meta({ id: 'Credits' })
export type Credits = z.infer<typeof Credits>

export const Organization = z
  .object({ id: z.string(), name: z.string(), createdAt: timestamp })
  .meta({ id: 'Organization' })
export type Organization = z.infer<typeof Organization>

/// A token as listed: never its value, which is shown once at creation.
export const TokenInfo = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    scope: Scope,
    createdAt: timestamp,
  })
  .meta({ id: 'TokenInfo' })
export type TokenInfo = z.infer<typeof TokenInfo>

/// The organization's limits, as the config file's `limits` names them (each but the first absent from a service
/// that does not say).
export const MeLimits = z
  .object({
    maxTextChars: z.int(),
    estimatesPerMinute: z.int().optional(),
    estimateHours: z.number().optional(),
    keptEstimates: z.int().optional(),
    drafts: z.int().optional(),
    draftBytes: z.int().optional(),
    draftsPerMinute: z.int().optional(),
    pendingChecks: z.int().optional(),
    importBytes: z.int().optional(),
    importsAtOnce: z.int().optional(),
  })
  .meta({ id: 'Limits' })
export type MeLimits = z.infer<typeof MeLimits>

export const Me = z
  .object({
    organization: Organization,
    token: TokenInfo,
    /// Extension: the longest text one check takes (a client checks a longer one in parts; absent from a service
    /// that does not say: 200,000), and the limits on free work (api-decisions.md; `limits` of the config file).
    limits: MeLimits.optional(),
  })
  .meta({ id: 'Me' })
export type Me = z.infer<typeof Me>

export const WebhookSecret = z
  .object({
    secret: z.string(),
    createdAt: timestamp,
    previous: z.array(z.object({ expiresAt: timestamp })),
  })
  .meta({ id: 'WebhookSecret' })
export type WebhookSecret = z.infer<typeof WebhookSecret>

export const WebhookSecretRotation = z
  .object({ secret: z.string(), createdAt: timestamp, previousExpiresAt: timestamp })
  .meta({ id: 'WebhookSecretRotation' })
export type WebhookSecretRotation = z.infer<typeof WebhookSecretRotation>

export const ErrorCode = z.enum([
  'bad_request',
  'unauthorized',
  'insufficient_credits',
  'forbidden',
  'not_found',
  'unprocessable',
  'rate_limited',
  'internal_error',
  'providers_unreachable',
  'misdirected_request',
  'request_header_fields_too_large',
  'payload_too_large',
])
export type ErrorCode = z.infer<typeof ErrorCode>

export const FieldError = z.object({ field: z.string(), message: z.string() })
export type FieldError = z.infer<typeof FieldError>

export const ErrorEnvelope = z
  .object({
    error: z.object({ code: ErrorCode, message: z.string(), details: z.array(FieldError).nullable() }),
  })
  .meta({ id: 'Error' })
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>

const tiersField = z.array(Tier).min(1).meta({ description: 'one or more of t1, t2, t3' })

/// A completed check of the same organization whose unchanged claims a re-check keeps instead of checking again.
const previousCheckIdField = z
  .string()
  .nullable()
  .optional()
  .meta({ description: 'a completed check whose unchanged claims are kept, at no cost' })

/// Body of `POST /checks/estimate`.
export const EstimateRequest = z
  .strictObject({ text: storedText, tiers: tiersField, previousCheckId: previousCheckIdField })
  .meta({ id: 'EstimateRequest' })
export type EstimateRequest = z.infer<typeof EstimateRequest>

/// Body of `POST /checks`: exactly one of `documentId` or `text`.
export const CreateCheckRequest = z
  .strictObject({
    documentId: z.string().optional(),
    text: storedText.optional(),
    tiers: tiersField,
    name: storedText.nullable().optional(),
    author: storedText.nullable().optional(),
    sourceUrl: storedText.nullable().optional(),
    callbackUrl: storedText.nullable().optional(),
    previousCheckId: previousCheckIdField,
    manuscript: z
      .strictObject({
        id: CheckManuscript.shape.id,
        part: z.int().min(1),
        parts: CheckManuscript.shape.parts,
      })
      .optional()
      .meta({ description: 'Extension: this check is part `part` of `parts` of the manuscript `id`' }),
  })
  .refine((body) => (body.documentId === undefined) !== (body.text === undefined), {
    message: 'give exactly one of documentId or text',
    path: ['documentId'],
  })
  .refine((body) => !body.manuscript || body.manuscript.part <= body.manuscript.parts, {
    message: 'a part of a manuscript is numbered from 1 to its parts',
    path: ['manuscript', 'part'],
  })
  .meta({ id: 'CreateCheckRequest', oneOf: [{ required: ['text'] }, { required: ['documentId'] }] })
export type CreateCheckRequest = z.infer<typeof CreateCheckRequest>

/// Body of `PATCH /checks/{id}`: only these members, each a string or null.
export const PatchCheckRequest = z
  .strictObject({
    name: storedText.nullable().optional(),
    author: storedText.nullable().optional(),
    sourceUrl: storedText.nullable().optional(),
  })
  .meta({ id: 'PatchCheckRequest' })
export type PatchCheckRequest = z.infer<typeof PatchCheckRequest>

/// Body of `POST /research`: exactly one of `claimId` or `text`.
export const ResearchRequest = z
  .union([z.strictObject({ claimId: z.string() }), z.strictObject({ text: storedText })])
  .meta({ id: 'ResearchRequest' })
export type ResearchRequest = z.infer<typeof ResearchRequest>

// Settings of the app (an extension: the desktop app and the `factdesk web` session only, never an API token).

/// A provider of language models.
export const ModelProvider = z
  .enum(['openai', 'anthropic', 'google', 'ollama', 'openai-compatible'])
  .meta({ id: 'ModelProvider' })
export type ModelProvider = z.infer<typeof ModelProvider>

/// A web search provider for t3 and deep research.
export const SearchProviderName = z
  .enum(['wikipedia', 'brave', 'tavily', 'searxng'])
  .meta({ id: 'SearchProviderName' })
export type SearchProviderName = z.infer<typeof SearchProviderName>

/// The English whose spelling the checkers follow.
export const Dialect = z.enum(['american', 'british', 'canadian', 'australian']).meta({ id: 'Dialect' })
export type Dialect = z.infer<typeof Dialect>

const httpUrl = storable(z.url({ protocol: /^https?$/ }))
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable')
/// A new API key (a string), no change (absent) or none any more (null). Keys are never sent back.
const newKey = storedText.trim().min(1).max(1000).nullable().optional()

/// Whether a key is saved, and its last four characters to tell keys apart; never the key.
export const SavedKey = z
  .object({ hasKey: z.boolean(), last4: z.string().nullable() })
  .meta({ id: 'SavedKey' })
export type SavedKey = z.infer<typeof SavedKey>

/// A model as the settings show it.
export const SettingsModel = z
  .object({
    id: z.string(),
    provider: ModelProvider,
    baseURL: z.string().nullable(),
    model: z.string(),
    /// The environment variable read when no key is saved in the app.
    apiKeyEnv: z.string().nullable(),
    key: SavedKey,
  })
  .meta({ id: 'SettingsModel' })
export type SettingsModel = z.infer<typeof SettingsModel>

/// A model as it is saved: `apiKey` sets (a string), keeps (absent) or removes (null) its key.
export const ModelInput = z
  .strictObject({
    id: storedText.trim().min(1).max(100),
    provider: ModelProvider,
    baseURL: httpUrl.nullable().optional(),
    model: storedText.trim().min(1).max(200),
    apiKeyEnv: envName.nullable().optional(),
    apiKey: newKey,
  })
  .meta({ id: 'ModelInput' })
export type ModelInput = z.infer<typeof ModelInput>

/// The local REST server: off by default; when on, it listens on 127.0.0.1 only.
export const LocalServer = z
  .object({
    /// False where no switch exists: `factdesk serve` and `factdesk web` serve the API already.
    available: z.boolean(),
    enabled: z.boolean(),
    port: z.int(),
    /// Where it answers while it runs, e.g. `http://127.0.0.1:8787/api/v1`; null when off.
    address: z.string().nullable(),
    /// Why it could not start (the port is taken, say); null when it runs or is off.
    error: z.string().nullable(),
  })
  .meta({ id: 'LocalServer' })
export type LocalServer = z.infer<typeof LocalServer>

/// Where the editor's checks run: the engine inside the app, or a remote Factdesk service (the desktop app only).
export const ServiceMode = z.enum(['embedded', 'remote']).meta({ id: 'ServiceMode' })
export type ServiceMode = z.infer<typeof ServiceMode>

/// Why `url` cannot be a remote service's base URL, or null when it can: https, or plain http to this computer.
export function remoteServiceUrlProblem(url: string): string | null {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'is not a URL'
  }
  if (parsed.username || parsed.password) return 'must not hold a user name or password'
  if (parsed.protocol === 'https:') return null
  const loopback = /^(localhost|\[::1\]|127(\.\d{1,3}){3})$/.test(parsed.hostname)
  return parsed.protocol === 'http:' && loopback ? null : 'must be https (plain http only to this computer)'
}

/// A remote service's base URL, `/api/v1` included.
const remoteServiceUrl = storedText
  .trim()
  .max(2000)
  .superRefine((url, context) => {
    const problem = remoteServiceUrlProblem(url)
    if (problem) context.addIssue({ code: 'custom', message: problem })
  })

/// The service the editor talks to; the remote one's token is write-only, like a model's key.
export const ServiceSettings = z
  .object({
    /// False where the page always talks to its own server (`factdesk web`).
    available: z.boolean(),
    mode: ServiceMode,
    baseURL: z.string().nullable(),
    token: SavedKey,
    /// Why a token entered here is not kept (a desktop without a keychain), in words; null where it is.
    tokenRefused: z.string().nullable(),
  })
  .meta({ id: 'ServiceSettings' })
export type ServiceSettings = z.infer<typeof ServiceSettings>

/// How many claims a text's extraction finds: fewer (more precise), balanced, or more (fewer missed); each a
/// threshold of the check-worthiness model, whose precision and recall the README states.
export const FindClaims = z.enum(['fewer', 'balanced', 'more']).meta({ id: 'FindClaims' })
export type FindClaims = z.infer<typeof FindClaims>

/// The app's settings: this file's models and search overlaid on the configuration file's.
export const Settings = z
  .object({
    models: z.object({ panel: z.array(SettingsModel), judge: SettingsModel.nullable() }),
    search: z.object({
      provider: SearchProviderName,
      baseURL: z.string(),
      apiKeyEnv: z.string().nullable(),
      key: SavedKey,
    }),
    writing: z.object({ dialect: Dialect, dictionary: z.array(z.string()), findClaims: FindClaims }),
    /// The organization's source policy: saved in Settings, else the configuration file's `sources`.
    sources: SourcePolicy,
    localServer: LocalServer,
    service: ServiceSettings,
    /// Why keys entered here are not kept (a desktop without a keychain), in words; null where they are.
    keysRefused: z.string().nullable(),
  })
  .meta({ id: 'Settings' })
export type Settings = z.infer<typeof Settings>

/// The writer's spelling settings: the English that counts as right, and the words added to the dictionary.
export type SpellingSettings = Pick<Settings['writing'], 'dialect' | 'dictionary'>

/// Body of `PATCH /settings`: only the parts to change. `models.panel` replaces the whole panel.
export const SettingsPatch = z
  .strictObject({
    models: z
      .strictObject({
        panel: z
          .array(ModelInput)
          .max(16)
          .refine(
            (panel) => new Set(panel.map((m) => m.id)).size === panel.length,
            'model ids must be unique',
          )
          .optional(),
        judge: ModelInput.nullable().optional(),
      })
      .optional(),
    search: z
      .strictObject({
        provider: SearchProviderName.optional(),
        baseURL: httpUrl.optional(),
        apiKeyEnv: envName.nullable().optional(),
        apiKey: newKey,
      })
      .optional(),
    writing: z
      .strictObject({
        dialect: Dialect.optional(),
        dictionary: z.array(storedText.trim().min(1).max(100)).max(10_000).optional(),
        findClaims: FindClaims.optional(),
      })
      .optional(),
    /// The organization's source policy: each list given replaces the one in force.
    sources: SourcePolicyInput.optional(),
    localServer: z
      .strictObject({ enabled: z.boolean().optional(), port: z.int().min(1024).max(65535).optional() })
      .optional(),
    service: z
      .strictObject({ mode: ServiceMode.optional(), baseURL: remoteServiceUrl.optional(), token: newKey })
      .optional(),
  })
  .meta({ id: 'SettingsPatch' })
export type SettingsPatch = z.infer<typeof SettingsPatch>

/// Body of `POST /settings/models/test`: the model as in the form; without `apiKey`, its saved key is used.
export const ModelTestRequest = ModelInput.meta({ id: 'ModelTestRequest' })
export type ModelTestRequest = z.infer<typeof ModelTestRequest>

/// What one small structured request to a model gave: ok with its latency, or the reason in words.
export const ModelTest = z
  .object({ ok: z.boolean(), latencyMs: z.int().nullable(), message: z.string() })
  .meta({ id: 'ModelTest' })
export type ModelTest = z.infer<typeof ModelTest>

/// Body of `POST /settings/search/test`: the search provider as in the form; without `apiKey`, its saved key
/// (else its environment variable) is used.
export const SearchTestRequest = z
  .strictObject({
    provider: SearchProviderName,
    baseURL: httpUrl,
    apiKeyEnv: envName.nullable().optional(),
    apiKey: storedText.trim().min(1).max(1000).optional(),
  })
  .meta({ id: 'SearchTestRequest' })
export type SearchTestRequest = z.infer<typeof SearchTestRequest>

/// What one search gave: ok with its latency and the first results' titles and addresses, or why not.
export const SearchTest = z
  .object({
    ok: z.boolean(),
    latencyMs: z.int().nullable(),
    message: z.string(),
    results: z.array(z.object({ title: z.string(), url: z.string() })),
  })
  .meta({ id: 'SearchTest' })
export type SearchTest = z.infer<typeof SearchTest>

/// A connection test of a remote service as entered in the form; without `token`, the saved one is used.
export const ServiceTestRequest = z
  .strictObject({ baseURL: remoteServiceUrl, token: storedText.trim().min(1).max(1000).optional() })
  .meta({ id: 'ServiceTestRequest' })
export type ServiceTestRequest = z.infer<typeof ServiceTestRequest>

/// What `GET /me` of a remote service gave: ok with the organization and the time it took, or why not.
export const ServiceTest = ModelTest.meta({ id: 'ServiceTest' })
export type ServiceTest = z.infer<typeof ServiceTest>

/// A local Ollama, if one answers: its base URL for `openai-compatible` models and the models it has pulled.
export const OllamaDetection = z
  .object({ running: z.boolean(), baseURL: z.string(), models: z.array(z.string()), message: z.string() })
  .meta({ id: 'OllamaDetection' })
export type OllamaDetection = z.infer<typeof OllamaDetection>

/// An API token as the owner lists it (never its value).
export const ApiToken = TokenInfo.extend({ revokedAt: timestamp.nullable() }).meta({ id: 'ApiToken' })
export type ApiToken = z.infer<typeof ApiToken>

export const TokenList = z.object({ data: z.array(ApiToken) }).meta({ id: 'TokenList' })
export type TokenList = z.infer<typeof TokenList>

/// Body of `POST /tokens`.
export const CreateTokenRequest = z
  .strictObject({ scope: Scope, name: storedText.trim().max(100).nullable().optional() })
  .meta({ id: 'CreateTokenRequest' })
export type CreateTokenRequest = z.infer<typeof CreateTokenRequest>

/// A new token: `value` is shown this once and never again.
export const CreatedToken = z.object({ token: ApiToken, value: z.string() }).meta({ id: 'CreatedToken' })
export type CreatedToken = z.infer<typeof CreatedToken>

/// Body of `POST /credits/grants`: credits added to the organization.
export const GrantRequest = z
  .strictObject({ amount: z.int().min(1).max(1_000_000_000) })
  .meta({ id: 'GrantRequest' })
export type GrantRequest = z.infer<typeof GrantRequest>

/// A check waiting for its model and search providers to be reachable ("check when online", an extension): the
/// request as it will be submitted, with the `Idempotency-Key` that makes its submission happen once. `waiting`
/// until it is submitted (`checkId`), cancelled, or `failed` (`error`: the submission was refused).
export const PendingCheck = z
  .object({
    id: z.string(),
    status: z.enum(['waiting', 'submitted', 'cancelled', 'failed']),
    /// The check's name, or the start of its text: what the writer recognises it by.
    label: z.string(),
    tiers: z.array(Tier),
    documentId: z.string().nullable(),
    idempotencyKey: z.string(),
    attempts: z.int(),
    nextAttemptAt: timestamp.nullable(),
    /// Why the last attempt could not submit (the providers unreachable, say).
    lastError: z.string().nullable(),
    checkId: z.string().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    /// Extension: a manuscript queued in parts is one pending check, its `id` the manuscript's id, its state
    /// its parts' (waiting while one waits); cancelling it cancels them all.
    manuscript: CheckManuscript.optional(),
  })
  .meta({ id: 'PendingCheck' })
export type PendingCheck = z.infer<typeof PendingCheck>

export const PendingCheckList = z.object({ data: z.array(PendingCheck) }).meta({ id: 'PendingCheckList' })
export type PendingCheckList = z.infer<typeof PendingCheckList>

// Drafts (an extension): the writer's open texts, autosaved to the store, each maybe tied to a file on disk.

/// The most characters a draft holds.
export const MAX_DRAFT_CHARS = 1_000_000

/// Why a text of `length` characters cannot be a draft, in words (`what` names the text), or null when it can.
export const draftLengthProblem = (what: string, length: number): string | null =>
  length > MAX_DRAFT_CHARS
    ? `${what} holds ${length.toLocaleString('en')} characters; a draft holds at most ${MAX_DRAFT_CHARS.toLocaleString('en')}.`
    : null

/// The largest file that can be opened as a draft: a Word document with its pictures, say. (A text file's limit
/// is its draft's length.)
export const MAX_FILE_BYTES = 32 * 1024 * 1024

/// Why a file of `bytes` cannot be opened, in words, or null when its size does not stop it.
export const fileSizeProblem = (name: string, bytes: number): string | null =>
  bytes > MAX_FILE_BYTES
    ? `"${name}" is ${(bytes / 1024 / 1024).toFixed(1)} MB; a file to open can be at most ${MAX_FILE_BYTES / 1024 / 1024} MB.`
    : null

/// A claim of the draft's last check as a text-quote selector (its exact text, a little text either side)
/// plus the offsets it had in the checked text: found again by those when the text changed.
export const DraftAnchor = z
  .object({
    claimId: z.string(),
    exact: z.string(),
    prefix: z.string(),
    suffix: z.string(),
    start: z.int(),
    end: z.int(),
  })
  .meta({ id: 'DraftAnchor' })
export type DraftAnchor = z.infer<typeof DraftAnchor>

/// A draft as the recent list shows it. `fileModified`: the text differs from its file as last opened or saved
/// (always true for a draft never saved to a file, once it holds text).
export const DraftSummary = z
  .object({
    id: z.string(),
    title: z.string(),
    /// Its first words (a heading's or a paragraph's, without Markdown markers), to tell drafts apart.
    preview: z.string(),
    filePath: z.string().nullable(),
    fileModified: z.boolean(),
    lastCheckId: z.string().nullable(),
    updatedAt: timestamp,
    openedAt: timestamp,
  })
  .meta({ id: 'DraftSummary' })
export type DraftSummary = z.infer<typeof DraftSummary>

/// A draft with its text and the anchors of its last check's claims.
export const Draft = DraftSummary.extend({ text: z.string(), anchors: z.array(DraftAnchor) }).meta({
  id: 'Draft',
})
export type Draft = z.infer<typeof Draft>

export const DraftList = z.object({ data: z.array(DraftSummary) }).meta({ id: 'DraftList' })
export type DraftList = z.infer<typeof DraftList>

/// The title of a draft created without one (not opened from a file): it then goes by its first words.
export const UNTITLED_DRAFT = 'Untitled'
const draftTitle = z.string().trim().min(1).max(200)

/// Body of `POST /drafts`.
export const CreateDraftRequest = z
  .strictObject({ title: draftTitle.optional(), text: z.string().max(MAX_DRAFT_CHARS).optional() })
  .meta({ id: 'CreateDraftRequest' })
export type CreateDraftRequest = z.infer<typeof CreateDraftRequest>

/// Body of `PATCH /drafts/{id}`, the autosave: only what changed. `lastCheckId` ties a check to the draft (its
/// claims' anchors are kept); `savedToFile` says the text was just saved to a file (a browser download).
export const SaveDraftRequest = z
  .strictObject({
    text: z.string().max(MAX_DRAFT_CHARS).optional(),
    title: draftTitle.optional(),
    lastCheckId: z
      .string()
      .refine((id) => CHECK_ID.test(id) || MANUSCRIPT_ID.test(id), 'must be a check id, `chk_…` or `mns_…`')
      .nullable()
      .optional(),
    savedToFile: z.literal(true).optional(),
  })
  .meta({ id: 'SaveDraftRequest' })
export type SaveDraftRequest = z.infer<typeof SaveDraftRequest>

/// Body of `POST /drafts/import`: a file the page read (Markdown, text or Word), its bytes in base64.
export const ImportFileRequest = z
  .strictObject({
    name: z.string().trim().min(1).max(255),
    content: z
      .base64()
      .max(
        4 * Math.ceil(MAX_FILE_BYTES / 3),
        `a file to open can be at most ${MAX_FILE_BYTES / 1024 / 1024} MB`,
      ),
  })
  .meta({ id: 'ImportFileRequest' })
export type ImportFileRequest = z.infer<typeof ImportFileRequest>

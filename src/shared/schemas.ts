import { z } from 'zod'

/// The contract: every resource of the service as a zod schema. The REST server validates and documents
/// with these, the IPC layer validates with them, and the renderer types itself from them.

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

const timestamp = z
  .string()
  .meta({ description: 'ISO-8601 UTC timestamp', example: '2026-01-01T00:00:00.000Z' })
const unit = z.number().min(0).max(1)

export const Citation = z
  .object({ url: z.string(), title: z.string(), quote: z.string(), retrievedAt: timestamp })
  .meta({ id: 'Citation' })
export type Citation = z.infer<typeof Citation>

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
  })
  .meta({ id: 'Evaluation' })
export type Evaluation = z.infer<typeof Evaluation>

export const Consensus = z
  .object({
    verdict: z.union([Verdict, SpellingVerdict]),
    confidence: unit,
    agreement: unit,
    reasoning: z.string(),
    citations: z.array(Citation),
    correction: z.string().nullable(),
    decidedAt: timestamp,
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

/// A claim as quoted by an estimate: offsets are UTF-16 indices, end exclusive.
export const EstimatedClaim = z
  .object({ claimId: z.string(), text: z.string(), charStart: z.int(), charEnd: z.int() })
  .meta({ id: 'EstimatedClaim' })
export type EstimatedClaim = z.infer<typeof EstimatedClaim>

export const Claim = EstimatedClaim.extend({
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
  })
  .meta({ id: 'Report' })
export type Report = z.infer<typeof Report>

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

export const Estimate = z
  .object({
    documentId: z.string(),
    claimCount: z.int(),
    claims: z.array(EstimatedClaim),
    credits: Quote,
    balance: z.int(),
    sufficient: z.boolean(),
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
        confidence: unit,
        summary: z.string(),
        votes: z.array(
          z.object({ model: z.string(), verdict: Verdict, confidence: unit, rationale: z.string() }),
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

export const Me = z.object({ organization: Organization, token: TokenInfo }).meta({ id: 'Me' })
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
  'internal_error',
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

/// Body of `POST /checks/estimate`.
export const EstimateRequest = z
  .strictObject({ text: z.string(), tiers: tiersField })
  .meta({ id: 'EstimateRequest' })
export type EstimateRequest = z.infer<typeof EstimateRequest>

/// Body of `POST /checks`: exactly one of `documentId` or `text`.
export const CreateCheckRequest = z
  .strictObject({
    documentId: z.string().optional(),
    text: z.string().optional(),
    tiers: tiersField,
    name: z.string().nullable().optional(),
    author: z.string().nullable().optional(),
    sourceUrl: z.string().nullable().optional(),
    callbackUrl: z.string().nullable().optional(),
  })
  .refine((body) => (body.documentId === undefined) !== (body.text === undefined), {
    message: 'give exactly one of documentId or text',
    path: ['documentId'],
  })
  .meta({ id: 'CreateCheckRequest' })
export type CreateCheckRequest = z.infer<typeof CreateCheckRequest>

/// Body of `PATCH /checks/{id}`: only these members, each a string or null.
export const PatchCheckRequest = z
  .strictObject({
    name: z.string().nullable().optional(),
    author: z.string().nullable().optional(),
    sourceUrl: z.string().nullable().optional(),
  })
  .meta({ id: 'PatchCheckRequest' })
export type PatchCheckRequest = z.infer<typeof PatchCheckRequest>

/// Body of `POST /research`: exactly one of `claimId` or `text`.
export const ResearchRequest = z
  .union([z.strictObject({ claimId: z.string() }), z.strictObject({ text: z.string() })])
  .meta({ id: 'ResearchRequest' })
export type ResearchRequest = z.infer<typeof ResearchRequest>

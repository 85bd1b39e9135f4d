import type { Config } from '../../../shared/config'
import type {
  Check,
  CheckList,
  CreateCheckRequest,
  Credits,
  Estimate,
  EstimateRequest,
  Me,
  PatchCheckRequest,
  Report,
  SourcePolicy,
  Tier,
  WebhookSecret,
  WebhookSecretRotation,
} from '../../../shared/schemas'
import { lookupHost, type HostResolver } from '../base/addresses'
import type { Clock } from '../base/clock'
import type { ReportEvents } from '../base/events'
import type { ClaimExtractor } from '../claims/pool'
import type { Store } from '../store'
import type { TierChecker } from '../tiers/tier'
import type { Principal } from './access'
import { Account, type SessionKeys } from './account'
import { Estimates } from './estimate'
import { CheckManager, type Jobs } from './manage'
import type { Reachability } from './reachability'
import { Submissions } from './submit'

/// The operations of the API on one engine: the account (`account.ts`), estimates (`estimate.ts`), submissions
/// (`submit.ts`) and the checks once submitted (`manage.ts`). The REST server, the IPC layer and the CLI all
/// call this one object, through the operations table, which checks who may call what; it knows nothing of HTTP.
export class Service {
  private readonly account: Account
  private readonly estimates: Estimates
  private readonly submissions: Submissions
  private readonly checks: CheckManager

  constructor(
    store: Store,
    config: Config,
    clock: Clock,
    tiers: ReadonlyMap<Tier, TierChecker>,
    jobs: Jobs,
    events: ReportEvents,
    claims: Pick<ClaimExtractor, 'extract'>,
    resolveHost: HostResolver = lookupHost,
    reachability: Pick<Reachability, 'require'> | null = null,
    sourcePolicy: (organizationId: string) => SourcePolicy = () => config.sources,
  ) {
    this.account = new Account(store, config, clock)
    this.estimates = new Estimates(store, config, clock, tiers, claims)
    this.checks = new CheckManager(store, clock, jobs, events)
    this.submissions = new Submissions({
      store,
      config,
      clock,
      tiers,
      jobs,
      events,
      estimates: this.estimates,
      checks: this.checks,
      resolveHost,
      reachability,
      sourcePolicy,
    })
  }

  async authenticate(tokenValue: string): Promise<Principal> {
    return await this.account.authenticate(tokenValue)
  }
  async authenticateSession(keys: SessionKeys): Promise<Principal> {
    return await this.account.authenticateSession(keys)
  }
  async isCurrent(tokenId: string): Promise<boolean> {
    return await this.account.isCurrent(tokenId)
  }
  async me(principal: Principal): Promise<Me> {
    return await this.account.me(principal)
  }
  async credits(principal: Principal): Promise<Credits> {
    return await this.account.credits(principal)
  }
  async webhookSecret(principal: Principal): Promise<WebhookSecret> {
    return await this.account.webhookSecret(principal)
  }
  async rotateWebhookSecret(principal: Principal): Promise<WebhookSecretRotation> {
    return await this.account.rotateWebhookSecret(principal)
  }

  estimate(principal: Principal, request: EstimateRequest): Promise<Estimate> {
    return this.estimates.estimate(principal, request)
  }
  async requireExtraction(
    principal: Principal,
    request: CreateCheckRequest,
    tiers: readonly Tier[],
    store?: Store,
  ): Promise<void> {
    await this.estimates.requireExtraction(principal, request, tiers, store)
  }

  async requireSubmittable(principal: Principal, request: CreateCheckRequest): Promise<Tier[]> {
    return await this.submissions.requireSubmittable(principal, request)
  }
  submit(
    principal: Principal,
    request: CreateCheckRequest,
    idempotencyKey?: string,
  ): Promise<{ check: Check; replayed: boolean }> {
    return this.submissions.submit(principal, request, idempotencyKey)
  }

  async getCheck(principal: Principal, id: string): Promise<Check> {
    return await this.checks.getCheck(principal, id)
  }
  async report(principal: Principal, id: string): Promise<Report> {
    return await this.checks.report(principal, id)
  }
  async listChecks(principal: Principal, limit?: number, cursor?: string | null): Promise<CheckList> {
    return await this.checks.listChecks(principal, limit, cursor)
  }
  async cancel(principal: Principal, id: string): Promise<Check> {
    return await this.checks.cancel(principal, id)
  }
  async patch(principal: Principal, id: string, edits: PatchCheckRequest): Promise<Check> {
    return await this.checks.patch(principal, id, edits)
  }
}

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

  authenticate(tokenValue: string): Principal {
    return this.account.authenticate(tokenValue)
  }
  authenticateSession(keys: SessionKeys): Principal {
    return this.account.authenticateSession(keys)
  }
  isCurrent(tokenId: string): boolean {
    return this.account.isCurrent(tokenId)
  }
  me(principal: Principal): Me {
    return this.account.me(principal)
  }
  credits(principal: Principal): Credits {
    return this.account.credits(principal)
  }
  webhookSecret(principal: Principal): WebhookSecret {
    return this.account.webhookSecret(principal)
  }
  rotateWebhookSecret(principal: Principal): WebhookSecretRotation {
    return this.account.rotateWebhookSecret(principal)
  }

  estimate(principal: Principal, request: EstimateRequest): Promise<Estimate> {
    return this.estimates.estimate(principal, request)
  }
  requireExtraction(principal: Principal, request: CreateCheckRequest, tiers: readonly Tier[]): void {
    this.estimates.requireExtraction(principal, request, tiers)
  }

  requireSubmittable(principal: Principal, request: CreateCheckRequest): Tier[] {
    return this.submissions.requireSubmittable(principal, request)
  }
  submit(
    principal: Principal,
    request: CreateCheckRequest,
    idempotencyKey?: string,
  ): Promise<{ check: Check; replayed: boolean }> {
    return this.submissions.submit(principal, request, idempotencyKey)
  }

  getCheck(principal: Principal, id: string): Check {
    return this.checks.getCheck(principal, id)
  }
  report(principal: Principal, id: string): Report {
    return this.checks.report(principal, id)
  }
  listChecks(principal: Principal, limit?: number, cursor?: string | null): CheckList {
    return this.checks.listChecks(principal, limit, cursor)
  }
  cancel(principal: Principal, id: string): Check {
    return this.checks.cancel(principal, id)
  }
  patch(principal: Principal, id: string, edits: PatchCheckRequest): Check {
    return this.checks.patch(principal, id, edits)
  }
}

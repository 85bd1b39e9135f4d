import { ApiError } from '../../../shared/errors'
import type { Organization, Scope } from '../../../shared/schemas'
import type { Clock } from '../base/clock'
import { newId } from '../base/ids'
import type { Principal } from './access'
import { hashSession, hashToken, newTokenValue, newWebhookSecret, type SessionKeys } from './account'
import type { Store } from '../store'
import type { LedgerKind } from '../store/ledger'
import type { TokenRecord } from '../store/tokens'

/// Starting balance of the organization created on first open.
const DEFAULT_ORGANIZATION_CREDITS = 1000

/// How long a browser session of `factdesk web` lasts; then the link the server prints opens a new one.
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000

/// Operations of whoever holds the data folder (the CLI, the desktop shell, browser-mode sessions): creating
/// organizations and tokens and granting credits. No token reaches these.
export class Admin {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /// A new organization with its first webhook secret and, when `credits` > 0, a grant.
  async createOrganization(name: string, credits: number, isDefault = false): Promise<Organization> {
    if (name.trim() === '') throw new ApiError('bad_request', 'An organization needs a name.')
    if (!Number.isSafeInteger(credits) || credits < 0) {
      throw new ApiError('bad_request', 'Credits must be a whole number, zero or more.')
    }
    const now = this.clock.now()
    const organization: Organization = {
      id: newId('org', now),
      name: name.trim(),
      createdAt: now.toISOString(),
    }
    await this.store.transaction(
      async (tx) => {
        await tx.organizations.insert(organization, isDefault)
        await tx.webhookSecrets.insert(organization.id, {
          id: newId('whs', now),
          secret: newWebhookSecret(),
          createdAt: organization.createdAt,
          expiresAt: null,
        })
        await tx.ledger.record(organization.id, 'grant', credits, null, organization.createdAt)
      },
      { lockOrg: organization.id },
    )
    return organization
  }

  /// The default organization, created with its starting balance the first time a data folder is opened.
  async defaultOrganization(): Promise<Organization> {
    const found = await this.store.organizations.getDefault()
    if (found) return found
    try {
      return await this.createOrganization('Default organization', DEFAULT_ORGANIZATION_CREDITS, true)
    } catch (error) {
      // Another process made it first (replicas of a team server starting together): the one default is theirs,
      // and this one's transaction, refused by the unique index, left nothing behind.
      const made = await this.store.organizations.getDefault()
      if (made) return made
      throw error
    }
  }

  /// A new token; its value is returned here once and never stored.
  async createToken(
    scope: Scope,
    organizationId: string,
    name: string | null,
  ): Promise<{ value: string; token: TokenRecord }> {
    await this.requireOrganization(organizationId)
    const value = newTokenValue()
    return { value, token: await this.insertToken(scope, organizationId, name, null, hashToken(value)) }
  }

  /// A browser session of `factdesk web` for the person at this computer: a write token of the default
  /// organization that only the session cookie and the page's key together carry, for SESSION_LIFETIME_MS. Its
  /// keys are returned here once and never stored. Ended sessions are revoked.
  async createSession(): Promise<{ keys: SessionKeys; token: TokenRecord }> {
    const now = this.clock.now()
    await this.store.tokens.revokeEndedSessions(now.toISOString())
    const ends = new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString()
    const keys: SessionKeys = { cookie: newTokenValue(), pageKey: newTokenValue() }
    const organizationId = (await this.defaultOrganization()).id
    return {
      keys,
      token: await this.insertToken('write', organizationId, 'browser session', ends, hashSession(keys)),
    }
  }

  private async insertToken(
    scope: Scope,
    organizationId: string,
    name: string | null,
    sessionExpiresAt: string | null,
    hash: string,
  ): Promise<TokenRecord> {
    const now = this.clock.now()
    const token: TokenRecord = {
      id: newId('tok', now),
      organizationId,
      name,
      scope,
      createdAt: now.toISOString(),
      revokedAt: null,
      sessionExpiresAt,
    }
    await this.store.tokens.insert(token, hash)
    return token
  }

  async listTokens(organizationId?: string): Promise<TokenRecord[]> {
    if (organizationId !== undefined) await this.requireOrganization(organizationId)
    return await this.store.tokens.list(organizationId)
  }

  async revokeToken(id: string): Promise<void> {
    if (!(await this.store.tokens.get(id))) throw new ApiError('not_found', `There is no token ${id}.`)
    await this.store.tokens.revoke(id, this.clock.now().toISOString())
  }

  /// Adds credits to an organization's balance; returns the new balance.
  async grantCredits(organizationId: string, amount: number): Promise<number> {
    await this.requireOrganization(organizationId)
    if (!Number.isSafeInteger(amount) || amount <= 0) {
      throw new ApiError('bad_request', 'The amount must be a whole number of credits, more than zero.')
    }
    return await this.store.transaction(
      async (tx) => {
        await tx.ledger.record(organizationId, 'grant', amount, null, this.clock.now().toISOString())
        return await tx.ledger.balance(organizationId)
      },
      { lockOrg: organizationId },
    )
  }

  /// The organization's ledger summed per kind: grants, charges, refunds.
  async ledger(organizationId: string): Promise<Record<LedgerKind, number>> {
    return await this.store.ledger.totals(organizationId)
  }

  /// The organization a check belongs to, whichever it is (for the data folder's owner); null when there is none.
  async checkOrganization(checkId: string): Promise<string | null> {
    return (await this.store.checks.byId(checkId))?.organizationId ?? null
  }

  /// The data folder's owner acting in an organization: reading its checks as the local principal does its own.
  async ownerIn(principal: Principal, organizationId: string): Promise<Principal> {
    await this.requireOrganization(organizationId)
    return { ...principal, organizationId }
  }

  private async requireOrganization(id: string): Promise<void> {
    if (!(await this.store.organizations.get(id)))
      throw new ApiError('not_found', `There is no organization ${id}.`)
  }
}

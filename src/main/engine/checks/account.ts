import { createHash } from 'node:crypto'
import type { Config } from '../../../shared/config'
import { ApiError } from '../../../shared/errors'
import type { Credits, Me, WebhookSecret, WebhookSecretRotation } from '../../../shared/schemas'
import type { Clock } from '../base/clock'
import { newId, newSecret } from '../base/ids'
import type { Store } from '../store'
import type { TokenRecord } from '../store/tokens'
import type { Principal } from './access'

/// How long a rotated-out webhook secret keeps signing.
const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000

const TOKEN_SHAPE = /^fdk_[A-Za-z0-9_-]{43}$/

/// A new API token's value: shown once, stored only as its hash.
export const newTokenValue = (): string => newSecret('fdk_')
export const newWebhookSecret = (): string => newSecret('whsec_')
export const hashToken = (value: string): string => createHash('sha256').update(value).digest('hex')

/// A browser session's two halves: the cookie, which the browser also sends to every other server of the same
/// host (cookies ignore the port), and the key that only the page holds, in storage of its own origin. The store
/// keeps one hash of both: neither half alone finds the session.
export interface SessionKeys {
  cookie: string
  pageKey: string
}
export const hashSession = (keys: SessionKeys): string => hashToken(`${keys.cookie} ${keys.pageKey}`)

/// An organization's account as its tokens see it: who a token is, the balance, the webhook secret.
export class Account {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
    private readonly clock: Clock,
  ) {}

  /// Turns a bearer token's value into a principal, or refuses it: unknown, malformed and revoked tokens
  /// all get the same answer, so the reply reveals nothing about which tokens exist.
  async authenticate(tokenValue: string): Promise<Principal> {
    const token = await this.tokenOf(tokenValue)
    // A browser session is not an API token: it is good only as `factdesk web`'s cookie.
    if (!token || token.revokedAt !== null || token.sessionExpiresAt !== null) {
      throw new ApiError('unauthorized', 'The token is not valid: it is unknown, malformed or revoked.')
    }
    return { organizationId: token.organizationId, tokenId: token.id, scope: token.scope, owner: false }
  }

  /// Turns `factdesk web`'s session cookie and its page's key into the principal of the person at this
  /// computer, or refuses them: only a browser session the server opened (never an API token), both halves of
  /// the same session, before it ends and unless revoked.
  async authenticateSession(keys: SessionKeys): Promise<Principal> {
    const shaped = TOKEN_SHAPE.test(keys.cookie) && TOKEN_SHAPE.test(keys.pageKey)
    const token = shaped ? await this.store.tokens.findByHash(hashSession(keys)) : null
    if (!token || token.sessionExpiresAt === null || !this.stands(token)) {
      throw new ApiError(
        'unauthorized',
        'This browser session has ended or is not valid: open the link `factdesk web` printed.',
      )
    }
    return { organizationId: token.organizationId, tokenId: token.id, scope: token.scope, owner: true }
  }

  /// Whether a principal's token still stands: not revoked since, and, for a browser session, not ended. Long
  /// requests (an event stream) ask again as they go.
  async isCurrent(tokenId: string): Promise<boolean> {
    const token = await this.store.tokens.get(tokenId)
    return token !== null && this.stands(token)
  }

  /// The stored token of a value, by its hash; null for a value of no token's shape.
  private async tokenOf(value: string): Promise<TokenRecord | null> {
    return TOKEN_SHAPE.test(value) ? await this.store.tokens.findByHash(hashToken(value)) : null
  }

  /// Whether a token is not revoked and, for a browser session, not ended.
  private stands(token: TokenRecord): boolean {
    if (token.revokedAt !== null) return false
    return token.sessionExpiresAt === null || token.sessionExpiresAt > this.clock.now().toISOString()
  }

  async me(principal: Principal): Promise<Me> {
    const organization = await this.store.organizations.get(principal.organizationId)
    const token = await this.store.tokens.get(principal.tokenId)
    if (!organization || !token) throw new ApiError('unauthorized', 'The token no longer exists.')
    return {
      organization,
      token: { id: token.id, name: token.name, scope: token.scope, createdAt: token.createdAt },
      limits: { ...this.config.limits },
    }
  }

  async credits(principal: Principal): Promise<Credits> {
    return { balance: await this.store.ledger.balance(principal.organizationId), prices: this.config.pricing }
  }

  async webhookSecret(principal: Principal): Promise<WebhookSecret> {
    const [current, ...previous] = await this.store.webhookSecrets.valid(
      principal.organizationId,
      this.clock.now().toISOString(),
    )
    if (!current) throw new Error(`organization ${principal.organizationId} has no webhook secret`)
    return {
      secret: current.secret,
      createdAt: current.createdAt,
      previous: previous.flatMap(({ expiresAt }) => (expiresAt ? [{ expiresAt }] : [])),
    }
  }

  async rotateWebhookSecret(principal: Principal): Promise<WebhookSecretRotation> {
    const now = this.clock.now()
    const previousExpiresAt = new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString()
    const createdAt = now.toISOString()
    const secret = newWebhookSecret()
    await this.store.transaction(async (tx) => {
      await tx.webhookSecrets.retireCurrent(principal.organizationId, previousExpiresAt)
      await tx.webhookSecrets.insert(principal.organizationId, {
        id: newId('whs', now),
        secret,
        createdAt,
        expiresAt: null,
      })
    })
    return { secret, createdAt, previousExpiresAt }
  }
}

import { createHash } from 'node:crypto'
import { ApiError } from '../../shared/errors'
import type { Credits, Me, Scope, WebhookSecret, WebhookSecretRotation } from '../../shared/schemas'
import type { Clock } from './clock'
import type { Config } from '../../shared/config'
import { newId, newSecret } from './ids'
import type { Store } from './store'

/// Who is asking: the organization a token acts for, and what it may do.
export interface Principal {
  organizationId: string
  tokenId: string
  scope: Scope
}

/// How long a rotated-out webhook secret keeps signing.
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000

const TOKEN_SHAPE = /^fdk_[A-Za-z0-9_-]{43}$/

/// A new API token's value: shown once, stored only as its hash.
export const newTokenValue = (): string => newSecret('fdk_')
export const newWebhookSecret = (): string => newSecret('whsec_')
export const hashToken = (value: string): string => createHash('sha256').update(value).digest('hex')

/// The operations of the API, with organization and scope checks. The REST server, the IPC layer and the
/// CLI all call this one object; it knows nothing of HTTP.
export class Service {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
    private readonly clock: Clock,
  ) {}

  /// Turns a bearer token's value into a principal, or refuses it: unknown, malformed and revoked tokens
  /// all get the same answer, so the reply reveals nothing about which tokens exist.
  authenticate(tokenValue: string): Principal {
    const token = TOKEN_SHAPE.test(tokenValue) ? this.store.tokens.findByHash(hashToken(tokenValue)) : null
    if (!token || token.revokedAt !== null) {
      throw new ApiError('unauthorized', 'The token is not valid: it is unknown, malformed or revoked.')
    }
    return { organizationId: token.organizationId, tokenId: token.id, scope: token.scope }
  }

  me(principal: Principal): Me {
    const organization = this.store.organizations.get(principal.organizationId)
    const token = this.store.tokens.get(principal.tokenId)
    if (!organization || !token) throw new ApiError('unauthorized', 'The token no longer exists.')
    return {
      organization,
      token: { id: token.id, name: token.name, scope: token.scope, createdAt: token.createdAt },
    }
  }

  credits(principal: Principal): Credits {
    return { balance: this.store.ledger.balance(principal.organizationId), prices: this.config.pricing }
  }

  webhookSecret(principal: Principal): WebhookSecret {
    requireWrite(principal)
    const [current, ...previous] = this.store.webhookSecrets.valid(principal.organizationId, this.now())
    if (!current) throw new Error(`organization ${principal.organizationId} has no webhook secret`)
    return {
      secret: current.secret,
      createdAt: current.createdAt,
      previous: previous.flatMap(({ expiresAt }) => (expiresAt ? [{ expiresAt }] : [])),
    }
  }

  rotateWebhookSecret(principal: Principal): WebhookSecretRotation {
    requireWrite(principal)
    const now = this.clock.now()
    const previousExpiresAt = new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString()
    const createdAt = now.toISOString()
    const secret = newWebhookSecret()
    this.store.transaction(() => {
      this.store.webhookSecrets.retireCurrent(principal.organizationId, previousExpiresAt)
      this.store.webhookSecrets.insert(principal.organizationId, {
        id: newId('whs', now),
        secret,
        createdAt,
        expiresAt: null,
      })
    })
    return { secret, createdAt, previousExpiresAt }
  }

  private now(): string {
    return this.clock.now().toISOString()
  }
}

/// Refuses read-only tokens.
export function requireWrite(principal: Principal): void {
  if (principal.scope !== 'write') {
    throw new ApiError('forbidden', 'This needs a token with write scope; this one is read-only.')
  }
}

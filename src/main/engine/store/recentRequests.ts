import type { LimitName, RequestLog } from '../base/rateLimit'
import { requireOrganizationLock, type Db } from './database'

/// The requests each organization made in the last minute, per limit of so many a minute (`PerMinuteLimit`): kept
/// in the database, so that every replica of a team server counts the same ones. Counted in a transaction that
/// holds the organization's lock, so that requests made at the same moment on two replicas are counted one after
/// the other.
export class RecentRequests implements RequestLog {
  constructor(
    private readonly db: Db,
    /// The organization whose lock the transaction holds; null outside a transaction or without `lockOrg`.
    private readonly lockedOrganization: string | null,
  ) {}

  /// `RequestLog.take`, in a transaction that holds the organization's lock. Forgets the organization's requests of
  /// that limit made at or before `since` first, so that the table keeps a minute's at most.
  async take(
    organizationId: string,
    limit: LimitName,
    most: number,
    since: string,
    at: string,
  ): Promise<string | null> {
    requireOrganizationLock(this.lockedOrganization, organizationId, 'A request counted against a limit')
    await this.db
      .prepare('DELETE FROM recent_requests WHERE organization_id = ? AND limit_name = ? AND made_at <= ?')
      .run(organizationId, limit, since)
    const counted = (await this.db
      .prepare(
        `SELECT COUNT(*) AS count, MIN(made_at) AS oldest FROM recent_requests
         WHERE organization_id = ? AND limit_name = ?`,
      )
      .get(organizationId, limit)) as { count: number; oldest: string | null }
    if (Number(counted.count) >= most) return counted.oldest
    await this.db
      .prepare('INSERT INTO recent_requests (organization_id, limit_name, made_at) VALUES (?, ?, ?)')
      .run(organizationId, limit, at)
    return null
  }
}

import { ApiError } from '../../../shared/errors'
import { combinedCheck, combinedReport } from '../../../shared/manuscript'
import {
  CHECK_ID,
  MANUSCRIPT_ID,
  type Check,
  type CheckList,
  type PatchCheckRequest,
  type Report,
} from '../../../shared/schemas'
import type { Clock } from '../base/clock'
import type { ReportEvents } from '../base/events'
import type { Store } from '../store'
import type { CheckRecord } from '../store/checks'
import type { Principal } from './access'
import { requireSourceUrl, requireStorableText } from './validation'
import { checkView, reportView } from './views'

/// What the service asks of the job runner.
export interface Jobs {
  submitted(checkId: string): Promise<void>
  abort(checkId: string): void
}

/// The organization's checks once submitted: read, listed, cancelled, edited. A manuscript's id stands for its
/// parts as one check.
export class CheckManager {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly jobs: Jobs,
    private readonly events: ReportEvents,
  ) {}

  /// A check, or a manuscript's: its parts' as one.
  async getCheck(principal: Principal, id: string): Promise<Check> {
    const parts = await this.manuscriptParts(principal, id)
    return parts
      ? await this.manuscriptCheck(id, parts)
      : await checkView(this.store, await this.findCheck(principal, id))
  }

  /// A check's report, or a manuscript's: its parts' as one, on the offsets of its whole text.
  async report(principal: Principal, id: string): Promise<Report> {
    const parts = await this.manuscriptParts(principal, id)
    if (!parts) return await reportView(this.store, await this.findCheck(principal, id))
    return combinedReport(
      await this.manuscriptCheck(id, parts),
      await Promise.all(parts.map((part) => reportView(this.store, part))),
    )
  }

  /// The organization’s checks, newest first, a page of `limit` at a time (its range checked where the request
  /// came in: `CheckPage`).
  async listChecks(principal: Principal, limit = 20, cursor: string | null = null): Promise<CheckList> {
    const after = cursor === null ? null : Buffer.from(cursor, 'base64url').toString()
    if (after !== null && !CHECK_ID.test(after)) {
      throw new ApiError('bad_request', 'cursor is not one this API gave out.', [
        { field: 'cursor', message: 'invalid' },
      ])
    }
    const page = await this.store.checks.list(principal.organizationId, limit + 1, after)
    const shown = page.slice(0, limit)
    // A manuscript once, where its first part stands.
    const data = await Promise.all(
      shown.map((record) =>
        record.manuscript ? this.getCheck(principal, record.manuscript.id) : checkView(this.store, record),
      ),
    )
    const last = shown.at(-1)
    return {
      data,
      nextCursor: page.length > limit && last ? Buffer.from(last.id).toString('base64url') : null,
    }
  }

  /// Stops a check and refunds all of it, once. A cancelled check stays cancelled; an ended one cannot be.
  async cancel(principal: Principal, id: string): Promise<Check> {
    const parts = await this.manuscriptParts(principal, id)
    if (parts) {
      // A manuscript's parts still going; one whose parts have all ended is answered as a check that has.
      const going = parts.filter((part) => part.status === 'queued' || part.status === 'running')
      for (const part of going.length > 0 ? going : parts.slice(-1)) await this.cancel(principal, part.id)
      return await this.getCheck(principal, id)
    }
    const cancelled = await this.store.transaction(
      async (tx) => {
        const check = await this.findCheck(principal, id, tx)
        if (check.status === 'cancelled') return false
        if (check.status === 'completed' || check.status === 'failed') {
          throw new ApiError(
            'unprocessable',
            `Check ${id} has already ${check.status === 'completed' ? 'completed' : 'failed'}.`,
          )
        }
        const at = this.clock.now().toISOString()
        await tx.checks.end(id, { status: 'cancelled', refunded: check.credits.charged, error: null, at })
        await tx.units.cancelCheck(id)
        await tx.ledger.record(check.organizationId, 'refund', check.credits.charged, id, at)
        return true
      },
      { lockOrg: principal.organizationId },
    )
    const check = await this.getCheck(principal, id)
    if (cancelled) {
      this.jobs.abort(id)
      this.events.emit({ type: 'check', organizationId: principal.organizationId, check })
    }
    return check
  }

  /// Edits a check's name, author or sourceUrl, at any time.
  async patch(principal: Principal, id: string, edits: PatchCheckRequest): Promise<Check> {
    requireStorableText({ name: edits.name, author: edits.author, sourceUrl: edits.sourceUrl })
    requireSourceUrl(edits.sourceUrl)
    const parts = await this.manuscriptParts(principal, id)
    if (parts) {
      for (const part of parts) await this.patch(principal, part.id, edits)
      return await this.getCheck(principal, id)
    }
    await this.findCheck(principal, id)
    await this.store.checks.edit(id, edits, this.clock.now().toISOString())
    const check = await this.getCheck(principal, id)
    this.events.emit({ type: 'check', organizationId: principal.organizationId, check })
    return check
  }

  /// The checks of the organization's manuscript `id`, by part; null for an id of no manuscript's shape.
  private async manuscriptParts(principal: Principal, id: string): Promise<CheckRecord[] | null> {
    if (!MANUSCRIPT_ID.test(id)) return null
    const parts = await this.store.checks.ofManuscript(principal.organizationId, id)
    if (parts.length === 0) throw new ApiError('not_found', `There is no check ${id}.`)
    return parts
  }

  private async manuscriptCheck(id: string, parts: readonly CheckRecord[]): Promise<Check> {
    const first = parts[0] as CheckRecord
    return combinedCheck(
      id,
      await Promise.all(parts.map((part) => checkView(this.store, part))),
      first.manuscript?.parts ?? parts.length,
    )
  }

  private async findCheck(principal: Principal, id: string, store = this.store): Promise<CheckRecord> {
    const check = await store.checks.get(principal.organizationId, id)
    if (!check) throw new ApiError('not_found', `There is no check ${id}.`)
    return check
  }
}

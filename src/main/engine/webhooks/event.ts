import type { WebhookEvent } from '../../../shared/webhooks'
import { newId } from '../base/ids'
import type { Store } from '../store'

/// Writes the event of a check that just ended into the outbox, if it has a `callbackUrl` and ended
/// `completed` or `failed` (a cancelled check sends none). Call it inside the transaction that ended the
/// check, so that the event exists exactly when the ending does.
export async function queueCheckEvent(store: Store, checkId: string, at: string): Promise<void> {
  const check = await store.checks.byId(checkId)
  if (!check?.callbackUrl || (check.status !== 'completed' && check.status !== 'failed')) return
  const id = newId('evt', new Date(at))
  const event: WebhookEvent = {
    id,
    type: check.status === 'completed' ? 'check.completed' : 'check.failed',
    createdAt: at,
    data: {
      checkId: check.id,
      status: check.status,
      claimCount: check.claimCount,
      verdicts: await store.results.verdicts(check.id),
      completedAt: check.completedAt,
    },
  }
  await store.outbox.insert({
    id,
    organizationId: check.organizationId,
    checkId: check.id,
    type: event.type,
    url: check.callbackUrl,
    body: JSON.stringify(event),
    createdAt: at,
  })
}

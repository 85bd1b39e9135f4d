import type { WebhookDelivery } from '../../../shared/schemas'
import type { Store } from '../store'
import type { CheckRecord } from '../store/checks'

/// The `webhook` member of a check: null without a `callbackUrl`; `waiting` until the check ends; then the
/// delivery of its event (`pending` while attempts go on, `delivered`, `failed`) with every attempt; `skipped`
/// when it ended without an event (cancelled).
export function webhookView(store: Store, record: CheckRecord): WebhookDelivery | null {
  if (record.callbackUrl === null) return null
  const event = store.outbox.forCheck(record.id)
  if (!event) {
    const active = record.status === 'queued' || record.status === 'running'
    return {
      status: active ? 'waiting' : 'skipped',
      eventId: null,
      attempts: 0,
      lastAttemptAt: null,
      nextAttemptAt: null,
      log: [],
    }
  }
  return {
    status: event.status,
    eventId: event.id,
    attempts: event.attempts,
    lastAttemptAt: event.lastAttemptAt,
    nextAttemptAt: event.nextAttemptAt,
    log: store.outbox.attempts(event.id),
  }
}

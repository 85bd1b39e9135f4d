import type { FactdeskApi, ReportUpdate } from '../../../shared/api'
import {
  combinedCheck,
  DEFAULT_MAX_TEXT_CHARS,
  manuscriptParts,
  newManuscriptId,
  shiftedClaim,
} from '../../../shared/manuscript'
import type { Check, CreateCheckRequest, Estimate, Report } from '../../../shared/schemas'
import { hasEnded } from '../../../shared/vocabulary'

/// One part of a manuscript as estimated, and once submitted its check as last heard.
interface Part {
  from: number
  to: number
  documentId: string
  check: Check | null
}

/// A text longer than one check may be, estimated in this page: its estimate's `documentId` is the manuscript's
/// id, which its parts' checks name (`CheckManuscript`) and which is its check's id on the service.
interface Manuscript {
  id: string
  parts: Part[]
}

/// `api`, with manuscripts of any length: an estimate of a text longer than the service takes in one check
/// (`limits.maxTextChars` of `GET /me`) estimates it in parts (cut where `manuscriptParts` says) and answers one
/// estimate of them all; its submission submits each part, as a part of the manuscript, under the key
/// `<key>-part-<n>` (the same key for every submission of that estimate, so that a retry after a failure charges
/// no part twice), and queueing it to check later queues each part so. The service answers for the manuscript
/// (its check, report, export, cancel, name, history entry, re-check) under its id; here its parts' updates
/// are told as the manuscript's, on the offsets of the whole text.
export function withManuscripts(api: FactdeskApi): FactdeskApi {
  const manuscripts = new Map<string, Manuscript>()
  // The part of a manuscript estimated here that each check is, once heard of.
  const partOf = new Map<string, { manuscript: Manuscript; part: Part }>()

  // Where each part of a manuscript estimated elsewhere (before a reload, say) starts in the whole text, by its
  // check's id, once heard of; and the reports of such manuscripts, that it is found in.
  const placed = new Map<string, Promise<Place | null>>()
  const wholeReports = new Map<string, Promise<Report>>()

  const combined = (manuscript: Manuscript): Check =>
    combinedCheck(
      manuscript.id,
      manuscript.parts.flatMap((part) => (part.check ? [part.check] : [])),
      manuscript.parts.length,
    )
  /// The request of each part of `manuscript`, with its key.
  const partRequests = (
    manuscript: Manuscript,
    request: CreateCheckRequest,
    idempotencyKey: string | undefined,
  ): [CreateCheckRequest, string][] =>
    manuscript.parts.map((part, index) => [
      {
        ...request,
        documentId: part.documentId,
        manuscript: { id: manuscript.id, part: index + 1, parts: manuscript.parts.length },
      },
      `${idempotencyKey ?? manuscript.id}-part-${index + 1}`,
    ])
  /// Remembers a check of a part of a manuscript estimated here; the manuscript, or undefined for another check.
  const heard = (check: Check): Manuscript | undefined => {
    const { id, part: number } = check.manuscript ?? {}
    const manuscript = id === undefined ? undefined : manuscripts.get(id)
    const part = number === undefined ? undefined : manuscript?.parts[number - 1]
    if (!manuscript || !part) return undefined
    part.check = check
    partOf.set(check.id, { manuscript, part })
    return manuscript
  }

  return {
    ...api,

    estimate: async (request) => {
      const me = await api.me()
      const limit = me.limits?.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS
      if (request.text.length <= limit) return api.estimate(request)
      const cuts = manuscriptParts(request.text, limit)
      const estimates: Estimate[] = []
      // One after another, so that a manuscript does not use a minute's estimates at once. A re-check of a
      // manuscript keeps what any of its parts decided.
      for (const cut of cuts)
        estimates.push(await api.estimate({ ...request, text: request.text.slice(cut.from, cut.to) }))
      const manuscript: Manuscript = {
        id: newManuscriptId(),
        parts: cuts.map((cut, index) => ({
          ...cut,
          documentId: estimates[index]?.documentId ?? '',
          check: null,
        })),
      }
      manuscripts.set(manuscript.id, manuscript)
      const last = estimates.at(-1) as Estimate
      const total = estimates.reduce((all, estimate) => all + estimate.credits.total, 0)
      const breakdown = last.credits.breakdown.map((line) => {
        const claims = estimates.reduce(
          (all, estimate) =>
            all + (estimate.credits.breakdown.find((each) => each.tier === line.tier)?.claims ?? 0),
          0,
        )
        return { ...line, claims, subtotal: claims * line.unitPrice }
      })
      return {
        documentId: manuscript.id,
        claimCount: estimates.reduce((all, estimate) => all + estimate.claimCount, 0),
        claims: estimates.flatMap((estimate, index) =>
          estimate.claims.map((claim) => shiftedClaim(claim, cuts[index]?.from ?? 0)),
        ),
        credits: { ...last.credits, total, breakdown },
        balance: last.balance,
        sufficient: total <= last.balance,
        // Every part runs the same tiers on the same service.
        unavailable: last.unavailable,
      }
    },

    // Part by part under the manuscript's keys: after a failure, submitting again replays the parts already
    // accepted and charges only the others.
    submit: async (request, idempotencyKey) => {
      const manuscript = request.documentId === undefined ? undefined : manuscripts.get(request.documentId)
      if (!manuscript) return api.submit(request, idempotencyKey)
      for (const [part, key] of partRequests(manuscript, request, idempotencyKey))
        heard(await api.submit(part, key))
      return combined(manuscript)
    },

    queueCheck: async (request, idempotencyKey) => {
      const manuscript = request.documentId === undefined ? undefined : manuscripts.get(request.documentId)
      if (!manuscript) return api.queueCheck(request, idempotencyKey)
      // Each part queued answers for the manuscript so far (`PendingCheck.manuscript`): the last, for all.
      let queued = null
      for (const [part, key] of partRequests(manuscript, request, idempotencyKey))
        queued = await api.queueCheck(part, key)
      return queued as NonNullable<typeof queued>
    },

    subscribe: (listener) =>
      api.subscribe((update) => {
        const told = asManuscripts(update)
        if (told === undefined) listener(update)
        else void told?.then(listener, () => undefined)
      }),
  }

  /// Where the part checked by `checkId` of the manuscript `id` estimated elsewhere starts: a claim of its report
  /// found in the manuscript's report (whose claims keep their ids), read again when the part came after it.
  /// Null for a part without claims, which has no updates of claims.
  async function place(checkId: string, id: string): Promise<Place | null> {
    const first = (await api.report(checkId)).claims[0]
    if (!first) return null
    for (const again of [false, true]) {
      if (again || !wholeReports.has(id)) {
        const reading = api.report(id)
        wholeReports.set(id, reading)
        // Read again next time after a failure.
        reading.catch(() => wholeReports.get(id) === reading && wholeReports.delete(id))
      }
      const same = (await wholeReports.get(id))?.claims.find((claim) => claim.claimId === first.claimId)
      if (same) return { id, from: same.charStart - first.charStart }
    }
    return null
  }

  /// `update` as its manuscript's, for a check of a part: from the parts heard of, for a manuscript estimated
  /// here; else (after a reload, say) its claims placed as its report says, and its check as the service
  /// answers for the manuscript when a part starts or ends, its progress between left out (null). Undefined
  /// for an update of no part.
  function asManuscripts(update: ReportUpdate): Promise<ReportUpdate> | null | undefined {
    if (update.type === 'claim') {
      const found = partOf.get(update.checkId)
      if (found) return Promise.resolve(onWhole(update, { id: found.manuscript.id, from: found.part.from }))
      return placed.get(update.checkId)?.then((at) => (at ? onWhole(update, at) : update))
    }
    const check = update.type === 'check' || update.type === 'pending' ? update.check : null
    if (check?.manuscript?.part === undefined) return undefined
    const manuscript = heard(check)
    if (!manuscript && !placed.has(check.id)) {
      // Not placed (a report unreadable for now): its claims pass as they are, to land when the manuscript's
      // report is read, until its next update tries again.
      const at = place(check.id, check.manuscript.id).catch(() => {
        placed.delete(check.id)
        return null
      })
      placed.set(check.id, at)
    }
    if (!manuscript && !startedOrEnded(check)) return null
    const whole = manuscript ? Promise.resolve(combined(manuscript)) : api.getCheck(check.manuscript.id)
    return whole.then((each): ReportUpdate => {
      // An ended manuscript's claims have all landed.
      if (hasEnded(each)) wholeReports.delete(each.id)
      return update.type === 'pending' ? { ...update, check: each } : { type: 'check', check: each }
    })
  }
}

/// Where a part of a manuscript starts in its whole text.
interface Place {
  /// The manuscript's id.
  id: string
  from: number
}

/// A part's claim update `update` as its manuscript's, on the offsets of the whole text.
const onWhole = (update: Extract<ReportUpdate, { type: 'claim' }>, at: Place): ReportUpdate => ({
  ...update,
  checkId: at.id,
  issues: update.issues.map((issue) => ({
    ...issue,
    charStart: issue.charStart + at.from,
    charEnd: issue.charEnd + at.from,
  })),
})

/// Whether `check` has just started or ended: the updates of a part of a manuscript worth asking about.
const startedOrEnded = (check: Check): boolean =>
  hasEnded(check) || Object.values(check.progress.claimsDone).every((done) => done === 0)

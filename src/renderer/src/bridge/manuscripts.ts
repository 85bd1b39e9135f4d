import type { FactdeskApi, ReportUpdate } from '../../../shared/api'
import { ApiError } from '../../../shared/errors'
import {
  combinedCheck,
  combinedReport,
  DEFAULT_MAX_TEXT_CHARS,
  manuscriptParts,
  partName,
  shiftedClaim,
} from '../../../shared/manuscript'
import type { Check, Estimate, Report } from '../../../shared/schemas'

/// One part of a manuscript as estimated, and once submitted its check as last heard.
interface Part {
  from: number
  to: number
  documentId: string
  check: Check | null
}

/// A text longer than one check may be, estimated and checked in parts under one Idempotency-Key prefix. Its
/// estimate's `documentId` and its check's `id` are both the manuscript's `id`, which only this page knows.
interface Manuscript {
  id: string
  parts: Part[]
}

const PREFIX = 'manuscript-'
const ENDED = new Set(['completed', 'failed', 'cancelled'])

/// `api`, with manuscripts of any length: an estimate of a text longer than `limit` estimates it in parts (cut
/// where `manuscriptParts` says) and answers one estimate of them all; its submission submits each part under
/// the key `<key>-part-<n>` (the same key for every submission of that estimate, so that a retry after a failure
/// charges no part twice); the manuscript's check, its report, its updates, its cancel and its name in history
/// are those of its parts, as one, on the offsets of the whole text.
export function withManuscripts(api: FactdeskApi, limit = DEFAULT_MAX_TEXT_CHARS): FactdeskApi {
  const manuscripts = new Map<string, Manuscript>()
  // The manuscript of each part's check, and each check's name as the writer gave it.
  const partOf = new Map<string, { manuscript: Manuscript; part: Part }>()
  const names = new Map<string, string | null>()

  const find = (id: string): Manuscript | undefined => manuscripts.get(id)
  const check = (manuscript: Manuscript): Check =>
    combinedCheck(
      manuscript.id,
      names.get(manuscript.id) ?? null,
      manuscript.parts.flatMap((part) => (part.check ? [part.check] : [])),
      manuscript.parts.length,
    )
  // A re-check of a manuscript keeps nothing: its parts are checked anew.
  const withoutManuscript = <T extends { previousCheckId?: string | null | undefined }>(request: T): T => {
    if (!request.previousCheckId || !manuscripts.has(request.previousCheckId)) return request
    const { previousCheckId: _dropped, ...rest } = request
    return rest as T
  }
  const submitted = (manuscript: Manuscript): Part[] => manuscript.parts.filter((part) => part.check)

  async function refresh(manuscript: Manuscript): Promise<Report[]> {
    const reports = await Promise.all(submitted(manuscript).map((part) => api.report(part.check?.id ?? '')))
    submitted(manuscript).forEach((part, index) => {
      part.check = reports[index]?.check ?? part.check
    })
    return reports
  }

  return {
    ...api,

    estimate: async (request) => {
      const asked = withoutManuscript(request)
      if (asked.text.length <= limit) return api.estimate(asked)
      const { previousCheckId: _kept, ...fresh } = asked
      const cuts = manuscriptParts(asked.text, limit)
      const estimates: Estimate[] = []
      // One after another, so that a manuscript does not use a minute's estimates at once.
      for (const cut of cuts)
        estimates.push(await api.estimate({ ...fresh, text: asked.text.slice(cut.from, cut.to) }))
      const manuscript: Manuscript = {
        id: `${PREFIX}${crypto.randomUUID()}`,
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
      }
    },

    submit: async (request, idempotencyKey) => {
      const manuscript = request.documentId === undefined ? undefined : find(request.documentId)
      if (!manuscript) return api.submit(withoutManuscript(request), idempotencyKey)
      names.set(manuscript.id, request.name ?? null)
      const count = manuscript.parts.length
      // Part by part under the manuscript's keys: after a failure, submitting again replays the parts
      // already accepted and charges only the others.
      for (const [index, part] of manuscript.parts.entries()) {
        part.check = await api.submit(
          {
            ...withoutManuscript(request),
            documentId: part.documentId,
            name: partName(request.name, index + 1, count),
          },
          `${idempotencyKey ?? manuscript.id}-part-${index + 1}`,
        )
        partOf.set(part.check.id, { manuscript, part })
      }
      return check(manuscript)
    },

    getCheck: async (id) => {
      const manuscript = find(id)
      if (!manuscript) return api.getCheck(id)
      await refresh(manuscript)
      return check(manuscript)
    },

    report: async (id) => {
      const manuscript = find(id)
      if (!manuscript) return api.report(id)
      const reports = await refresh(manuscript)
      return combinedReport(check(manuscript), reports, submitted(manuscript))
    },

    cancel: async (id) => {
      const manuscript = find(id)
      if (!manuscript) return api.cancel(id)
      for (const part of submitted(manuscript))
        if (part.check && !ENDED.has(part.check.status)) part.check = await api.cancel(part.check.id)
      return check(manuscript)
    },

    patch: async (id, edits) => {
      const manuscript = find(id)
      if (!manuscript) return api.patch(id, edits)
      if (edits.name !== undefined) names.set(manuscript.id, edits.name)
      const count = manuscript.parts.length
      for (const [index, part] of submitted(manuscript).entries()) {
        const name = edits.name === undefined ? {} : { name: partName(edits.name, index + 1, count) }
        part.check = await api.patch(part.check?.id ?? '', { ...edits, ...name })
      }
      return check(manuscript)
    },

    export: (id, format) => {
      if (!find(id)) return api.export(id, format)
      return Promise.reject(
        new ApiError(
          'unprocessable',
          'A manuscript checked in parts is exported part by part, from History.',
        ),
      )
    },

    queueCheck: (request) => {
      if (request.documentId === undefined || !find(request.documentId)) return api.queueCheck(request)
      return Promise.reject(
        new ApiError(
          'unprocessable',
          'A manuscript checked in parts cannot wait to be checked: check it online.',
        ),
      )
    },

    // History shows a manuscript once, where its first part is, with the state of them all.
    listChecks: async (page) => {
      const list = await api.listChecks(page)
      for (const each of list.data) {
        const found = partOf.get(each.id)
        if (found) found.part.check = each
      }
      const shown = new Set<string>()
      const data = list.data.flatMap((each) => {
        const manuscript = partOf.get(each.id)?.manuscript
        if (!manuscript) return [each]
        if (shown.has(manuscript.id)) return []
        shown.add(manuscript.id)
        return [check(manuscript)]
      })
      return { ...list, data }
    },

    saveDraft: (id, request) => {
      if (request.lastCheckId == null || !find(request.lastCheckId)) return api.saveDraft(id, request)
      // The service knows no manuscript: the draft keeps the check it had.
      const { lastCheckId: _manuscript, ...rest } = request
      return api.saveDraft(id, rest)
    },

    subscribe: (listener) =>
      api.subscribe((update) => {
        const found =
          update.type === 'check' || update.type === 'claim' ? partOf.get(idOf(update)) : undefined
        if (!found) return listener(update)
        const { manuscript, part } = found
        if (update.type === 'check') {
          part.check = update.check
          listener({ type: 'check', check: check(manuscript) })
        } else if (update.type === 'claim') {
          listener({
            ...update,
            checkId: manuscript.id,
            issues: update.issues.map((issue) => ({
              ...issue,
              charStart: issue.charStart + part.from,
              charEnd: issue.charEnd + part.from,
            })),
          })
        }
      }),
  }
}

const idOf = (update: Extract<ReportUpdate, { type: 'check' | 'claim' }>): string =>
  update.type === 'check' ? update.check.id : update.checkId
